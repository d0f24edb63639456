// Zapier's "Webhooks by Zapier" action and Zulip's Zapier app, as Zulip's zerver/webhooks/zapier
// reads them: the user writes the JSON body (`topic`, or the older `subject`, and `content`), so
// the message is theirs, word for word. The app also calls the URL with `{"type": "auth"}` to
// check the bot's credentials and label the connection with the bot's name.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

export const zapier: Integration = {
  urlName: 'zapier',
  displayName: 'Zapier',
  eventTypes: null,
  // Zulip spares the bot's owner this notice for Zapier.
  quietOnInvalidJson: true,
  translate(request) {
    const payload = request.payload();
    if (payload.opt('type').optStr() === 'auth') return { messages: [], answerWithSender: true };
    return { messages: [requireTopicAndContent(readTopicAndContent(payload))] };
  },
};

interface Written {
  topic: string | null;
  content: string | null;
}

/**
 * The user's `topic` (else the `subject` Zulip first documented) and `content`, as Zapier's and
 * IFTTT's bodies carry them; null where absent. A value of another type is refused.
 */
export function readTopicAndContent(payload: WildValue): Written {
  const topic = payload.opt('topic').optStr();
  const content = payload.opt('content').optStr();
  return { topic: topic ?? payload.opt('subject').optStr(), content };
}

export function requireTopicAndContent({ topic, content }: Written): { topic: string; content: string } {
  if (topic === null) throw new BadRequestError("Topic can't be empty");
  if (content === null) throw new BadRequestError("Content can't be empty");
  return { topic, content };
}
