// Radarr's webhook connection (Zulip's zerver/webhooks/radarr): the payload's `eventType` names the
// event, and a movie's events go to a topic named after it.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { WildValue } from '../payload.ts';
import { first, healthMessage, healthTopic, setupMessage, servarrIntegration } from './servarr.ts';

const NAME = 'Radarr';

const EVENT_TYPES = [
  'ApplicationUpdate', 'Test', 'Rename', 'Download', 'Health', 'Grab', 'MovieDelete', 'MovieFileDelete', 'MovieAdded',
] as const;

/** Why a movie's file was deleted, as the sentence ends. */
const DELETE_REASONS = new Map([
  ['missingFromDisk', 'because it is missing from disk'],
  ['manual', 'manually'],
  ['upgrade', 'because an upgraded version exists'],
  ['noLinkedEpisodes', 'because it has no linked episodes'],
  ['manualOverride', 'via manual override'],
]);

const movieTitle = (payload: WildValue) => payload.get('movie').get('title').str();

function deleteReason(payload: WildValue): string {
  const value = payload.get('deleteReason');
  const reason = DELETE_REASONS.get(value.str());
  if (reason === undefined) throw new BadRequestError(`Invalid ${value.varName}`);
  return reason;
}

function content(event: string, payload: WildValue): string {
  switch (event) {
    case 'Test':
      return setupMessage(NAME);
    case 'ApplicationUpdate':
      return `Radarr was updated from ${payload.get('previousVersion').str()} to ${payload.get('newVersion').str()}.`;
    case 'Health':
      return healthMessage(payload);
    case 'Rename':
      return `The movie ${movieTitle(payload)} has been renamed.`;
    case 'Grab':
      return `The movie ${movieTitle(payload)} has been grabbed.`;
    case 'MovieDelete': {
      const title = movieTitle(payload);
      return `The movie ${title} was deleted; its files were ${payload.get('deletedFiles').bool() ? 'also' : 'not'} deleted.`;
    }
    case 'MovieFileDelete': {
      const title = movieTitle(payload);
      const quality = payload.get('movieFile').get('quality').str();
      return `A file with quality ${quality} for the movie ${title} was deleted, ${deleteReason(payload)}.`;
    }
    case 'MovieAdded':
      return `The movie ${movieTitle(payload)} was added.`;
  }
  // Radarr's older downloads do not say whether they are upgrades; Zulip ignores them.
  if (event === 'Download' && payload.has('isUpgrade')) {
    // Zulip tests `isUpgrade` for Python truth, not for a boolean.
    if (!payload.get('isUpgrade').truthy()) return `The movie ${movieTitle(payload)} has been imported.`;
    const title = movieTitle(payload);
    const newQuality = payload.get('movieFile').get('quality').str();
    const oldQuality = first(payload.get('deletedFiles')).get('quality').str();
    return `The movie ${title} has been upgraded from ${oldQuality} to ${newQuality}.`;
  }
  throw new UnsupportedWebhookEventTypeError(NAME, event);
}

function topic(event: string, payload: WildValue): string {
  if (event === 'Test') return 'Radarr - Test';
  if (event === 'ApplicationUpdate') return 'Radarr - Application update';
  if (event === 'Health') return healthTopic(payload);
  return movieTitle(payload);
}

export const radarr = servarrIntegration('radarr', NAME, EVENT_TYPES, content, topic);
