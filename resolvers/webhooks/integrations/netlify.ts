// Netlify's deploy notifications (Zulip's zerver/webhooks/netlify/view.py): one sentence on a
// build's new state, in a topic named after its branch. The header names the event.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';

const DISPLAY_NAME = 'Netlify';

const EVENT_TYPES = ['deploy_failed', 'deploy_locked', 'deploy_unlocked', 'deploy_building', 'deploy_created'] as const;

/** How the sentence ends for each event. */
function outcomeOf(event: string, payload: WildValue): string {
  switch (event) {
    // Zulip splices the error into its format string, so braces in it are read as fields (and
    // most fail with a server error); we print the error as Netlify wrote it.
    case 'deploy_failed':
      return payload.get('error_message').str();
    case 'deploy_locked':
      return 'is now locked.';
    case 'deploy_unlocked':
      return 'is now unlocked.';
    case 'deploy_building':
    case 'deploy_created':
      return `is now ${payload.get('state').str()}.`;
    default:
      throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, event);
  }
}

export const netlify: Integration = {
  urlName: 'netlify',
  displayName: DISPLAY_NAME,
  eventTypes: EVENT_TYPES,
  translate(request: WebhookRequest): WebhookOutcome {
    const payload = request.payload();
    const event = request.eventHeader('X-Netlify-Event');
    const ending = outcomeOf(event, payload);
    const name = payload.get('name').str();
    const url = payload.get('url').str();
    const branch = payload.get('branch').str();
    // Zulip reads the state whatever the event, so a deploy without one is refused.
    payload.get('state').str();
    const content = `The build [${name}](${url}) on branch ${branch} ${ending}`;
    return { eventType: event, messages: [{ topic: branch, content }] };
  },
};
