// Wekan's outgoing webhooks (Zulip's zerver/webhooks/wekan/view.py): Wekan already writes the
// sentence, with the card's or board's URL as its last line; that line becomes a link below it.
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';

export const wekan: Integration = {
  urlName: 'wekan',
  displayName: 'Wekan',
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    const text = request.payload().get('text').str();
    const url = text.split('\n').at(-1)!;
    // As Python's str.replace: every occurrence of the URL goes, then every line break.
    const sentence = text.split(url).join('').split('\n').join('');
    return { messages: [{ topic: 'Wekan Notification', content: `${sentence}.\n\n[See in Wekan](${url})` }] };
  },
};
