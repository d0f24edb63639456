// A queue's narrow applied to a message event in memory, as Zulip's narrow_predicate.py does: only
// the operators Zulip supports for event queues, checked when the queue is registered (an
// unsupported one is refused there rather than silently matching everything or nothing). The
// flag-based terms (`is:starred`, `is:unread`, `is:mentioned`) read the queue owner's flags.
import { BadRequestError } from '../errors.ts';
import type { MessageView } from './present.ts';
import { RESOLVED_TOPIC_PREFIX } from './topics.ts';


const CHANNEL_OPERATORS = ['channel', 'stream'];
const SUPPORTED_OPERATORS = [...CHANNEL_OPERATORS, 'topic', 'exact-topic', 'sender', 'is'];

/** Zulip's check_narrow_for_events: what a queue's narrow may contain. */
export function checkNarrowForEvents(narrow: [string, string][]): void {
  for (const [operator, operand] of narrow) {
    if (!SUPPORTED_OPERATORS.includes(operator)) throw new BadRequestError(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw new BadRequestError(`Operand ${operand} not supported.`);
  }
}

function satisfies(operator: string, operand: string, message: Pick<MessageView, 'type' | 'displayRecipient' | 'topic' | 'senderEmail'>, flags: readonly string[]): boolean {
  if (CHANNEL_OPERATORS.includes(operator)) {
    return message.type === 'stream' && operand.toLowerCase() === String(message.displayRecipient).toLowerCase();
  }
  switch (operator) {
    case 'topic': {
      if (message.type !== 'stream') return false;
      const topic = message.topic.toLowerCase();
      const wanted = operand.toLowerCase();
      return wanted === topic || topic.split(/\s+/).includes(wanted);
    }
    case 'exact-topic':
      return message.type === 'stream' && operand === message.topic;
    case 'sender':
      return operand.toLowerCase() === message.senderEmail.toLowerCase();
    case 'is':
      switch (operand) {
        case 'dm': case 'private': return message.type === 'private';
        case 'starred': return flags.includes('starred');
        case 'unread': return !flags.includes('read');
        case 'alerted': case 'mentioned': return flags.includes('mentioned');
        case 'resolved': return message.type === 'stream' && message.topic.startsWith(RESOLVED_TOPIC_PREFIX);
        default: return true;
      }
    default:
      return true;
  }
}

/** Does the message (with the queue owner's flags) match every term of the narrow? */
export function matchesNarrow(narrow: [string, string][], message: Pick<MessageView, 'type' | 'displayRecipient' | 'topic' | 'senderEmail'>, flags: readonly string[] = []): boolean {
  return narrow.every(([operator, operand]) => satisfies(operator, operand, message, flags));
}
