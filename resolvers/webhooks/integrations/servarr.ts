// What Zulip's Sonarr, Radarr and Lidarr integrations (the *arr media managers, all built on
// Servarr, with the same webhook format) word alike.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

/** The answer to the *arr's "Test" button (Zulip's get_setup_webhook_message). */
export function setupMessage(name: string): string {
  return `${name} webhook has been successfully configured.`;
}

/** A health check's topic and message (Sonarr's and Radarr's). */
export function healthTopic(payload: WildValue): string {
  return `Health ${payload.get('level').str()}`;
}

export function healthMessage(payload: WildValue): string {
  return `${payload.get('message').str()}.`;
}

/** The first element of a list (the event's episode, album, replaced file). */
export function first(list: WildValue): WildValue {
  const [element] = list.list();
  // Zulip fails with a server error on an empty list; it is the payload's fault.
  if (element === undefined) throw new BadRequestError(`${list.varName}[0] is missing`);
  return element;
}

/**
 * An *arr integration: the payload's `eventType` names the event, `content` words it (refusing the
 * events Zulip does not support) and `topic` places it.
 */
export function servarrIntegration(
  urlName: string, displayName: string, eventTypes: readonly string[],
  content: (event: string, payload: WildValue) => string, topic: (event: string, payload: WildValue) => string,
): Integration {
  return {
    urlName, displayName, eventTypes,
    translate(request) {
      const payload = request.payload();
      const event = payload.get('eventType').str();
      const body = content(event, payload);
      return { eventType: event, messages: [{ topic: topic(event, payload), content: body }] };
    },
  };
}
