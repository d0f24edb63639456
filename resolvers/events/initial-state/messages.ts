// Message-derived state: max_message_id, unread_msgs, recent_private_conversations,
// starred_messages, drafts, scheduled_messages and reminders.
import { toUnixSeconds } from '../../text.ts';
import { MAX_STARRED_MESSAGES, MAX_UNREAD_MESSAGES, RECENT_PRIVATE_MESSAGES_LIMIT } from './constants.ts';
import type { InitialState, Json } from './state.ts';

// UserTopic.visibilityPolicy values.
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

export async function messagesState(s: InitialState): Promise<Json> {
  const state: Json = {};
  const jobs: Promise<void>[] = [];
  if (s.want('message')) jobs.push(maxMessageIdState(s, state));
  if (s.want('message') && s.want('update_message_flags')) jobs.push(unreadState(s, state));
  if (s.want('recent_private_conversations')) jobs.push(recentConversationsState(s, state));
  if (s.want('starred_messages')) jobs.push(starredState(s, state));
  // Parley does not store drafts (no draft synchronization).
  if (s.want('drafts')) state.drafts = [];
  if (s.want('scheduled_messages')) jobs.push(scheduledState(s, state));
  if (s.want('reminders')) jobs.push(remindersState(s, state));
  await Promise.all(jobs);
  return state;
}

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
  const [rows, subs, topics] = await Promise.all([
    s.db.userMessage.findMany({
      where: {
        userId: viewer.id,
        read: false,
        historical: false,
        message: {
          OR: [
            { channelId: null },
            { channel: { subscriptions: { none: { userId: viewer.id, active: false } } } },
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
    }),
    s.viewerSubscriptions(),
    s.db.userTopic.findMany({ where: { userId: viewer.id }, select: { channelId: true, topicName: true, visibilityPolicy: true } }),
  ]);
  rows.reverse();

  const policies = new Map(topics.map((t) => [`${t.channelId}:${t.topicName.toLowerCase()}`, t.visibilityPolicy]));
  const isMuted = (channelId: number, topic: string) => {
    const policy = policies.get(`${channelId}:${topic.toLowerCase()}`);
    if (subs.get(channelId)?.isMuted) return !(policy === UNMUTED || policy === FOLLOWED);
    return policy === MUTED;
  };

  // Participants of the direct conversations involved, in one query.
  const conversationIds = [...new Set(rows.map((r) => r.message.directConversationId).filter((id): id is number => id != null))];
  const members = new Map<number, number[]>();
  if (conversationIds.length) {
    const memberRows = await s.db.directConversationMember.findMany({
      where: { conversationId: { in: conversationIds } },
      select: { conversationId: true, userId: true },
    });
    for (const m of memberRows) {
      const list = members.get(m.conversationId);
      if (list) list.push(m.userId);
      else members.set(m.conversationId, [m.userId]);
    }
  }

  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions = new Set<number>();
  let count = 0;
  for (const row of rows) {
    const { channelId, topic, directConversationId } = row.message;
    const id = row.messageId;
    let muted = false;
    if (channelId != null) {
      const name = s.topicName(topic);
      const key = `${channelId}:${name.toLowerCase()}`;
      let bucket = streams.get(key);
      if (!bucket) streams.set(key, (bucket = { stream_id: channelId, topic: name, unread_message_ids: [] }));
      bucket.unread_message_ids.push(id);
      muted = isMuted(channelId, topic);
      if (!muted) count++;
    } else if (directConversationId != null) {
      const participants = [...new Set(members.get(directConversationId) ?? [])].sort((a, b) => a - b);
      const others = participants.filter((u) => u !== viewer.id);
      if (others.length <= 1) {
        const other = others[0] ?? viewer.id;
        const list = pms.get(other);
        if (list) list.push(id);
        else pms.set(other, [id]);
      } else {
        const key = participants.join(',');
        const list = huddles.get(key);
        if (list) list.push(id);
        else huddles.set(key, [id]);
      }
      count++;
    } else continue;
    if (row.mentioned) mentions.add(id);
    if ((row.streamWildcardMentioned || row.topicWildcardMentioned) && !muted) mentions.add(id);
  }

  const cmp = (a: number, b: number) => a - b;
  state.unread_msgs = {
    pms: [...pms.entries()].sort(([a], [b]) => a - b).map(([other, ids]) => ({
      other_user_id: other,
      // Deprecated alias of other_user_id, kept for old mobile clients.
      sender_id: other,
      unread_message_ids: ids.sort(cmp),
    })),
    streams: [...streams.entries()]
      .sort(([, a], [, b]) => a.stream_id - b.stream_id || (a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : a.topic.toLowerCase() > b.topic.toLowerCase() ? 1 : 0))
      .map(([, bucket]) => ({ ...bucket, unread_message_ids: bucket.unread_message_ids.sort(cmp) })),
    huddles: [...huddles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, ids]) => ({
      user_ids_string: key,
      unread_message_ids: ids.sort(cmp),
    })),
    mentions: [...mentions].sort(cmp),
    count,
    old_unreads_missing: rows.length === MAX_UNREAD_MESSAGES,
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

/** Undelivered scheduled messages (not reminders), soonest first. */
async function scheduledState(s: InitialState, state: Json): Promise<void> {
  if (!s.user) {
    state.scheduled_messages = [];
    return;
  }
  const rows = await s.db.scheduledMessage.findMany({
    where: { senderId: s.user.id, delivered: false, deliveryType: 'send_later' },
    orderBy: [{ scheduledTimestamp: 'asc' }, { id: 'asc' }],
  });
  state.scheduled_messages = rows.map((m) => ({
    scheduled_message_id: m.id,
    ...(m.channelId != null
      ? { type: 'stream', to: m.channelId, topic: s.topicName(m.topic ?? '') }
      : { type: 'private', to: [...m.directRecipientIds].sort((a, b) => a - b) }),
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: toUnixSeconds(m.scheduledTimestamp),
    failed: m.failed,
  }));
}

/** Undelivered message reminders, soonest first. */
async function remindersState(s: InitialState, state: Json): Promise<void> {
  if (!s.user) {
    state.reminders = [];
    return;
  }
  const rows = await s.db.scheduledMessage.findMany({
    where: { senderId: s.user.id, delivered: false, deliveryType: 'remind' },
    orderBy: [{ scheduledTimestamp: 'asc' }, { id: 'asc' }],
  });
  state.reminders = rows.map((m) => ({
    reminder_id: m.id,
    type: 'private',
    to: [...m.directRecipientIds].sort((a, b) => a - b),
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: toUnixSeconds(m.scheduledTimestamp),
    failed: m.failed,
    reminder_target_message_id: m.reminderTargetMessageId,
  }));
}
