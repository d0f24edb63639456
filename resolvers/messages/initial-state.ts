// Register's message-derived state: max_message_id, unread_msgs, recent_private_conversations
// and starred_messages.
import { MAX_STARRED_MESSAGES, MAX_UNREAD_MESSAGES, RECENT_PRIVATE_MESSAGES_LIMIT } from '../limits.ts';
import type { InitialState, Json } from '../events/initial-state/state.ts';
import { initialStateSection } from '../events/initial-state/parts.ts';
import { TOPIC_POLICY } from '../topics/policies.ts';

const { MUTED, UNMUTED, FOLLOWED } = TOPIC_POLICY;

async function maxMessageIdState(s: InitialState, state: Json): Promise<void> {
  if (!s.user) {
    state.max_message_id = -1;
    return;
  }
  const row = await s.db.userMessage.aggregate({ where: { userId: s.user.id }, _max: { messageId: true } });
  state.max_message_id = row._max.messageId ?? -1;
}

/** Zulip's empty unread structure (spectators have read everything). */
function emptyUnreads(): Json {
  return { pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false };
}

/**
 * `unread_msgs`: the viewer's newest MAX_UNREAD_MESSAGES unread messages, grouped like Zulip:
 * one-to-one and self conversations by other user, group conversations by participants, channel
 * messages by (channel, topic). Messages in channels the viewer left are not counted; messages in
 * muted channels or topics are listed but left out of `count` (and of wildcard `mentions`).
 */
async function unreadState(s: InitialState, state: Json): Promise<void> {
  const viewer = s.user;
  if (!viewer) {
    state.unread_msgs = emptyUnreads();
    return;
  }
  const [rows, isMuted] = await Promise.all([unreadRows(s, viewer.id), topicMuting(s, viewer.id)]);
  const members = await conversationMembers(s, rows.map((r) => r.message.directConversationId));
  const groups = groupUnreads(rows, { viewerId: viewer.id, members, isMuted, topicName: (topic) => s.topicName(topic) });
  state.unread_msgs = { ...unreadRecord(groups), old_unreads_missing: rows.length === MAX_UNREAD_MESSAGES };
}

type UnreadRow = Awaited<ReturnType<typeof unreadRows>>[number];

/** The viewer's newest unread messages, oldest first, leaving out channels they unsubscribed from. */
async function unreadRows(s: InitialState, viewerId: number) {
  const rows = await s.db.userMessage.findMany({
    where: {
      userId: viewerId,
      read: false,
      message: {
        OR: [
          { channelId: null },
          { channel: { subscriptions: { none: { userId: viewerId, active: false } } } },
        ],
      },
    },
    select: {
      messageId: true,
      mentioned: true,
      streamWildcardMentioned: true,
      topicWildcardMentioned: true,
      message: { select: { channelId: true, topic: true, directConversationId: true } },
    },
    orderBy: { messageId: 'desc' },
    take: MAX_UNREAD_MESSAGES,
  });
  return rows.reverse();
}

/** Whether a channel topic is muted for the viewer: by the topic's policy, else by the channel's muting. */
async function topicMuting(s: InitialState, viewerId: number): Promise<(channelId: number, topic: string) => boolean> {
  const [subs, topics] = await Promise.all([
    s.viewerSubscriptions(),
    s.db.userTopic.findMany({ where: { userId: viewerId }, select: { channelId: true, topicName: true, visibilityPolicy: true } }),
  ]);
  const policies = new Map(topics.map((t) => [`${t.channelId}:${t.topicName.toLowerCase()}`, t.visibilityPolicy]));
  return (channelId, topic) => {
    const policy = policies.get(`${channelId}:${topic.toLowerCase()}`);
    if (subs.get(channelId)?.isMuted) return !(policy === UNMUTED || policy === FOLLOWED);
    return policy === MUTED;
  };
}

/** The participants of the given direct conversations, in one query. */
async function conversationMembers(s: InitialState, ids: (number | null)[]): Promise<Map<number, number[]>> {
  const conversationIds = [...new Set(ids.filter((id): id is number => id != null))];
  const members = new Map<number, number[]>();
  if (!conversationIds.length) return members;
  const rows = await s.db.directConversationMember.findMany({
    where: { conversationId: { in: conversationIds } },
    select: { conversationId: true, userId: true },
  });
  for (const m of rows) {
    const list = members.get(m.conversationId);
    if (list) list.push(m.userId);
    else members.set(m.conversationId, [m.userId]);
  }
  return members;
}

interface UnreadGroups {
  pms: Map<number, number[]>;
  huddles: Map<string, number[]>;
  streams: Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>;
  mentions: Set<number>;
  count: number;
}

