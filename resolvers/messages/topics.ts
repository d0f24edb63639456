// Topic rules shared by sending, editing and (later) scheduling.
import type { Channel, Realm } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { MAX_TOPIC_LENGTH } from '../realm/version.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';

/** The prefix of a resolved topic (Zulip's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** What clients before feature level 334 showed for the empty topic, and still send for it. */
export const NO_TOPIC = '(no topic)';

/**
 * Zulip truncates over-long topics rather than refusing them. `noTopic`: on the endpoints that name
 * a conversation to post in (sending, typing), `(no topic)` also means the empty topic (Zulip's
 * Addressee.for_stream since feature level 370); editing and the rest keep it as a name.
 */
export function normalizeTopic(topic: string, realm: Realm, options: { noTopic?: boolean } = {}): string {
  let name = topic.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  // The empty topic's display name, sent back by a client, means the empty topic (feature level 334).
  if (name === realm.emptyTopicDisplayName || (options.noTopic && name === NO_TOPIC)) name = '';
  if (codePointLength(name) > MAX_TOPIC_LENGTH) name = truncateCodePoints(name, MAX_TOPIC_LENGTH - 3) + '...';
  return name;
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
