// Sonarr's webhooks, against the messages Zulip's zerver/webhooks/sonarr/tests.py expects. The
// payloads are trimmed to what the integration reads, in the shape Sonarr v3 sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { sonarr } from '../../../resolvers/webhooks/integrations/sonarr.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown) => translateWith(sonarr, { body: payload });

const series = (title: string) => ({ id: 1, title, path: `/tv/${title}`, tvdbId: 81189 });
const episodes = (seasonNumber: number, episodeNumber: number, title: string) => [{ id: 40, episodeNumber, seasonNumber, title, airDate: '2021-04-08' }];
const ncis = { series: series('NCIS'), episodes: episodes(18, 10, 'Watchdog') };

describe('Test', () => {
  it('says the webhook is configured', () => {
    expectMessage(send({ eventType: 'Test', series: series('Test Title'), episodes: episodes(1, 1, 'Test title') }), 'Sonarr - Test', 'Sonarr webhook has been successfully configured.', 'Test');
  });
});

describe('SeriesDelete', () => {
  it('names the series', () => {
    expectMessage(send({ eventType: 'SeriesDelete', series: series('Breaking Bad'), deletedFiles: true }), 'Breaking Bad', 'Breaking Bad has been deleted.', 'SeriesDelete');
  });
});

describe('Health', () => {
  it("gives the warning in a topic named after its level", () => {
    const message = 'Indexers unavailable due to failures for more than 6 hours: Academic Torrents - Jackett, ACG - Jackett';
    expectMessage(send({ eventType: 'Health', level: 'warning', message, type: 'IndexerLongTermStatusCheck' }), 'Health warning', `${message}.`, 'Health');
  });

  it('gives errors too', () => {
    const message = 'No indexers available with RSS sync enabled, Sonarr will not grab new releases automatically';
    expectMessage(send({ eventType: 'Health', level: 'error', message }), 'Health error', `${message}.`);
  });
});

describe('Rename', () => {
  it('names the series', () => {
    expectMessage(send({ eventType: 'Rename', series: series('The L Word') }), 'The L Word', 'The L Word episodes have been renamed.', 'Rename');
  });
});

describe('Download', () => {
  it('names the episode imported', () => {
    const payload = { eventType: 'Download', series: series("Grey's Anatomy"), episodes: episodes(17, 9, 'In My Life'), episodeFile: { quality: 'HDTV-720p' }, isUpgrade: false };
    expectMessage(send(payload), "Grey's Anatomy", "Grey's Anatomy - 17x9 - In My Life has been imported.", 'Download');
  });

  it('gives the qualities of an upgrade', () => {
    const payload = { eventType: 'Download', ...ncis, episodeFile: { quality: 'HDTV-720p' }, isUpgrade: true, deletedFiles: [{ quality: 'SDTV' }] };
    expectMessage(send(payload), 'NCIS', 'NCIS - 18x10 - Watchdog has been upgraded from SDTV to HDTV-720p.');
  });
});

describe('Grab', () => {
  it('names the episode', () => {
    expectMessage(send({ eventType: 'Grab', ...ncis, release: { quality: 'HDTV-720p' } }), 'NCIS', 'NCIS - 18x10 - Watchdog has been grabbed.', 'Grab');
  });
});

describe('EpisodeFileDelete', () => {
  it('names the episode', () => {
    const payload = { eventType: 'EpisodeFileDelete', series: series('Breaking Bad'), episodes: episodes(1, 1, 'Pilot'), deleteReason: 'manual' };
    expectMessage(send(payload), 'Breaking Bad', 'Breaking Bad - 1x1 - Pilot has been deleted.', 'EpisodeFileDelete');
  });

  it('says when an upgrade replaced it', () => {
    const payload = { eventType: 'EpisodeFileDelete', series: series('S.W.A.T. (2017)'), episodes: episodes(4, 10, 'Buried'), deleteReason: 'upgrade' };
    expectMessage(send(payload), 'S.W.A.T. (2017)', 'S.W.A.T. (2017) - 4x10 - Buried has been deleted due to quality upgrade.');
  });
});

describe('refusals', () => {
  it("is registered under its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('sonarr')).toBe(sonarr);
    expect(sonarr.displayName).toBe('Sonarr');
    expect(sonarr.eventTypes).toEqual(['Grab', 'EpisodeFileDelete', 'Test', 'Download', 'SeriesDelete', 'Health', 'Rename']);
  });

  it('refuses events Zulip does not support, and downloads and deletions of unknown kind', () => {
    for (const [eventType, extra] of [['ApplicationUpdate', {}], ['constructor', {}], ['Download', ncis], ['EpisodeFileDelete', ncis]] as const) {
      expectError(() => send({ eventType, ...extra }), UnsupportedWebhookEventTypeError, `The '${eventType}' event isn't currently supported by the Sonarr webhook; ignoring`);
    }
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('nope'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send({}), ParleyError, 'payload["eventType"] is missing');
    expectError(() => send({ eventType: 'Health', message: 'x' }), ParleyError, 'payload["level"] is missing');
    expectError(() => send({ eventType: 'Grab', series: series('NCIS'), episodes: [] }), ParleyError, 'payload["episodes"][0] is missing');
    expectError(() => send({ eventType: 'Grab', series: series('NCIS'), episodes: [{ seasonNumber: '18', episodeNumber: 10, title: 'x' }] }), ParleyError, 'payload["episodes"][0]["seasonNumber"] is not an integer');
    expectError(() => send({ eventType: 'Download', ...ncis, isUpgrade: 'yes' }), ParleyError, 'payload["isUpgrade"] is not a boolean');
    expectError(() => send({ eventType: 'Download', ...ncis, isUpgrade: true, episodeFile: { quality: 'HDTV-720p' }, deletedFiles: {} }), ParleyError, 'payload["deletedFiles"] is not a list');
    expectError(() => send({ eventType: 'Rename', series: { title: null } }), ParleyError, 'payload["series"]["title"] is not a string');
  });
});