/** Zulip's grouping: one-to-one and self conversations by the other user, groups by participants, channels by topic. */
function groupUnreads(rows: UnreadRow[], ctx: {
  viewerId: number;
  members: Map<number, number[]>;
  isMuted: (channelId: number, topic: string) => boolean;
  topicName: (topic: string) => string;
}): UnreadGroups {
  const groups: UnreadGroups = { pms: new Map(), huddles: new Map(), streams: new Map(), mentions: new Set(), count: 0 };
  const push = <K>(map: Map<K, number[]>, key: K, id: number) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  for (const row of rows) {
    const { channelId, topic, directConversationId } = row.message;
    const id = row.messageId;
    let muted = false;
    if (channelId != null) {
      const name = ctx.topicName(topic);
      const key = `${channelId}:${name.toLowerCase()}`;
      let bucket = groups.streams.get(key);
      if (!bucket) groups.streams.set(key, (bucket = { stream_id: channelId, topic: name, unread_message_ids: [] }));
      bucket.unread_message_ids.push(id);
      muted = ctx.isMuted(channelId, topic);
      if (!muted) groups.count++;
    } else if (directConversationId != null) {
      const participants = [...new Set(ctx.members.get(directConversationId) ?? [])].sort((a, b) => a - b);
      const others = participants.filter((u) => u !== ctx.viewerId);
      if (others.length <= 1) push(groups.pms, others[0] ?? ctx.viewerId, id);
      else push(groups.huddles, participants.join(','), id);
      groups.count++;
    } else continue;
    if (row.mentioned) groups.mentions.add(id);
    if ((row.streamWildcardMentioned || row.topicWildcardMentioned) && !muted) groups.mentions.add(id);
  }
  return groups;
}

/** `unread_msgs` in Zulip's order: conversations by key, IDs ascending. */
function unreadRecord(groups: UnreadGroups): Json {
  const cmp = (a: number, b: number) => a - b;
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    pms: [...groups.pms.entries()].sort(([a], [b]) => a - b).map(([other, ids]) => ({
      other_user_id: other,
      // Deprecated alias of other_user_id, kept for old mobile clients.
      sender_id: other,
      unread_message_ids: ids.sort(cmp),
    })),
    streams: [...groups.streams.values()]
      .sort((a, b) => a.stream_id - b.stream_id || byText(a.topic.toLowerCase(), b.topic.toLowerCase()))
      .map((bucket) => ({ ...bucket, unread_message_ids: bucket.unread_message_ids.sort(cmp) })),
    huddles: [...groups.huddles.entries()].sort(([a], [b]) => byText(a, b)).map(([key, ids]) => ({
      user_ids_string: key,
      unread_message_ids: ids.sort(cmp),
    })),
    mentions: [...groups.mentions].sort(cmp),
    count: groups.count,
  };
}

/**
 * `recent_private_conversations`: the direct conversations among the viewer's newest
 * RECENT_PRIVATE_MESSAGES_LIMIT direct messages, most recent first, with the other participants.
 */
async function recentConversationsState(s: InitialState, state: Json): Promise<void> {
  const viewer = s.user;
  if (!viewer) {
    state.recent_private_conversations = [];
    return;
  }
  const recent = await s.db.userMessage.findMany({
    where: { userId: viewer.id, isPrivate: true },
    select: { messageId: true, message: { select: { directConversationId: true } } },
    orderBy: { messageId: 'desc' },
    take: RECENT_PRIVATE_MESSAGES_LIMIT,
  });
  const latest = new Map<number, number>();
  for (const row of recent) {
    const id = row.message.directConversationId;
    if (id != null && !latest.has(id)) latest.set(id, row.messageId);
  }
  const memberRows = latest.size
    ? await s.db.directConversationMember.findMany({
        where: { conversationId: { in: [...latest.keys()] } },
        select: { conversationId: true, userId: true },
      })
    : [];
  const others = new Map<number, number[]>();
  for (const id of latest.keys()) others.set(id, []);
  for (const m of memberRows) if (m.userId !== viewer.id) others.get(m.conversationId)!.push(m.userId);
  state.recent_private_conversations = [...latest.entries()]
    .sort(([, a], [, b]) => b - a)
    .map(([conversationId, maxId]) => ({
      max_message_id: maxId,
      user_ids: [...new Set(others.get(conversationId))].sort((a, b) => a - b),
    }));
}

async function starredState(s: InitialState, state: Json): Promise<void> {
  if (!s.user) {
    state.starred_messages = [];
    return;
  }
  const rows = await s.db.userMessage.findMany({
    where: { userId: s.user.id, starred: true },
    select: { messageId: true },
    orderBy: { messageId: 'asc' },
    take: MAX_STARRED_MESSAGES,
  });
  state.starred_messages = rows.map((r) => r.messageId);
}

initialStateSection(['message'], maxMessageIdState);
// unread_msgs comes with `message` and `update_message_flags` together, as in Zulip.
initialStateSection(['update_message_flags'], async (s, state) => {
  if (s.want('message')) await unreadState(s, state);
});
initialStateSection(['recent_private_conversations'], recentConversationsState);
initialStateSection(['starred_messages'], starredState);
