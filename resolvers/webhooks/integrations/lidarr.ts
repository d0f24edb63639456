// Lidarr's webhook connection (Zulip's zerver/webhooks/lidarr): the payload's `eventType` names the
// event, and an artist's events go to a topic named after them.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { WildValue } from '../payload.ts';
import { rstrip } from './git.ts';
import { first, setupMessage, servarrIntegration } from './servarr.ts';

const NAME = 'Lidarr';

const EVENT_TYPES = ['Test', 'Grab', 'Rename', 'Retag', 'Download'] as const;

/** How many imported tracks are listed by name; the others are counted. */
const TRACKS_LIMIT = 20;

const artistName = (payload: WildValue) => payload.get('artist').get('name').str();

function importedTracks(payload: WildValue, upgrade: boolean): string {
  const titles = payload.get('tracks').list().map((track) => track.get('title').str());
  const artist = artistName(payload);
  const rows = titles.slice(0, TRACKS_LIMIT).map((title) => `* ${title}`);
  if (titles.length > TRACKS_LIMIT) rows.push(`[and ${titles.length - TRACKS_LIMIT} more tracks(s)]`);
  // Sending strips the message, so a title's trailing spaces (or an empty list's newline) go.
  return rstrip(`The following tracks by ${artist} have been imported${upgrade ? ' due to upgrade' : ''}:\n${rows.join('\n')}`);
}

function content(event: string, payload: WildValue): string {
  if (event === 'Test') return setupMessage(NAME);
  if (event === 'Grab') {
    const artist = artistName(payload);
    return `The album ${first(payload.get('albums')).get('title').str()} by ${artist} has been grabbed.`;
  }
  if (event === 'Rename') return `The artist ${artistName(payload)} has had its tracks renamed.`;
  if (event === 'Retag') return `The artist ${artistName(payload)} has had its tracks retagged.`;
  // Lidarr's older downloads do not say whether they are upgrades; Zulip ignores them.
  if (event === 'Download' && payload.has('isUpgrade')) return importedTracks(payload, payload.get('isUpgrade').bool());
  throw new UnsupportedWebhookEventTypeError(NAME, event);
}

export const lidarr = servarrIntegration('lidarr', NAME, EVENT_TYPES, content, (event, payload) => (event === 'Test' ? 'Lidarr - Test' : artistName(payload)));
