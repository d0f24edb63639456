// Who may use wildcard mentions where they notify many people (Zulip's
// stream_wildcard_mention_allowed / topic_wildcard_mention_allowed): anyone in a channel of at most
// WILDCARD_MENTION_THRESHOLD subscribers or a topic of at most that many participants; beyond that,
// only members of the organization's can_mention_many_users_group. Silent and quoted wildcards are
// not mentions, so they are never refused.
import type { Prisma, Realm, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { StreamWildcardMentionNotAllowedError, TopicWildcardMentionNotAllowedError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';

type Reader = Db | Prisma.TransactionClient;

/** Zulip's Realm.WILDCARD_MENTION_THRESHOLD. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Active users who have sent a message to the topic (Zulip's participants_for_topic). */
export async function topicParticipantIds(db: Reader, channelId: number, topic: string): Promise<Set<number>> {
  const rows = await db.$queryRaw<{ senderId: number }[]>`
    SELECT DISTINCT m."senderId" FROM "Message" m JOIN "User" u ON u.id = m."senderId" AND u."isActive"
    WHERE m."channelId" = ${channelId} AND lower(m.topic) = lower(${topic})`;
  return new Set(rows.map((r) => r.senderId));
}

export interface WildcardCheck {
  /** The message mentions @**all**, @**everyone**, @**channel** or @**stream** (loudly). */
  stream: boolean;
  /** The message mentions @**topic** (loudly). */
  topic: boolean;
  /** Active subscribers of the channel. */
  subscriberCount: number;
  /** Participants of the topic, the sender of a new message included. */
  topicParticipants: () => Promise<Set<number>>;
}

/** Refuses a channel or topic wildcard mention by `sender` where it reaches too many people. */
export async function checkWildcardMentionsAllowed(db: Reader, realm: Pick<Realm, 'canMentionManyUsersGroupId'>, sender: User, check: WildcardCheck): Promise<void> {
  const mayMentionMany = () => isUserInGroup(db, sender, realm.canMentionManyUsersGroupId);
  if (check.stream && check.subscriberCount > WILDCARD_MENTION_THRESHOLD && !(await mayMentionMany())) {
    throw new StreamWildcardMentionNotAllowedError();
  }
  if (check.topic && (await check.topicParticipants()).size > WILDCARD_MENTION_THRESHOLD && !(await mayMentionMany())) {
    throw new TopicWildcardMentionNotAllowedError();
  }
}
