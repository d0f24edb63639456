// Sonarr's webhook connection (Zulip's zerver/webhooks/sonarr): the payload's `eventType` names the
// event, and a series' events go to a topic named after it.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { WildValue } from '../payload.ts';
import { first, healthMessage, healthTopic, setupMessage, servarrIntegration } from './servarr.ts';

const NAME = 'Sonarr';

const EVENT_TYPES = ['Grab', 'EpisodeFileDelete', 'Test', 'Download', 'SeriesDelete', 'Health', 'Rename'] as const;

const seriesTitle = (payload: WildValue) => payload.get('series').get('title').str();

/** `<series> - <season>x<episode> - <episode title>`, for the event's first episode. */
function episode(payload: WildValue): string {
  const series = seriesTitle(payload);
  const firstEpisode = first(payload.get('episodes'));
  const season = firstEpisode.get('seasonNumber').int();
  const number = firstEpisode.get('episodeNumber').int();
  return `${series} - ${season}x${number} - ${firstEpisode.get('title').str()}`;
}

function content(event: string, payload: WildValue): string {
  if (event === 'Test') return setupMessage(NAME);
  if (event === 'Health') return healthMessage(payload);
  if (event === 'Rename') return `${seriesTitle(payload)} episodes have been renamed.`;
  if (event === 'SeriesDelete') return `${seriesTitle(payload)} has been deleted.`;
  // Sonarr's older downloads and deletions do not say which kind they are; Zulip ignores them.
  if (event === 'Download' && payload.has('isUpgrade')) {
    if (!payload.get('isUpgrade').bool()) return `${episode(payload)} has been imported.`;
    const upgraded = episode(payload);
    const newQuality = payload.get('episodeFile').get('quality').str();
    const oldQuality = first(payload.get('deletedFiles')).get('quality').str();
    return `${upgraded} has been upgraded from ${oldQuality} to ${newQuality}.`;
  }
  if (event === 'Grab') return `${episode(payload)} has been grabbed.`;
  if (event === 'EpisodeFileDelete' && payload.has('deleteReason')) {
    const upgrade = payload.get('deleteReason').str() === 'upgrade';
    return `${episode(payload)} has been deleted${upgrade ? ' due to quality upgrade' : ''}.`;
  }
  throw new UnsupportedWebhookEventTypeError(NAME, event);
}

function topic(event: string, payload: WildValue): string {
  if (event === 'Test') return 'Sonarr - Test';
  if (event === 'Health') return healthTopic(payload);
  return seriesTitle(payload);
}

export const sonarr = servarrIntegration('sonarr', NAME, EVENT_TYPES, content, topic);
