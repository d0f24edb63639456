// A message as a particular viewer sees it: Zulip's message dictionary, built for a batch of IDs
// with a fixed number of queries (no query per message).
import { Prisma, type Message, type Realm, type User } from '../../prisma/generated/client/client.ts';
import { driverQuery, type Db } from '../../prisma/database.ts';
import { avatarUrlFor, type AvatarUser } from '../users/avatars.ts';
import { escapeHtml } from '../text.ts';
import { toUnixSeconds } from '../time.ts';
import { flagList, type UserMessageFlags } from './flags.ts';
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

type Sender = AvatarUser & Pick<User, 'fullName' | 'email' | 'isBot' | 'settings'>;

/**
 * One message with everything its record needs, as presentMessages' statement reads it. The sender
 * and the viewer's flags are plain columns (not JSON objects): cheaper to build for PostgreSQL
 * and to decode for the driver, on every row of every page.
 */
type PresentRow = MessageSource['row'] & UserMessageFlags & {
  senderRealmId: number;
  senderEmail: string;
  senderDeliveryEmail: Sender['deliveryEmail'];
  senderFullName: string;
  senderIsBot: boolean;
  /** The sender's `email_address_visibility` setting (all an avatar URL needs of their settings). */
  senderEmailVisibility: Prisma.JsonValue | null;
  senderAvatarSource: Sender['avatarSource'];
  senderAvatarVersion: number;
  senderAvatarKey: Sender['avatarKey'];
  channelName: string | null;
  participants: DisplayRecipientUser[] | null;
  reactions: ReactionView[];
  submessages: { id: number; messageId: number; senderId: number; msgType: string; content: string }[];
  /** Whether the viewer received the message: the flag columns are its UserMessage row's (null otherwise). */
  received: boolean;
  matchContent: string | null;
  matchSubject: string | null;
};

/**
 * Records for the given message IDs (of the realm), in ID order: one statement, whatever the
 * number of messages, reactions, submessages and participants. Its text is one of two (with or
 * without search highlights), whatever the narrow that chose the IDs, so it is prepared: planning
 * it costs more than running it for a page, and its plan (by primary key, ID after ID) is the same
 * for every page.
 */
