// Topic rules shared by sending, editing and (later) scheduling.
import type { Channel, Realm } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { MAX_TOPIC_LENGTH } from '../realm/version.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';

/** The prefix of a resolved topic (Zulip's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Zulip truncates over-long topics rather than refusing them. */
export function normalizeTopic(topic: string, realm: Realm): string {
  let name = topic.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  // The empty topic's display name, sent back by a client, means the empty topic (feature level 334).
  if (name === realm.emptyTopicDisplayName) name = '';
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
