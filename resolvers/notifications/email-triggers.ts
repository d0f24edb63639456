// Who is told of a new message by e-mail, and why (Zulip's UserMessageNotificationsData,
// get_recipient_info and maybe_enqueue_notifications). Decided once the message is committed, for
// the recipients who are away: no event queue that takes messages, or no activity in the last
// 140 seconds (Zulip's OFFLINE_THRESHOLD_SECS). Each becomes a MissedMessageEmail row that the
// worker (missed-message-emails.ts) turns into e-mail once the user's batching period ends.
import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Services } from '../../schema/context.ts';
import { driverQuery } from '../../prisma/database.ts';
import { TOPIC_POLICY } from '../topics/policies.ts';
import { userSetting } from '../settings/catalog.ts';

/** Zulip's NotificationTriggers (the e-mail ones), stored with each row. */
export const TRIGGER = {
  DIRECT_MESSAGE: 'private_message',
  MENTION: 'mentioned',
  TOPIC_WILDCARD_MENTION: 'topic_wildcard_mentioned',
  STREAM_WILDCARD_MENTION: 'stream_wildcard_mentioned',
  TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC: 'topic_wildcard_mentioned_in_followed_topic',
  STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC: 'stream_wildcard_mentioned_in_followed_topic',
  FOLLOWED_TOPIC_EMAIL: 'followed_topic_email_notify',
  STREAM_EMAIL: 'stream_email_notify',
} as const;
export type Trigger = (typeof TRIGGER)[keyof typeof TRIGGER];

/** The triggers that need `enable_offline_email_notifications` (direct messages and mentions of any kind). */
export const OFFLINE_TRIGGERS: ReadonlySet<string> = new Set<string>([
  TRIGGER.DIRECT_MESSAGE, TRIGGER.MENTION, TRIGGER.TOPIC_WILDCARD_MENTION, TRIGGER.STREAM_WILDCARD_MENTION,
  TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC, TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC,
]);

/** Zulip's OFFLINE_THRESHOLD_SECS: active more recently than this, a user is not away. */
const OFFLINE_THRESHOLD_MS = 140_000;

/** What the send path knows of a message, once it is committed. */
export interface SentFacts {
  realmId: number;
  messageId: number;
  senderId: number;
  /** Null for a direct message. */
  channelId: number | null;
  topic: string;
  /** Recipients the message may notify whatever their channel settings: direct-message recipients, and those mentioned personally, by group or by wildcard. */
  flaggedUserIds: number[];
  /** For users reached only by a group mention: the smallest group mentioned that they are in. */
  mentionGroupOf: Map<number, number>;
  /**
   * An edit of a channel message: `flaggedUserIds` are those it newly mentions, and only they may be
   * told, unless every message of the topic reaches them by e-mail anyway (Zulip's
   * maybe_enqueue_notifications_for_message_update).
   */
  edit?: boolean;
}

/** One candidate recipient, with what decides whether and why they are told. */
interface Candidate {
  id: number;
  settings: Prisma.JsonValue;
  mentioned: boolean;
  streamWildcardMentioned: boolean;
  topicWildcardMentioned: boolean;
  isPrivate: boolean;
  subscribed: boolean;
  channelMuted: boolean;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
  visibilityPolicy: number | null;
  lastActiveTime: Date | null;
}

/**
 * Zulip's user_allows_notifications_in_StreamTopic: the topic's visibility policy first, then the
 * subscription's own setting, then the user's default.
 */
function allowedInChannel(c: Candidate, subscriptionSetting: boolean | null, userDefault: boolean): boolean {
  const policy = c.visibilityPolicy ?? TOPIC_POLICY.INHERIT;
  if (c.channelMuted && policy !== TOPIC_POLICY.UNMUTED) return false;
  if (policy === TOPIC_POLICY.MUTED) return false;
  return subscriptionSetting ?? userDefault;
}

/** Zulip's get_email_notification_trigger for a recipient who is away (the order is Zulip's: the most salient reason wins). */
function emailTrigger(c: Candidate): Trigger | null {
  const user = { settings: c.settings };
  const offline = userSetting(user, 'enable_offline_email_notifications');
  if (c.isPrivate) return offline ? TRIGGER.DIRECT_MESSAGE : null;
  if (offline && c.mentioned) return TRIGGER.MENTION;
  const followed = c.subscribed && c.visibilityPolicy === TOPIC_POLICY.FOLLOWED;
  const followedWildcard = followed && userSetting(user, 'enable_followed_topic_wildcard_mentions_notify');
  const wildcard = c.subscribed && allowedInChannel(c, c.wildcardMentionsNotify, userSetting(user, 'wildcard_mentions_notify'));
  if (offline && c.topicWildcardMentioned && followedWildcard) return TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC;
  if (offline && c.streamWildcardMentioned && followedWildcard) return TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC;
  if (offline && c.topicWildcardMentioned && wildcard) return TRIGGER.TOPIC_WILDCARD_MENTION;
  if (offline && c.streamWildcardMentioned && wildcard) return TRIGGER.STREAM_WILDCARD_MENTION;
  if (followsByEmail(c)) return TRIGGER.FOLLOWED_TOPIC_EMAIL;
  if (channelByEmail(c)) return TRIGGER.STREAM_EMAIL;
  return null;
}

/** Every message of a followed topic reaches the user by e-mail. */
function followsByEmail(c: Candidate): boolean {
  return c.subscribed && c.visibilityPolicy === TOPIC_POLICY.FOLLOWED && userSetting({ settings: c.settings }, 'enable_followed_topic_email_notifications');
}