export async function presentMessages(db: Db, realm: Realm, viewer: User | null, ids: number[], options: PresentOptions): Promise<MessageView[]> {
  if (!ids.length) return [];
  const highlight = (column: Prisma.Sql) => options.search
    ? Prisma.sql`ts_headline('english', ${column}, searched.query, ${HEADLINE_OPTIONS})`
    : Prisma.sql`NULL::text`;
  // The query is parsed once, not for every row and column: in the prepared statement's generic
  // plan, websearch_to_tsquery of a parameter is not folded into a constant (OFFSET 0 keeps the
  // subquery from being pulled up into the rows).
  const searchQuery = options.search
    ? Prisma.sql`CROSS JOIN (SELECT websearch_to_tsquery('english', ${options.search}) AS query OFFSET 0) AS searched`
    : Prisma.empty;
  const rows = await driverQuery<PresentRow>(db, Prisma.sql`
    SELECT m.id, m."senderId", m."channelId", m."directConversationId", m.topic, m.content, m."renderedContent",
      m."sendingClient", m."isMeMessage", m."lastEditTime", m."lastMovedTime", m."dateSent", m."editHistory",
      u."realmId" AS "senderRealmId", u.email AS "senderEmail", u."deliveryEmail" AS "senderDeliveryEmail",
      u."fullName" AS "senderFullName", u."isBot" AS "senderIsBot",
      u.settings->'email_address_visibility' AS "senderEmailVisibility",
      u."avatarSource" AS "senderAvatarSource", u."avatarVersion" AS "senderAvatarVersion", u."avatarKey" AS "senderAvatarKey",
      c.name AS "channelName",
      CASE WHEN m."directConversationId" IS NOT NULL THEN (
        SELECT json_agg(json_build_object('id', pu.id, 'email', pu.email, 'full_name', pu."fullName", 'is_mirror_dummy', false) ORDER BY pu.id)
        FROM "DirectConversationMember" dm JOIN "User" pu ON pu.id = dm."userId" WHERE dm."conversationId" = m."directConversationId"
      ) END AS participants,
      COALESCE((SELECT json_agg(json_build_object('emojiName', r."emojiName", 'emojiCode', r."emojiCode",
          'reactionType', r."reactionType", 'userId', r."userId") ORDER BY r.id)
        FROM "Reaction" r WHERE r."messageId" = m.id), '[]') AS reactions,
      COALESCE((SELECT json_agg(json_build_object('id', sm.id, 'messageId', sm."messageId", 'senderId', sm."senderId",
          'msgType', sm."msgType", 'content', sm.content) ORDER BY sm.id)
        FROM "SubMessage" sm WHERE sm."messageId" = m.id), '[]') AS submessages,
      um."userId" IS NOT NULL AS received, um.read, um.starred, um.collapsed, um.mentioned, um."streamWildcardMentioned",
      um."topicWildcardMentioned", um."hasAlertWord", um.historical,
      ${highlight(Prisma.sql`m."renderedContent"`)} AS "matchContent",
      ${highlight(Prisma.sql`m.topic`)} AS "matchSubject"
    FROM unnest(${ids}::int[]) AS w(id)
    JOIN "Message" m ON m.id = w.id
    JOIN "User" u ON u.id = m."senderId"
    LEFT JOIN "Channel" c ON c.id = m."channelId"
    LEFT JOIN "UserMessage" um ON um."messageId" = m.id AND um."userId" = ${viewer?.id ?? null}::int
    ${searchQuery}
    WHERE m."realmId" = ${realm.id}
    ORDER BY m.id`, { prepare: options.search ? 'messages.present.search' : 'messages.present' });
  const linkifiers = rows.some((m) => m.channelId != null && m.topic) ? await realmLinkifiers(db, realm.id) : [];
  // A page has few senders: each one's object and avatar URL are made once.
  const senders = new Map<number, { sender: Sender; avatarUrl: string | null }>();
  const senderOf = (m: PresentRow) => {
    let found = senders.get(m.senderId);
    if (!found) {
      const sender: Sender = {
        id: m.senderId, realmId: m.senderRealmId, email: m.senderEmail, deliveryEmail: m.senderDeliveryEmail, fullName: m.senderFullName,
        isBot: m.senderIsBot, settings: senderSettings(m.senderEmailVisibility), avatarSource: m.senderAvatarSource, avatarVersion: m.senderAvatarVersion, avatarKey: m.senderAvatarKey,
      };
      found = { sender, avatarUrl: avatarUrlFor(viewer, sender, options) };
      senders.set(m.senderId, found);
    }
    return found;
  };
  return rows.map((m) => messageRecord(realm, {
    row: m,
    ...senderOf(m),
    channelName: m.channelName,
    participants: m.participants ?? [],
    reactions: m.reactions,
    submessages: m.submessages.map(submessageRecord),
    topicLinks: m.channelId != null ? topicLinksWith(linkifiers, m.topic) : [],
    flags: flagList(viewer && m.received ? m : undefined),
    highlight: m.matchContent != null ? { content: markHighlights(m.matchContent), subject: markHighlights(escapeHtml(m.matchSubject ?? '')) } : null,
  }, options));
}

/**
 * The part of a sender's settings a record reads. The whole JSON (2 KB, on every row of a page) cost
 * PostgreSQL more to send and the driver more to parse than the rest of the page.
 */
function senderSettings(emailVisibility: Prisma.JsonValue | null): Sender['settings'] {
  return emailVisibility === null ? {} : { email_address_visibility: emailVisibility };
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

const HEADLINE_OPTIONS = `HighlightAll=TRUE, StartSel=${MARK_START}, StopSel=${MARK_END}`;

/** Search matches highlighted in the rendered content and the (escaped) topic, by message. */
export async function searchHighlights(db: Db, ids: number[], search: string) {
  const options = HEADLINE_OPTIONS;
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
