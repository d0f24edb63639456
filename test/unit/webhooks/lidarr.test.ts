// Lidarr's webhooks, against the messages Zulip's zerver/webhooks/lidarr/tests.py expects. The
// payloads are trimmed to what the integration reads, in the shape Lidarr sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { lidarr } from '../../../resolvers/webhooks/integrations/lidarr.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown) => translateWith(lidarr, { body: payload });

const artist = (name: string) => ({ id: 1, name, path: `/music/${name}`, mbId: 'a5ca53d3' });
const tracks = (...titles: string[]) => titles.map((title, i) => ({ id: i + 1, title, trackNumber: String(i + 1), quality: 'FLAC' }));

const UB40 = ['Cherry Oh Baby', 'Keep On Moving', "Please Don't Make Me Cry", 'Sweet Sensation', 'Johnny Too Bad', 'Red Red Wine', 'Guilty', 'She Caught the Train', 'Version Girl', 'Many Rivers to Cross'];
const MJ = [
  'Scream', 'Billie Jean', 'The Way You Make Me Feel', 'They Don’t Care About Us', 'Stranger in Moscow', 'Black or White', 'This Time Around',
  'Rock With You', 'Earth Song', 'She’s Out of My Life', 'D.S.', 'Bad', 'Money', 'I Just Can’t Stop Loving You', 'Man in the Mirror', 'Come Together',
  'Thriller', 'You Are Not Alone', 'Beat It', 'Childhood (theme from “Free Willy 2”)',
];
const MJ_ALL = [...MJ, 'Smooth Criminal', 'Dirty Diana', 'Leave Me Alone', 'Heal the World', 'Blood on the Dance Floor', 'Remember the Time', 'Don’t Stop ’Til You Get Enough', 'Will You Be There', 'Human Nature', 'Speed Demon'];

describe('Test', () => {
  it('says the webhook is configured', () => {
    expectMessage(send({ eventType: 'Test', artist: artist('Test Artist') }), 'Lidarr - Test', 'Lidarr webhook has been successfully configured.', 'Test');
  });
});

describe('Rename', () => {
  it('names the artist', () => {
    expectMessage(send({ eventType: 'Rename', artist: artist('Little Mix') }), 'Little Mix', 'The artist Little Mix has had its tracks renamed.', 'Rename');
  });
});

describe('Retag', () => {
  it('names the artist', () => {
    expectMessage(send({ eventType: 'Retag', artist: artist('Little Mix') }), 'Little Mix', 'The artist Little Mix has had its tracks retagged.', 'Retag');
  });
});

describe('Grab', () => {
  it('names the album', () => {
    const payload = { eventType: 'Grab', artist: artist('UB40'), albums: [{ id: 1, title: 'Labour of Love', releaseDate: '1983-09-12' }] };
    expectMessage(send(payload), 'UB40', 'The album Labour of Love by UB40 has been grabbed.', 'Grab');
  });
});

describe('Download', () => {
  it('lists the tracks imported', () => {
    const payload = { eventType: 'Download', artist: artist('UB40'), tracks: tracks(...UB40), isUpgrade: false };
    expectMessage(send(payload), 'UB40', `The following tracks by UB40 have been imported:\n${UB40.map((t) => `* ${t}`).join('\n')}`, 'Download');
  });

  it('says when they replace others', () => {
    const titles = ['The National Manthem', 'Woman Like Me', 'Think About Us', 'Woman’s World', 'The Cure (stripped)', 'Only You'];
    const payload = { eventType: 'Download', artist: artist('Little Mix'), tracks: tracks(...titles), isUpgrade: true };
    expectMessage(send(payload), 'Little Mix', `The following tracks by Little Mix have been imported due to upgrade:\n${titles.map((t) => `* ${t}`).join('\n')}`);
  });

  it('lists 20 tracks and counts the others', () => {
    const list = `${MJ.map((t) => `* ${t}`).join('\n')}\n[and 10 more tracks(s)]`;
    expectMessage(send({ eventType: 'Download', artist: artist('Michael Jackson'), tracks: tracks(...MJ_ALL), isUpgrade: false }), 'Michael Jackson', `The following tracks by Michael Jackson have been imported:\n${list}`);
    expectMessage(send({ eventType: 'Download', artist: artist('Michael Jackson'), tracks: tracks(...MJ_ALL), isUpgrade: true }), 'Michael Jackson', `The following tracks by Michael Jackson have been imported due to upgrade:\n${list}`);
  });

  it('lists exactly 20 tracks without a count', () => {
    const outcome = send({ eventType: 'Download', artist: artist('Michael Jackson'), tracks: tracks(...MJ), isUpgrade: false });
    expect(outcome.messages[0]!.content.endsWith('* Childhood (theme from “Free Willy 2”)')).toBe(true);
  });
});

describe('refusals', () => {
  it("is registered under its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('lidarr')).toBe(lidarr);
    expect(lidarr.displayName).toBe('Lidarr');
    expect(lidarr.eventTypes).toEqual(['Test', 'Grab', 'Rename', 'Retag', 'Download']);
  });

  it('refuses events Zulip does not support, and downloads of unknown kind', () => {
    for (const eventType of ['Health', '__proto__', 'Download']) {
      expectError(() => send({ eventType, artist: artist('x') }), UnsupportedWebhookEventTypeError, `The '${eventType}' event isn't currently supported by the Lidarr webhook; ignoring`);
    }
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('[1,'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send(null), ParleyError, 'payload is not a dict');
    expectError(() => send({ eventType: 'Rename', artist: 'UB40' }), ParleyError, 'payload["artist"] is not a dict');
    expectError(() => send({ eventType: 'Grab', artist: artist('x'), albums: [] }), ParleyError, 'payload["albums"][0] is missing');
    expectError(() => send({ eventType: 'Download', artist: artist('x'), isUpgrade: false }), ParleyError, 'payload["tracks"] is missing');
    expectError(() => send({ eventType: 'Download', artist: artist('x'), isUpgrade: false, tracks: [{ title: 5 }] }), ParleyError, 'payload["tracks"][0]["title"] is not a string');
    expectError(() => send({ eventType: 'Download', artist: artist('x'), isUpgrade: null, tracks: [] }), ParleyError, 'payload["isUpgrade"] is not a boolean');
  });
});