/** Every message of the channel (in this topic) reaches the user by e-mail. */
function channelByEmail(c: Candidate): boolean {
  return c.subscribed && allowedInChannel(c, c.emailNotifications, userSetting({ settings: c.settings }, 'enable_stream_email_notifications'));
}

/**
 * The recipients who might be told, with what decides it, in one statement: those flagged by the
 * send path, the topic's followers and those with channel e-mail notifications on (each found
 * through a small index, not by reading the channel's every subscription). Only recipients who have
 * the message unread count: the sender and those who muted the sender have it read.
 */
async function candidates(services: Pick<Services, 'db'>, sent: SentFacts): Promise<Candidate[]> {
  const { channelId, topic } = sent;
  const channelParts = channelId == null || sent.edit ? Prisma.empty : Prisma.sql`
    UNION SELECT ut."userId" FROM "UserTopic" ut
      WHERE ut."channelId" = ${channelId}::int AND lower(ut."topicName") = lower(${topic}::text) AND ut."visibilityPolicy" = ${TOPIC_POLICY.FOLLOWED}::int
    UNION SELECT s."userId" FROM "Subscription" s WHERE s."channelId" = ${channelId}::int AND s."emailNotifications" AND s.active
    UNION SELECT u.id FROM "User" u WHERE u."realmId" = ${sent.realmId}::int AND (u.settings->>'enable_stream_email_notifications') = 'true'`;
  return driverQuery<Candidate>(services.db, Prisma.sql`
    WITH candidate AS (SELECT unnest(${sent.flaggedUserIds}::int[]) AS id ${channelParts})
    SELECT u.id, u.settings, um.mentioned, um."streamWildcardMentioned", um."topicWildcardMentioned", um."isPrivate",
      coalesce(s.active AND s."isUserActive", false) AS subscribed, coalesce(s."isMuted", false) AS "channelMuted",
      s."emailNotifications", s."wildcardMentionsNotify", ut."visibilityPolicy", p."lastActiveTime"
    FROM candidate c
    JOIN "User" u ON u.id = c.id
    JOIN "UserMessage" um ON um."userId" = u.id AND um."messageId" = ${sent.messageId}::int AND NOT um.read
    LEFT JOIN "Subscription" s ON s."userId" = u.id AND s."channelId" = ${channelId}::int
    LEFT JOIN "UserTopic" ut ON ut."userId" = u.id AND ut."channelId" = ${channelId}::int AND lower(ut."topicName") = lower(${topic}::text)
    LEFT JOIN "UserPresence" p ON p."userId" = u.id
    WHERE u.id <> ${sent.senderId}::int AND u."isActive" AND NOT u."isBot"`,
  // Run after nearly every send: planning it each time cost several times its execution (its
  // plan follows from the indexes, not the values).
  { prepare: 'notifications.candidates' });
}

/** Zulip's receiver_is_off_zulip or presence-idle: no event queue at all, or no activity for 140 s. */
async function isAway(services: Pick<Services, 'queues'>, c: Candidate, now: number): Promise<boolean> {
  if (c.lastActiveTime == null || now - c.lastActiveTime.getTime() > OFFLINE_THRESHOLD_MS) return true;
  return (await services.queues.userQueues(c.id)).count === 0;
}

/**
 * Writes a MissedMessageEmail row for each recipient who is away and whom the message should reach
 * by e-mail. A user's rows share the `scheduledAt` of their oldest pending one (Zulip's batching),
 * else it is now plus their batching period. Answers how many rows were written.
 */
export async function queueMissedMessageEmails(services: Pick<Services, 'db' | 'queues'>, sent: SentFacts): Promise<number> {
  // A direct message to oneself (or only to those who muted the sender) concerns nobody.
  if (sent.channelId == null && !sent.flaggedUserIds.length) return 0;
  const now = Date.now();
  const rows: { userId: number; trigger: Trigger; groupId: number | null; periodSecs: number }[] = [];
  for (const candidate of await candidates(services, sent)) {
    // An edit tells only of new mentions, and not those who were told of the message already.
    if (sent.edit && (candidate.isPrivate || followsByEmail(candidate) || channelByEmail(candidate))) continue;
    const trigger = emailTrigger(candidate);
    if (trigger == null || !(await isAway(services, candidate, now))) continue;
    rows.push({
      userId: candidate.id,
      trigger,
      groupId: trigger === TRIGGER.MENTION ? (sent.mentionGroupOf.get(candidate.id) ?? null) : null,
      periodSecs: userSetting({ settings: candidate.settings }, 'email_notifications_batching_period_seconds'),
    });
  }
  if (!rows.length) return 0;
  const at = new Date(now).toISOString();
  const written = await driverQuery<{ userId: number }>(services.db, Prisma.sql`
    INSERT INTO "MissedMessageEmail" ("userId", "messageId", "trigger", "mentionedUserGroupId", "scheduledAt")
    SELECT r.user_id, ${sent.messageId}::int, r.trigger, r.group_id,
      coalesce((SELECT min(e."scheduledAt") FROM "MissedMessageEmail" e WHERE e."userId" = r.user_id),
        ${at}::timestamp(3) + r.period * interval '1 second')
    FROM unnest(${rows.map((r) => r.userId)}::int[], ${rows.map((r) => r.trigger)}::text[], ${rows.map((r) => r.groupId)}::int[],
      ${rows.map((r) => r.periodSecs)}::int[]) AS r(user_id, trigger, group_id, period)
    ON CONFLICT DO NOTHING
    RETURNING "userId"`, { prepare: 'notifications.queue' });
  return written.length;
}
