// Zendesk's URL targets (Zulip's zerver/webhooks/zendesk): the trigger's message, written by whoever
// set it up with Zendesk's placeholders, is sent as it is; the ticket named in the URL (or form)
// makes the topic.
import { MissingArgumentError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';

function field(request: WebhookRequest, name: string): string {
  const value = request.param(name);
  if (value === undefined) throw new MissingArgumentError(name);
  return value;
}

export const zendesk: Integration = {
  urlName: 'zendesk',
  displayName: 'Zendesk',
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    // In Zulip's order, so the first missing one is named.
    const title = field(request, 'ticket_title');
    const id = field(request, 'ticket_id');
    const message = field(request, 'message');
    return { messages: [{ topic: `#${id}: ${title}`, content: message }] };
  },
};
