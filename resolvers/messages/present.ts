// A message as a particular viewer sees it: Zulip's message dictionary, built for a batch of IDs
// with a fixed number of queries (no query per message).
import { Prisma, type Realm, type User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { avatarUrlFor } from '../users/present.ts';
import { toUnixSeconds, escapeHtml } from '../text.ts';
import { flagList } from './flags.ts';
import { realmLinkifiers, topicLinksWith } from './render.ts';

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
  submessages: unknown[];
  timestamp: number;
  type: 'stream' | 'private';
  flags: string[];
  matchContent: string | null;
  matchSubject: string | null;
}

export interface PresentOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
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
  const realmStr = realm.stringId;
  const linkifiers = messages.some((m) => m.channelId != null && m.topic) ? await realmLinkifiers(db, realm.id) : [];
  return messages.map((m) => {
    const isChannel = m.channelId != null;
    let topic = m.topic;
    if (isChannel && topic === '' && !options.allowEmptyTopicName) topic = realm.emptyTopicDisplayName;
    const displayRecipient: string | DisplayRecipientUser[] = isChannel
      ? m.channel!.name
      : (participantsOf.get(m.directConversationId!) ?? []).sort((a, b) => a.id - b.id);
    const um = (m as { userMessages?: Parameters<typeof flagList>[0][] }).userMessages?.[0];
    const highlight = highlights.get(m.id);
    return {
      id: m.id,
      senderId: m.senderId,
      senderFullName: m.sender.fullName,
      senderEmail: m.sender.email,
      senderRealmStr: realmStr,
      avatarUrl: avatarUrlFor(viewer, m.sender, options.clientGravatar),
      client: m.sendingClient,
      content: options.applyMarkdown ? m.renderedContent : m.content,
      contentType: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
      rawContent: m.content,
      renderedContent: m.renderedContent,
      displayRecipient,
      editHistory: Array.isArray(m.editHistory) && m.editHistory.length ? (m.editHistory as unknown[]) : null,
      isMeMessage: m.isMeMessage,
      lastEditTimestamp: m.lastEditTime ? toUnixSeconds(m.lastEditTime) : null,
      lastMovedTimestamp: m.lastMovedTime ? toUnixSeconds(m.lastMovedTime) : null,
      reactions: m.reactions.map((r) => ({ emojiName: r.emojiName, emojiCode: r.emojiCode, reactionType: r.reactionType, userId: r.userId })),
      recipientId: isChannel ? m.channelId! : DIRECT_RECIPIENT_ID_OFFSET + m.directConversationId!,
      streamId: m.channelId,
      topic: isChannel ? topic : '',
      topicLinks: isChannel ? topicLinksWith(linkifiers, m.topic) : [],
      submessages: [],
      timestamp: toUnixSeconds(m.dateSent),
      type: isChannel ? 'stream' : 'private',
      flags: flagList(viewer ? um : undefined),
      matchContent: highlight ? highlight.content : null,
      matchSubject: highlight ? highlight.subject : null,
    } satisfies MessageView;
  });
}

// ts_headline marks matches with these control characters (its option syntax cannot carry the
// HTML), which are then replaced by Zulip's highlight spans.
const MARK_START = '\u0002';
const MARK_END = '\u0003';

async function searchHighlights(db: Db, ids: number[], search: string) {
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
