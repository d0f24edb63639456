// Radarr's webhooks, against the messages Zulip's zerver/webhooks/radarr/tests.py expects. The
// payloads are trimmed to what the integration reads, in the shape Radarr v4 sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { radarr } from '../../../resolvers/webhooks/integrations/radarr.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown) => translateWith(radarr, { body: payload });

const movie = (title: string) => ({ id: 1, title, releaseDate: '2020-12-18', folderPath: `/movies/${title}`, tmdbId: 524047 });

describe('Test', () => {
  it('says the webhook is configured', () => {
    expectMessage(send({ eventType: 'Test', movie: movie('Test Title') }), 'Radarr - Test', 'Radarr webhook has been successfully configured.', 'Test');
  });
});

describe('ApplicationUpdate', () => {
  it('gives the versions', () => {
    const payload = { eventType: 'ApplicationUpdate', message: 'Radarr updated from 4.2.0.6370 to 4.2.0.6372', previousVersion: '4.2.0.6370', newVersion: '4.2.0.6372' };
    expectMessage(send(payload), 'Radarr - Application update', 'Radarr was updated from 4.2.0.6370 to 4.2.0.6372.', 'ApplicationUpdate');
  });
});

describe('Health', () => {
  it('gives the message in a topic named after its level', () => {
    expectMessage(send({ eventType: 'Health', level: 'warning', message: 'No download client is available' }), 'Health warning', 'No download client is available.', 'Health');
    expectMessage(send({ eventType: 'Health', level: 'error', message: 'Movie Gotham City Sirens (tmdbid 416649) was removed from TMDb' }), 'Health error', 'Movie Gotham City Sirens (tmdbid 416649) was removed from TMDb.');
  });
});

describe('Rename', () => {
  it('names the movie', () => {
    expectMessage(send({ eventType: 'Rename', movie: movie('Marley & Me') }), 'Marley & Me', 'The movie Marley & Me has been renamed.', 'Rename');
  });
});

describe('Download', () => {
  it('names the movie imported', () => {
    const payload = { eventType: 'Download', movie: movie('Batman v Superman: Dawn of Justice'), movieFile: { quality: 'Bluray-1080p' }, isUpgrade: false };
    expectMessage(send(payload), 'Batman v Superman: Dawn of Justice', 'The movie Batman v Superman: Dawn of Justice has been imported.', 'Download');
  });

  it('gives the qualities of an upgrade', () => {
    const payload = { eventType: 'Download', movie: movie('Greenland'), movieFile: { quality: 'WEBRip-1080p' }, isUpgrade: true, deletedFiles: [{ quality: 'WEBRip-720p' }] };
    expectMessage(send(payload), 'Greenland', 'The movie Greenland has been upgraded from WEBRip-720p to WEBRip-1080p.');
  });
});

describe('Grab', () => {
  it('names the movie', () => {
    expectMessage(send({ eventType: 'Grab', movie: movie('Greenland'), release: { quality: 'WEBRip-1080p' } }), 'Greenland', 'The movie Greenland has been grabbed.', 'Grab');
  });
});

describe('MovieDelete', () => {
  it('says whether the files went too', () => {
    const title = 'Batman v Superman: Dawn of Justice';
    expectMessage(send({ eventType: 'MovieDelete', movie: movie(title), deletedFiles: true }), title, `The movie ${title} was deleted; its files were also deleted.`, 'MovieDelete');
    expectMessage(send({ eventType: 'MovieDelete', movie: movie(title), deletedFiles: false }), title, `The movie ${title} was deleted; its files were not deleted.`);
  });
});

describe('MovieFileDelete', () => {
  it('gives the quality and the reason', () => {
    const payload = { eventType: 'MovieFileDelete', movie: movie('Marley & Me'), movieFile: { quality: 'Bluray-1080p' }, deleteReason: 'missingFromDisk' };
    expectMessage(send(payload), 'Marley & Me', 'A file with quality Bluray-1080p for the movie Marley & Me was deleted, because it is missing from disk.', 'MovieFileDelete');
    expectMessage(send({ ...payload, deleteReason: 'manualOverride' }), 'Marley & Me', 'A file with quality Bluray-1080p for the movie Marley & Me was deleted, via manual override.');
  });
});

describe('MovieAdded', () => {
  it('names the movie', () => {
    const title = 'Batman v Superman: Dawn of Justice';
    expectMessage(send({ eventType: 'MovieAdded', movie: movie(title), addMethod: 'manual' }), title, `The movie ${title} was added.`, 'MovieAdded');
  });
});

describe('refusals', () => {
  it("is registered under its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('radarr')).toBe(radarr);
    expect(radarr.displayName).toBe('Radarr');
    expect(radarr.eventTypes).toEqual(['ApplicationUpdate', 'Test', 'Rename', 'Download', 'Health', 'Grab', 'MovieDelete', 'MovieFileDelete', 'MovieAdded']);
  });

  it('refuses events Zulip does not support, and downloads of unknown kind', () => {
    for (const eventType of ['ManualInteractionRequired', 'toString', 'Download']) {
      expectError(() => send({ eventType, movie: movie('x') }), UnsupportedWebhookEventTypeError, `The '${eventType}' event isn't currently supported by the Radarr webhook; ignoring`);
    }
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send(''), InvalidJsonError, 'Malformed JSON');
    expectError(() => send({ eventType: ['Grab'] }), ParleyError, 'payload["eventType"] is not a string');
    expectError(() => send({ eventType: 'Grab' }), ParleyError, 'payload["movie"] is missing');
    expectError(() => send({ eventType: 'MovieDelete', movie: movie('x'), deletedFiles: [] }), ParleyError, 'payload["deletedFiles"] is not a boolean');
    expectError(() => send({ eventType: 'MovieFileDelete', movie: movie('x'), movieFile: { quality: 'q' }, deleteReason: 'constructor' }), ParleyError, 'Invalid payload["deleteReason"]');
    expectError(() => send({ eventType: 'Download', movie: movie('x'), movieFile: { quality: 'q' }, isUpgrade: 1, deletedFiles: [] }), ParleyError, 'payload["deletedFiles"][0] is missing');
    expectError(() => send({ eventType: 'ApplicationUpdate', previousVersion: 4 }), ParleyError, 'payload["previousVersion"] is not a string');
  });
});
