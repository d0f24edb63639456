// A message as a particular viewer sees it: Zulip's message dictionary, built for a batch of IDs
// with a fixed number of queries (no query per message).
import { Prisma, type Message, type Realm, type User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { avatarUrlFor } from '../users/avatars.ts';
import { toUnixSeconds, escapeHtml } from '../text.ts';
import { flagList } from './flags.ts';
import { realmLinkifiers, topicLinksWith } from './render.ts';
import { editHistoryPolicy, visibleEditHistory } from './history.ts';
import { topicForClient } from './topics.ts';
import { submessageRecord, type SubmessageRecord } from './widgets.ts';

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

export interface ReactionView {
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  userId: number;
}

export interface MessageView {
  id: number;
  senderId: number;
  senderFullName: string;
  senderEmail: string;
  senderRealmStr: string;
  avatarUrl: string | null;
  client: string;
  content: string;
  contentType: string;
  rawContent: string;
  renderedContent: string;
  displayRecipient: string | DisplayRecipientUser[];
  editHistory: unknown[] | null;
  isMeMessage: boolean;
  lastEditTimestamp: number | null;
  lastMovedTimestamp: number | null;
  reactions: ReactionView[];
  recipientId: number;
  streamId: number | null;
  topic: string;
  topicLinks: { text: string; url: string }[];
  submessages: SubmessageRecord[];
  timestamp: number;
  type: 'stream' | 'private';
  flags: string[];
  matchContent: string | null;
  matchSubject: string | null;
}

export interface PresentOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** The server links Gravatar for default avatars (config.gravatarEnabled). */
  gravatar: boolean;
  allowEmptyTopicName: boolean;
  /** Full-text query whose matches are highlighted in match_content / match_subject. */
  search?: string | null;
}

// Zulip's recipient IDs come from a table Parley does not have: channels keep their own ID and
// direct conversations are numbered above this offset, so the two never collide.
export const DIRECT_RECIPIENT_ID_OFFSET = 1_000_000_000;

export async function presentMessages(db: Db, realm: Realm, viewer: User | null, ids: number[], options: PresentOptions): Promise<MessageView[]> {
  if (!ids.length) return [];
  const messages = await db.message.findMany({
    where: { id: { in: ids }, realmId: realm.id },
    orderBy: { id: 'asc' },
    include: {
      sender: true,
      channel: { select: { name: true } },
      reactions: { orderBy: { id: 'asc' } },
      submessages: { orderBy: { id: 'asc' } },
      userMessages: viewer ? { where: { userId: viewer.id } } : false,
    },
  });
  // Participants only for direct messages (an include would query for channel messages too).
  const conversationIds = [...new Set(messages.map((m) => m.directConversationId).filter((id): id is number => id != null))];
  const members = conversationIds.length
    ? await db.directConversationMember.findMany({
        where: { conversationId: { in: conversationIds } },
        select: { conversationId: true, user: { select: { id: true, email: true, fullName: true } } },
      })
    : [];
  const participantsOf = new Map<number, DisplayRecipientUser[]>();
  for (const member of members) {
    const list = participantsOf.get(member.conversationId) ?? [];
    list.push({ id: member.user.id, email: member.user.email, full_name: member.user.fullName, is_mirror_dummy: false });
    participantsOf.set(member.conversationId, list);
  }
  const highlights = options.search ? await searchHighlights(db, ids, options.search) : new Map<number, { content: string; subject: string }>();
  const linkifiers = messages.some((m) => m.channelId != null && m.topic) ? await realmLinkifiers(db, realm.id) : [];
  return messages.map((m) => messageRecord(realm, {
    row: m,
    sender: m.sender,
    avatarUrl: avatarUrlFor(viewer, m.sender, options),
    channelName: m.channel?.name ?? null,
    participants: m.directConversationId != null ? participantsOf.get(m.directConversationId) ?? [] : [],
    reactions: m.reactions.map((r) => ({ emojiName: r.emojiName, emojiCode: r.emojiCode, reactionType: r.reactionType, userId: r.userId })),
    submessages: m.submessages.map(submessageRecord),
    topicLinks: m.channelId != null ? topicLinksWith(linkifiers, m.topic) : [],
    flags: flagList(viewer ? (m as { userMessages?: Parameters<typeof flagList>[0][] }).userMessages?.[0] : undefined),
    highlight: highlights.get(m.id) ?? null,
  }, options));
}

