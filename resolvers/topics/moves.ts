// Topic visibility policies follow a topic that moves as a whole (Zulip's do_update_message, "Migrate
// 'topic with visibility_policy' configuration"): who muted, unmuted or followed it keeps doing so
// under its new name or channel, merged with what they had chosen for a topic already there.
import type { Context } from '../../schema/context.ts';
import type { TxContext } from '../transaction.ts';
import { exactInsensitive } from '../rows.ts';
import { setTopicPolicies } from './user-topics.ts';
import { TOPIC_POLICY } from './policies.ts';

const { INHERIT, MUTED, UNMUTED, FOLLOWED } = TOPIC_POLICY;

export interface TopicMove {
  fromChannelId: number;
  fromTopic: string;
  toChannelId: number;
  toTopic: string;
  /** Whether the destination topic held messages before the move (a merge, not a rename). */
  targetHadMessages: boolean;
  /** Users who can no longer read the messages: their policy for the topic goes, not along. */
  losingAccess: ReadonlySet<number>;
}

/**
 * Moves every user's policy for the topic to its new place; returns who followed the topic before
 * the move (among those keeping access), which the resolve notice's read state depends on.
 */
export async function moveTopicPolicies(tx: TxContext<Context>, move: TopicMove): Promise<Set<number>> {
  const policiesOf = async (channelId: number, topic: string) => new Map(
    (await tx.db.userTopic.findMany({ where: { channelId, topicName: exactInsensitive(topic), visibilityPolicy: { not: INHERIT } } }))
      .map((row) => [row.userId, row.visibilityPolicy]),
  );
  const original = await policiesOf(move.fromChannelId, move.fromTopic);
  const followers = new Set([...original].filter(([userId, policy]) => policy === FOLLOWED && !move.losingAccess.has(userId)).map(([userId]) => userId));
  // A change of letter case only: the rows already name the topic (case-insensitively).
  if (move.fromChannelId === move.toChannelId && move.fromTopic.toLowerCase() === move.toTopic.toLowerCase()) return followers;

  // A channel the user cannot read gets no policy of theirs: as if the topic had been deleted.
  const losing = [...original.keys()].filter((userId) => move.losingAccess.has(userId));
  for (const userId of losing) original.delete(userId);
  await setTopicPolicies(tx, losing, move.fromChannelId, move.fromTopic, INHERIT);

  const target = await policiesOf(move.toChannelId, move.toTopic);
  const byPair = new Map<string, { from: number; to: number; userIds: number[] }>();
  for (const userId of new Set([...original.keys(), ...target.keys()])) {
    const from = original.get(userId) ?? INHERIT;
    const to = target.get(userId) ?? INHERIT;
    const pair = byPair.get(`${from}:${to}`) ?? { from, to, userIds: [] };
    pair.userIds.push(userId);
    byPair.set(`${from}:${to}`, pair);
  }
  for (const { from, to, userIds } of byPair.values()) {
    // Into a topic with messages, the most visible of the two policies wins; into an empty one
    // (which may still have policies, its messages deleted) the moved topic's replaces it.
    const policy = move.targetHadMessages ? mergedPolicy(from, to) : from;
    if (from !== INHERIT) await setTopicPolicies(tx, userIds, move.fromChannelId, move.fromTopic, INHERIT, { skipMutedTopicsEvent: policy !== to });
    if (policy !== to) await setTopicPolicies(tx, userIds, move.toChannelId, move.toTopic, policy);
  }
  return followers;
}

/** Zulip's get_visibility_policy_after_merge: followed, then unmuted, then none, then muted. */
function mergedPolicy(a: number, b: number): number {
  for (const policy of [FOLLOWED, UNMUTED, INHERIT]) if (a === policy || b === policy) return policy;
  return MUTED;
}
