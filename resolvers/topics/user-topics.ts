// POST /user_topics: a user's visibility policy for a topic (0 none, 1 muted, 2 unmuted, 3 followed).
// Works for topics without messages; unmuting works even in a channel the user can no longer read.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { hasContentAccess } from '../channels/access.ts';
import { MAX_TOPIC_LENGTH } from '../limits.ts';
import { codePointLength } from '../text.ts';
import { toUnixSeconds } from '../time.ts';
import { exactInsensitive } from '../rows.ts';
import type { TxContext } from '../transaction.ts';
import { topicFromClient, withoutControlCharacters } from '../messages/topics.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { TOPIC_POLICY, VISIBILITY_POLICIES } from './policies.ts';

const { INHERIT, MUTED } = TOPIC_POLICY;

export async function setTopicVisibilityPolicy(ctx: Context, user: User, channelId: number, topicName: string, policy: number): Promise<void> {
  if (!VISIBILITY_POLICIES.includes(policy)) throw new BadRequestError('Invalid visibility_policy');
  if (codePointLength(topicName) > MAX_TOPIC_LENGTH) throw new BadRequestError(`topic is too long (limit: ${MAX_TOPIC_LENGTH} characters)`);
  const topic = topicFromClient(withoutControlCharacters(topicName), ctx.realm.emptyTopicDisplayName);
  const channel = await ctx.db.channel.findUnique({ where: { id: channelId } });
  const existing = channel && channel.realmId === user.realmId
    ? await ctx.db.userTopic.findFirst({ where: { userId: user.id, channelId: channel.id, topicName: exactInsensitive(topic) } })
    : null;
  const mayRemove = policy === INHERIT && existing;
  if (!channel || (!mayRemove && !(await hasContentAccess(ctx.db, user, channel)))) throw new BadRequestError('Invalid channel ID');
  const now = new Date();
  await ctx.db.$transaction(async (tx) => {
    if (policy === INHERIT) {
      if (existing) await tx.userTopic.delete({ where: { id: existing.id } });
    } else if (existing) {
      await tx.userTopic.update({ where: { id: existing.id }, data: { visibilityPolicy: policy, lastUpdated: now, topicName: topic } });
    } else {
      await tx.userTopic.create({ data: { userId: user.id, channelId: channel.id, topicName: topic, visibilityPolicy: policy, lastUpdated: now } });
    }
  });
  if (policy === MUTED || existing?.visibilityPolicy === MUTED) await publishMutedTopics(ctx, [user.id]);
  ctx.events.publish(ctx.realm.id, [user.id], {
    type: 'user_topic', stream_id: channel.id, topic_name: topic, last_updated: toUnixSeconds(now), visibility_policy: policy,
  });
}

/**
 * Zulip's bulk_do_set_user_topic_visibility_policy, for changes the server makes on the users'
 * behalf (a topic moving): sets the policy of each of `userIds` for the topic, in the caller's
 * transaction, and announces it to those whose policy changed. `skipMutedTopicsEvent` where a
 * later change of the same users announces their mutes anyway.
 */
export async function setTopicPolicies(
  tx: TxContext<Context>, userIds: number[], channelId: number, topic: string, policy: number, { skipMutedTopicsEvent = false } = {},
): Promise<void> {
  if (!userIds.length) return;
  const now = new Date();
  const rows = await tx.db.userTopic.findMany({ where: { userId: { in: userIds }, channelId, topicName: exactInsensitive(topic) } });
  const existing = new Map(rows.map((row) => [row.userId, row]));
  let changed: number[];
  if (policy === INHERIT) {
    await tx.db.userTopic.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
    changed = [...existing.keys()];
  } else {
    // A move carries every follower and muter of the topic: one statement each way, not one per user.
    const updated = rows.filter((row) => row.visibilityPolicy !== policy);
    const created = userIds.filter((userId) => !existing.has(userId));
    if (updated.length) {
      await tx.db.userTopic.updateMany({ where: { id: { in: updated.map((row) => row.id) } }, data: { visibilityPolicy: policy, lastUpdated: now, topicName: topic } });
    }
    if (created.length) {
      await tx.db.userTopic.createMany({ data: created.map((userId) => ({ userId, channelId, topicName: topic, visibilityPolicy: policy, lastUpdated: now })) });
    }
    changed = [...updated.map((row) => row.userId), ...created];
  }
  if (!changed.length) return;
  if (!skipMutedTopicsEvent) {
    await publishMutedTopics(tx, changed.filter((userId) => policy === MUTED || existing.get(userId)?.visibilityPolicy === MUTED));
  }
  tx.events.publish(tx.realm.id, changed, {
    type: 'user_topic', stream_id: channelId, topic_name: topic, last_updated: toUnixSeconds(now), visibility_policy: policy,
  });
}

/** Older clients follow mutes through the deprecated muted_topics event: each user's whole list. */
export async function publishMutedTopics(ctx: Context, userIds: number[]): Promise<void> {
  if (!userIds.length) return;
  const muted = await ctx.db.userTopic.findMany({
    where: { userId: { in: userIds }, visibilityPolicy: MUTED }, include: { channel: { select: { name: true } } }, orderBy: { id: 'asc' },
  });
  for (const userId of userIds) {
    ctx.events.publish(ctx.realm.id, [userId], {
      type: 'muted_topics',
      muted_topics: muted.filter((m) => m.userId === userId).map((m) => [m.channel.name, m.topicName, toUnixSeconds(m.lastUpdated)]),
    });
  }
}

// Register: the viewer's topic preferences. Zulip sends the deprecated muted_topics only to clients
// that did not ask for user_topic.
initialStatePart(['user_topic', 'muted_topics'], async (s) => {
  const wantUserTopics = s.want('user_topic');
  const wantMutedTopics = s.want('muted_topics') && (s.options.fetchEventTypes === null || !wantUserTopics);
  if (!wantUserTopics && !wantMutedTopics) return {};
  const rows = s.user
    ? await s.db.userTopic.findMany({
        where: {
          userId: s.user.id,
          visibilityPolicy: { not: INHERIT },
          ...(s.capability('archived_channels') ? {} : { channel: { isArchived: false } }),
        },
        include: { channel: { select: { name: true } } },
        orderBy: { id: 'asc' },
      })
    : [];
  const state: Record<string, unknown> = {};
  if (wantUserTopics) {
    state.user_topics = rows.map((t) => ({
      stream_id: t.channelId,
      topic_name: s.topicName(t.topicName),
      last_updated: toUnixSeconds(t.lastUpdated),
      visibility_policy: t.visibilityPolicy,
    }));
  }
  if (wantMutedTopics) {
    state.muted_topics = rows
      .filter((t) => t.visibilityPolicy === MUTED)
      .map((t) => [t.channel.name, s.topicName(t.topicName), toUnixSeconds(t.lastUpdated)]);
  }
  return state;
});