/** What one message record is made of: its row and what was read (or, when sending, known) with it. */
export interface MessageSource {
  row: Pick<Message, 'id' | 'senderId' | 'channelId' | 'directConversationId' | 'topic' | 'content' | 'renderedContent'
    | 'sendingClient' | 'isMeMessage' | 'lastEditTime' | 'lastMovedTime' | 'dateSent' | 'editHistory'>;
  sender: Pick<User, 'fullName' | 'email'>;
  avatarUrl: string | null;
  /** The channel's name, for channel messages. */
  channelName: string | null;
  /** The conversation's participants, for direct messages. */
  participants: DisplayRecipientUser[];
  reactions: ReactionView[];
  submessages: SubmessageRecord[];
  topicLinks: { text: string; url: string }[];
  flags: string[];
  highlight: { content: string; subject: string } | null;
}

/**
 * The one builder of a message record (Zulip's MessageDict): for fetches, for GET /messages/{id}, and
 * for the `message` event at send time, so every field is derived the same way everywhere.
 */
export function messageRecord(realm: Realm, source: MessageSource, options: { applyMarkdown: boolean; allowEmptyTopicName: boolean }): MessageView {
  const { row: m } = source;
  const isChannel = m.channelId != null;
  const historyPolicy = editHistoryPolicy(realm);
  return {
    id: m.id,
    senderId: m.senderId,
    senderFullName: source.sender.fullName,
    senderEmail: source.sender.email,
    senderRealmStr: realm.stringId,
    avatarUrl: source.avatarUrl,
    client: m.sendingClient,
    content: options.applyMarkdown ? m.renderedContent : m.content,
    contentType: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
    rawContent: m.content,
    renderedContent: m.renderedContent,
    displayRecipient: isChannel ? source.channelName ?? '' : [...source.participants].sort((a, b) => a.id - b.id),
    editHistory: Array.isArray(m.editHistory) && m.editHistory.length && historyPolicy !== 'none'
      ? visibleEditHistory(historyPolicy, m.editHistory as object[])
      : null,
    isMeMessage: m.isMeMessage,
    lastEditTimestamp: m.lastEditTime ? toUnixSeconds(m.lastEditTime) : null,
    lastMovedTimestamp: m.lastMovedTime ? toUnixSeconds(m.lastMovedTime) : null,
    reactions: source.reactions,
    recipientId: isChannel ? m.channelId! : DIRECT_RECIPIENT_ID_OFFSET + m.directConversationId!,
    streamId: m.channelId,
    topic: isChannel ? topicForClient(m.topic, realm.emptyTopicDisplayName, options.allowEmptyTopicName) : '',
    topicLinks: source.topicLinks,
    submessages: source.submessages,
    timestamp: toUnixSeconds(m.dateSent),
    type: isChannel ? 'stream' : 'private',
    flags: source.flags,
    matchContent: source.highlight?.content ?? null,
    matchSubject: source.highlight?.subject ?? null,
  };
}

// ts_headline marks matches with these control characters (its option syntax cannot carry the
// HTML), which are then replaced by Zulip's highlight spans.
const MARK_START = '\u0002';
const MARK_END = '\u0003';

/** Search matches highlighted in the rendered content and the (escaped) topic, by message. */
export async function searchHighlights(db: Db, ids: number[], search: string) {
  const options = `HighlightAll=TRUE, StartSel=${MARK_START}, StopSel=${MARK_END}`;
  const rows = await db.$queryRaw<{ id: number; content: string; subject: string }[]>(Prisma.sql`
    SELECT m.id,
      ts_headline('english', m."renderedContent", websearch_to_tsquery('english', ${search}), ${options}) AS content,
      ts_headline('english', m.topic, websearch_to_tsquery('english', ${search}), ${options}) AS subject
    FROM "Message" m WHERE m.id IN (${Prisma.join(ids)})`);
  return new Map(rows.map((r) => [r.id, { content: markHighlights(r.content), subject: markHighlights(escapeHtml(r.subject)) }]));
}

function markHighlights(text: string): string {
  return text.replaceAll(MARK_START, '<span class="highlight">').replaceAll(MARK_END, '</span>');
}
