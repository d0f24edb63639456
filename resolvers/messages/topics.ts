// Topic rules, defined once for every endpoint: how a topic a client names is read (the empty
// topic's display names), how the empty topic is shown to a client, truncation and topics policies.
import type { Channel, Realm } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { MAX_TOPIC_LENGTH } from '../limits.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';

/** The prefix of a resolved topic (Zulip's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** What clients before feature level 334 showed for the empty topic, and still send for it. */
export const NO_TOPIC = '(no topic)';

/**
 * A topic a client names (a parameter, a narrow operand), trimmed: the realm's display name for the
 * empty topic means the empty topic (feature level 334); with `noTopic`, so does `(no topic)`.
 */
export function topicFromClient(topic: string, emptyTopicDisplayName: string, options: { noTopic?: boolean } = {}): string {
  const name = topic.trim();
  return name === emptyTopicDisplayName || (options.noTopic && name === NO_TOPIC) ? '' : name;
}

/** The empty topic as a client shows it: "" for clients that allow empty topic names, else the realm's display name. */
export function topicForClient(topic: string, emptyTopicDisplayName: string, allowsEmptyTopicName: boolean): string {
  return topic === '' && !allowsEmptyTopicName ? emptyTopicDisplayName : topic;
}

/** Control characters in a topic become spaces (Zulip's topic normalization). */
export function withoutControlCharacters(topic: string): string {
  return topic.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/**
 * Zulip truncates over-long topics rather than refusing them. `noTopic`: on the endpoints that name
 * a conversation to post in (sending, typing), `(no topic)` also means the empty topic (Zulip's
 * Addressee.for_stream since feature level 370); editing and the rest keep it as a name.
 */
export function normalizeTopic(topic: string, realm: Realm, options: { noTopic?: boolean } = {}): string {
  return truncateTopic(topicFromClient(withoutControlCharacters(topic), realm.emptyTopicDisplayName, options));
}

/** Zulip's truncate_topic: a topic over the limit is cut, with `...`, rather than refused. */
export function truncateTopic(name: string): string {
  return codePointLength(name) > MAX_TOPIC_LENGTH ? truncateCodePoints(name, MAX_TOPIC_LENGTH - 3) + '...' : name;
}

/** The channel's effective topics policy (`inherit` resolves to the realm's). */
export function effectiveTopicsPolicy(channel: Channel, realm: Realm): string {
  if (channel.topicsPolicy !== 'inherit') return channel.topicsPolicy;
  if (realm.mandatoryTopics) return 'disable_empty_topic';
  return realm.topicsPolicy === 'inherit' ? 'allow_empty_topic' : realm.topicsPolicy;
}

export function checkTopicAllowed(topic: string, channel: Channel, realm: Realm): void {
  const policy = effectiveTopicsPolicy(channel, realm);
  if (topic === '' && policy === 'disable_empty_topic') {
    throw new BadRequestError('Sending messages to the general chat is not allowed in this channel.');
  }
  if (topic !== '' && policy === 'empty_topic_only') {
    throw new BadRequestError('Only the general chat topic is allowed in this channel.');
  }
}
