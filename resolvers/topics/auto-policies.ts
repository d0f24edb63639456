// Zulip's automatic topic visibility policies. A user follows or unmutes a topic on their own
// when they start it, send to it or take part in it, as their automatically_follow_topics_policy
// and automatically_unmute_topics_in_muted_streams_policy say, and follows a topic where someone
// mentions them by name while automatically_follow_topics_where_mentioned is on. These policies
// only ever raise a topic's visibility: a followed topic stays followed, and a mention does not
// override an explicit mute.
//
// Sending is the hot path, so there the checks and writes are part of the send statement itself
// (`autoPolicyCtes`, read by resolvers/messages/send.ts): no round trip is added to a send. Reacting
// and widget submessages count as taking part (`applyParticipation`), as in Zulip.
import { Prisma, type Channel, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { TxContext } from '../transaction.ts';
import { historyIsPublicTo } from '../channels/access.ts';
import { userSetting, USER_SETTINGS } from '../settings/catalog.ts';
import { exactInsensitive } from '../rows.ts';
import { toUnixSeconds } from '../time.ts';
import { TOPIC_POLICY } from './policies.ts';
import { publishMutedTopics, setTopicPolicies } from './user-topics.ts';

const { INHERIT, MUTED, UNMUTED, FOLLOWED } = TOPIC_POLICY;

/** The values of the two automatic policy settings (Zulip's AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*). */
export const AUTO_POLICY = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

/** What one channel message may change, decided before it is written. */
export interface AutoPolicyPlan {
  channelId: number;
  topic: string;
  senderId: number;
  /**
   * The sender's policies as conditions the statement evaluates, or null where the sender's
   * visibility cannot change (a bot, or both policies "never" and no mention of themselves).
   */
  sender: {
    /** Sending (every message takes part) follows the topic: policy ON_SEND or ON_PARTICIPATION. */
    followAlways: boolean;
    /** Sending unmutes a topic of a muted channel. */
    unmuteAlways: boolean;
    followOnInitiation: boolean;
    unmuteOnInitiation: boolean;
    /** Whether "the topic is new" is judged by the channel's history or by the sender's messages. */
    historyAccess: boolean;
    /** The sender mentions themselves with automatically_follow_topics_where_mentioned on. */
    selfMention: boolean;
  } | null;
  /** Other human recipients mentioned by name; each one's setting is read by the statement. */
  mentioned: number[];
}

/** The policies the statement set: the sender's, and who follows the topic because of a mention. */
export interface AutoPolicyOutcome {
  /** The sender's new policy, or null. Zulip's `automatic_new_visibility_policy` (mentions aside). */
  senderPolicy: number | null;
  /** What the sender's policy was before, when it changed. */
  senderPrevious: number | null;
  /** The sender's policy from their automatic settings alone, for the send response. */
  automaticNewVisibilityPolicy: number | null;
  mentionFollowers: number[];
}

/**
 * Zulip's conditions in do_send_messages: a human sender's own policy, and personal mentions of
 * human recipients (group and wildcard mentions follow nothing).
 */
export async function planAutoPolicies(
  ctx: Pick<Context, 'db'>, sender: User, channel: Channel, topic: string,
  { subscribed, mentionedUserIds, recipientIds }: { subscribed: boolean; mentionedUserIds: readonly number[]; recipientIds: readonly number[] },
): Promise<AutoPolicyPlan> {
  const follow = userSetting(sender, 'automatically_follow_topics_policy');
  const unmute = userSetting(sender, 'automatically_unmute_topics_in_muted_streams_policy');
  const recipients = new Set(recipientIds);
  const selfMention = mentionedUserIds.includes(sender.id) && recipients.has(sender.id) && userSetting(sender, 'automatically_follow_topics_where_mentioned');
  const active = !sender.isBot && (selfMention || follow !== AUTO_POLICY.NEVER || unmute !== AUTO_POLICY.NEVER);
  const onInitiation = follow === AUTO_POLICY.ON_INITIATION || unmute === AUTO_POLICY.ON_INITIATION;
  return {
    channelId: channel.id,
    topic,
    senderId: sender.id,
    sender: active
      ? {
          followAlways: follow === AUTO_POLICY.ON_SEND || follow === AUTO_POLICY.ON_PARTICIPATION,
          unmuteAlways: unmute === AUTO_POLICY.ON_SEND || unmute === AUTO_POLICY.ON_PARTICIPATION,
          followOnInitiation: follow === AUTO_POLICY.ON_INITIATION,
          unmuteOnInitiation: unmute === AUTO_POLICY.ON_INITIATION,
          // Zulip judges a protected history by the sender's own messages, so as not to reveal others'.
          historyAccess: onInitiation && (await historyIsPublicTo(ctx.db, channel, sender, subscribed)),
          selfMention,
        }
      : null,
    // Bots among them are left out by the statement, which reads the users anyway.
    mentioned: mentionedUserIds.filter((id) => id !== sender.id && recipients.has(id)),
  };
}

/** For a direct message: nothing to decide, so the send statement has no part of this. */
export const NO_AUTO_POLICIES: AutoPolicyPlan = { channelId: 0, topic: '', senderId: 0, sender: null, mentioned: [] };

/** The policies as SQL literals: constants of the code, so the planner knows them. */
const [inherit, muted, unmuted, followed] = [INHERIT, MUTED, UNMUTED, FOLLOWED].map((value) => Prisma.raw(String(value)));
const mentionDefault = Prisma.raw(String(USER_SETTINGS.automatically_follow_topics_where_mentioned.default));

/**
 * The send statement's CTEs that apply `plan`, each after a comma: the sender's part when their
 * policy may change, the mentions' part when someone is mentioned (a send needing neither, such as
 * a direct message, has neither; each combination is its own prepared statement). They read the
 * database as it was before the statement, so the message being sent is not among the topic's
 * earlier messages. The sender's choice is Zulip's visibility_policy_for_send_message with the
 * settings already resolved to conditions; `autoPolicyColumns` reports the outcome.
 */
export function autoPolicyCtes(plan: AutoPolicyPlan, now: Date): Prisma.Sql {
  const at = Prisma.sql`${now.toISOString()}::timestamp(3)`;
  return Prisma.join([
    Prisma.empty,
    ...(plan.sender ? [senderCtes(plan, plan.sender, at)] : []),
    ...(plan.mentioned.length ? [mentionCtes(plan, at)] : []),
  ], ',');
}

function senderCtes(plan: AutoPolicyPlan, s: NonNullable<AutoPolicyPlan['sender']>, at: Prisma.Sql): Prisma.Sql {
  const { channelId, topic, senderId } = plan;
  return Prisma.sql`
    -- MATERIALIZED: inlined, each use of a column below would repeat its lookups in the plan, which
    -- then costs more to make than to run, every time (the statement is prepared).
    auto_state AS MATERIALIZED (
      SELECT ut.id AS row_id, COALESCE(ut."visibilityPolicy", ${inherit}) AS current, COALESCE(sub."isMuted", false) AS muted,
        ${s.followOnInitiation || s.unmuteOnInitiation ? initiatesSql(plan, s.historyAccess) : Prisma.raw('false')} AS initiates
      FROM (SELECT 1) AS one
      LEFT JOIN LATERAL (
        SELECT id, "visibilityPolicy" FROM "UserTopic"
        WHERE "userId" = ${senderId}::int AND "channelId" = ${channelId}::int AND lower("topicName") = lower(${topic}::text) LIMIT 1
      ) ut ON true
      LEFT JOIN "Subscription" sub ON sub."userId" = ${senderId}::int AND sub."channelId" = ${channelId}::int AND sub.active
    ), auto_choice AS MATERIALIZED (
      SELECT row_id, current, CASE
        WHEN current = ${followed} THEN NULL
        WHEN ${s.followAlways}::boolean THEN ${followed}
        WHEN current <> ${inherit} THEN
          CASE WHEN muted AND ${s.unmuteAlways}::boolean AND current <> ${unmuted} THEN ${unmuted} END
        WHEN ${s.followOnInitiation}::boolean AND initiates THEN ${followed}
        WHEN muted AND (${s.unmuteAlways}::boolean OR (${s.unmuteOnInitiation}::boolean AND initiates)) THEN ${unmuted}
      END AS chosen
      FROM auto_state
    ), auto AS (
      -- A mention of oneself follows the topic after the rest, unless it is muted or followed by then.
      SELECT row_id, current, chosen, CASE
        WHEN ${s.selfMention}::boolean AND COALESCE(chosen, current) NOT IN (${muted}, ${followed}) THEN ${followed}
        ELSE chosen
      END AS policy
      FROM auto_choice
    ), auto_update AS (
      UPDATE "UserTopic" ut SET "visibilityPolicy" = a.policy, "lastUpdated" = ${at}, "topicName" = ${topic}::text
      FROM auto a WHERE ut.id = a.row_id AND a.policy IS NOT NULL
    ), auto_insert AS (
      INSERT INTO "UserTopic" ("userId", "channelId", "topicName", "visibilityPolicy", "lastUpdated")
      SELECT ${senderId}::int, ${channelId}::int, ${topic}::text, policy, ${at} FROM auto WHERE row_id IS NULL AND policy IS NOT NULL
      ON CONFLICT ("userId", "channelId", "topicName") DO UPDATE SET "visibilityPolicy" = EXCLUDED."visibilityPolicy", "lastUpdated" = EXCLUDED."lastUpdated"
    )`;
}

/** Whether the message being sent starts its topic, as far as the sender may know. */
function initiatesSql({ channelId, topic, senderId }: AutoPolicyPlan, historyAccess: boolean): Prisma.Sql {
  // Two checks, not one with an OR: the planner would hash all the sender's rows for the second.
  return Prisma.sql`NOT (
    EXISTS (SELECT 1 FROM "Message" o
      WHERE ${historyAccess}::boolean AND o."channelId" = ${channelId}::int AND lower(o.topic) = lower(${topic}::text))
    OR EXISTS (SELECT 1 FROM "Message" o JOIN "UserMessage" um ON um."userId" = ${senderId}::int AND um."messageId" = o.id
      WHERE NOT ${historyAccess}::boolean AND o."channelId" = ${channelId}::int AND lower(o.topic) = lower(${topic}::text))
  )`;
}

function mentionCtes(plan: AutoPolicyPlan, at: Prisma.Sql): Prisma.Sql {
  const { channelId, topic } = plan;
  return Prisma.sql`
    mention_follow AS (
      SELECT u.id AS user_id, ut.id AS row_id
      FROM "User" u
      LEFT JOIN "UserTopic" ut ON ut."userId" = u.id AND ut."channelId" = ${channelId}::int AND lower(ut."topicName") = lower(${topic}::text)
      WHERE u.id = ANY(${plan.mentioned}::int[]) AND NOT u."isBot"
        AND CASE WHEN jsonb_typeof(u.settings -> 'automatically_follow_topics_where_mentioned') = 'boolean'
          THEN (u.settings ->> 'automatically_follow_topics_where_mentioned')::boolean ELSE ${mentionDefault} END
        -- An explicit mute wins over a mention.
        AND (ut.id IS NULL OR ut."visibilityPolicy" NOT IN (${muted}, ${followed}))
    ), mention_update AS (
      UPDATE "UserTopic" ut SET "visibilityPolicy" = ${followed}, "lastUpdated" = ${at}, "topicName" = ${topic}::text
      FROM mention_follow f WHERE ut.id = f.row_id
    ), mention_insert AS (
      INSERT INTO "UserTopic" ("userId", "channelId", "topicName", "visibilityPolicy", "lastUpdated")
      SELECT user_id, ${channelId}::int, ${topic}::text, ${followed}, ${at} FROM mention_follow WHERE row_id IS NULL
      ON CONFLICT ("userId", "channelId", "topicName") DO UPDATE SET "visibilityPolicy" = EXCLUDED."visibilityPolicy", "lastUpdated" = EXCLUDED."lastUpdated"
    )`;
}

/** The final select's columns that report what `autoPolicyCtes` did (see `autoPolicyOutcome`), null where it did nothing. */
export function autoPolicyColumns(plan: AutoPolicyPlan): Prisma.Sql {
  const sender = plan.sender
    ? Prisma.sql`(SELECT policy FROM auto) AS "autoPolicy", (SELECT current FROM auto) AS "autoPrevious", (SELECT chosen FROM auto) AS "autoChosen"`
    : Prisma.sql`NULL::int AS "autoPolicy", NULL::int AS "autoPrevious", NULL::int AS "autoChosen"`;
  const mentions = plan.mentioned.length
    ? Prisma.sql`ARRAY(SELECT user_id FROM mention_follow ORDER BY user_id) AS "mentionFollowers"`
    : Prisma.sql`NULL::int[] AS "mentionFollowers"`;
  return Prisma.sql`${sender}, ${mentions}`;
}

export interface AutoPolicyColumns {
  autoPolicy: number | null;
  autoPrevious: number | null;
  autoChosen: number | null;
  mentionFollowers: number[] | null;
}

export function autoPolicyOutcome(row: AutoPolicyColumns): AutoPolicyOutcome {
  const senderPolicy = row.autoPolicy ?? null;
  return {
    senderPolicy,
    senderPrevious: senderPolicy === null ? null : row.autoPrevious,
    automaticNewVisibilityPolicy: row.autoChosen ?? null,
    mentionFollowers: row.mentionFollowers ?? [],
  };
}

/** The `user_topic` events (and a former mute's `muted_topics`) of what the send statement set. */
export async function publishAutoPolicies(ctx: Context, plan: AutoPolicyPlan, outcome: AutoPolicyOutcome, now: Date): Promise<void> {
  const event = (policy: number) => ({
    type: 'user_topic' as const, stream_id: plan.channelId, topic_name: plan.topic, last_updated: toUnixSeconds(now), visibility_policy: policy,
  });
  if (outcome.senderPolicy !== null) {
    if (outcome.senderPrevious === MUTED) await publishMutedTopics(ctx, [plan.senderId]);
    ctx.events.publish(ctx.realm.id, [plan.senderId], event(outcome.senderPolicy));
  }
  if (outcome.mentionFollowers.length) ctx.events.publish(ctx.realm.id, outcome.mentionFollowers, event(FOLLOWED));
}

/**
 * Taking part in a topic otherwise than by sending (a reaction, a widget's submessage): Zulip's
 * visibility_policy_for_participation, for users whose policy is ON_PARTICIPATION, in the caller's
 * transaction. Only subscribers; a followed topic stays followed.
 */
export async function applyParticipation(
  tx: TxContext<Context>, user: User, message: { channelId: number | null; topic: string },
): Promise<void> {
  if (message.channelId === null || user.isBot || user.realmId !== tx.realm.id) return;
  const follow = userSetting(user, 'automatically_follow_topics_policy') === AUTO_POLICY.ON_PARTICIPATION;
  const unmute = userSetting(user, 'automatically_unmute_topics_in_muted_streams_policy') === AUTO_POLICY.ON_PARTICIPATION;
  if (!follow && !unmute) return;
  const subscription = await tx.db.subscription.findFirst({ where: { userId: user.id, channelId: message.channelId, active: true }, select: { isMuted: true } });
  if (!subscription) return;
  const policy = follow ? FOLLOWED : subscription.isMuted ? UNMUTED : null;
  if (policy === null) return;
  const existing = await tx.db.userTopic.findFirst({
    where: { userId: user.id, channelId: message.channelId, topicName: exactInsensitive(message.topic) }, select: { visibilityPolicy: true },
  });
  if (existing && (existing.visibilityPolicy === policy || existing.visibilityPolicy === FOLLOWED)) return;
  await setTopicPolicies(tx, [user.id], message.channelId, message.topic, policy);
}
