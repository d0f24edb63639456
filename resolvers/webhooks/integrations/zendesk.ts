// Zendesk's URL targets (Zulip's zerver/webhooks/zendesk): the trigger's message, written by whoever
// set it up with Zendesk's placeholders, is sent as it is; the ticket named in the URL (or form)
// makes the topic.
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';

export const zendesk: Integration = {
  urlName: 'zendesk',
  displayName: 'Zendesk',
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    // In Zulip's order, so the first missing one is named.
    const title = request.requiredParam('ticket_title');
    const id = request.requiredParam('ticket_id');
    const message = request.requiredParam('message');
    return { messages: [{ topic: `#${id}: ${title}`, content: message }] };
  },
};
