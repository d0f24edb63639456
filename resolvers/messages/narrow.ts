// Narrows: Zulip's message filters, parsed and checked once, then turned into SQL.
//
// A narrow with a channel operator naming a channel whose history the viewer may read (or
// `channels:public`) searches every message of it, received or not; any other narrow searches only
// the viewer's own history (messages they received), as Zulip's ok_to_include_history: neither an
// `id` term nor explicit message IDs (GET /messages `message_ids`) widen it.
import { Prisma, type Channel, type Realm, type User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { BadRequestError } from '../errors.ts';
import { cachedChannelWithSubscribers, historyIsPublicTo, readableHistoryChannelIdsSql, type ChannelCache } from '../channels/access.ts';
import { accessMessage, InvalidMessageError } from './access.ts';
import { isGuest } from '../users/roles.ts';
import { exactInsensitive, isDbId } from '../rows.ts';
import { RESOLVED_TOPIC_PREFIX, topicFromClient } from './topics.ts';
import { TOPIC_POLICY } from '../topics/policies.ts';

export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated?: boolean;
}

/** Zulip's BadNarrowOperatorError: code BAD_NARROW, the detail also as `desc`. */
export class BadNarrowError extends BadRequestError {
  override readonly code = 'BAD_NARROW';
  constructor(detail: string) {
    super(`Invalid narrow operator: ${detail}`, { desc: detail });
  }
}

const OPERATOR_ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
};

const IS_OPERANDS = new Set(['dm', 'private', 'starred', 'mentioned', 'unread', 'resolved', 'alerted', 'followed', 'muted', 'channel', 'stream']);
const HAS_OPERANDS = new Set(['link', 'image', 'attachment', 'reaction']);

/** Zulip's InvalidOperatorCombinationError. */
export class NarrowCombinationError extends BadRequestError {
  override readonly code = 'BAD_NARROW';
  constructor(detail: string) {
    super(`Invalid narrow operator combination: ${detail}`, { desc: detail });
  }
}

/** Accepts both wire forms: `{operator, operand, negated}` objects and legacy `[operator, operand]` pairs. */
export function normalizeNarrow(raw: unknown): NarrowTerm[] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw new BadRequestError('Invalid narrow');
  return raw.map((item, i) => {
    if (Array.isArray(item)) {
      if (item.length !== 2 || typeof item[0] !== 'string') throw new BadRequestError(`Invalid narrow[${i}]`);
      return { operator: item[0], operand: item[1], negated: false };
    }
    if (!item || typeof item !== 'object') throw new BadRequestError(`Invalid narrow[${i}]`);
    const { operator, operand, negated } = item as Record<string, unknown>;
    if (typeof operator !== 'string') throw new BadRequestError(`Invalid narrow[${i}]: operator is missing`);
    // null is no operand either (and would otherwise fail GraphQL's non-null check with a vague error).
    if (operand === undefined || operand === null) throw new BadRequestError(`Invalid narrow[${i}]: operand is missing`);
    if (negated !== undefined && typeof negated !== 'boolean') throw new BadRequestError(`Invalid narrow[${i}]: negated is not a boolean`);
    return { operator, operand, negated: negated ?? false };
  });
}

export interface CompiledNarrow {
  /** SQL condition on `m` (Message) and `um` (the viewer's UserMessage, possibly absent). */
  where: Prisma.Sql;
  /** Whether messages the viewer did not receive are in scope (channel-wide search). */
  channelWide: boolean;
  /** The full-text query, for highlighting matches. */
  search: string | null;
  /** Set when the narrow is a single channel + topic (for empty-topic handling by callers). */
  isSearch: boolean;
  /**
   * Every match is in a channel whose whole history the viewer may read (the narrow names one, not
   * negated): the access check then needs neither the viewer's UserMessage rows nor the channel list.
   */
  inReadableChannel: boolean;
}

function asUserRef(term: NarrowTerm): number | string {
  const { operand } = term;
  if (typeof operand === 'number' && Number.isSafeInteger(operand)) return operand;
  if (typeof operand === 'string' && operand.trim()) return /^\d+$/.test(operand.trim()) ? Number(operand.trim()) : operand.trim();
  throw new BadNarrowError(`invalid operand for '${term.operator}'`);
}

async function resolveUser(db: Db, realm: Realm, viewer: User, ref: number | string, operator: string): Promise<number> {
  if (ref === 'me') return viewer.id;
  if (typeof ref === 'number' && !isDbId(ref)) throw new BadNarrowError(`unknown user in '${operator}'`);
  const user = typeof ref === 'number'
    ? await db.user.findFirst({ where: { id: ref, realmId: realm.id }, select: { id: true } })
    : await db.user.findFirst({ where: { realmId: realm.id, email: exactInsensitive(ref) }, select: { id: true } });
  if (!user) throw new BadNarrowError(`unknown user in '${operator}'`);
  return user.id;
}

async function dmParticipants(db: Db, realm: Realm, viewer: User, term: NarrowTerm): Promise<number[]> {
  let refs: (number | string)[];
  const { operand } = term;
  if (Array.isArray(operand)) refs = operand as (number | string)[];
  else if (typeof operand === 'number') refs = [operand];
  else if (typeof operand === 'string') refs = operand.split(',').map((s) => s.trim()).filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  else throw new BadNarrowError(`invalid operand for '${term.operator}'`);
  if (!refs.length || !refs.every((r) => typeof r === 'number' || typeof r === 'string')) throw new BadNarrowError(`invalid operand for '${term.operator}'`);
  const ids = new Set<number>();
  for (const ref of refs) ids.add(await resolveUser(db, realm, viewer, ref, term.operator));
  ids.add(viewer.id);
  return [...ids].sort((a, b) => a - b);
}

/** Channel IDs whose whole history the viewer may read (`readableHistoryChannelIdsSql`). */
export async function channelsWithReadableHistory(db: Db, viewer: User, options: { webPublic?: boolean } = {}): Promise<number[]> {
  return (await db.$queryRaw<{ id: number }[]>(readableHistoryChannelIdsSql(viewer, options))).map((r) => r.id);
}

/** Where a narrow's channel lookups may be cached: the request's context (not inside a transaction). */
export type ChannelLookup = { channelCache?: ChannelCache; tx?: unknown };

export async function compileNarrow(
  db: Db, realm: Realm, viewer: User, terms: NarrowTerm[], options: { cache?: ChannelLookup } = {},
): Promise<CompiledNarrow> {
  const conditions: Prisma.Sql[] = [];
  let channelWide = false;
  let search: string | null = null;
  let inReadableChannel = false;
  terms = await resolveWith(db, viewer, terms);
  for (const raw of terms) {
    const term = { ...raw, operator: OPERATOR_ALIASES[raw.operator] ?? raw.operator };
    const compiled = await compileTerm(db, realm, viewer, term, options.cache);
    if (!compiled) continue;
    if (compiled.widens && !term.negated) channelWide = true;
    if (compiled.search != null) search = compiled.search;
    if (compiled.readableChannel && !term.negated) inReadableChannel = true;
    conditions.push(term.negated ? Prisma.sql`NOT (${compiled.cond})` : Prisma.sql`(${compiled.cond})`);
  }
  // As Zulip's ok_to_include_history: an `is:` term other than is:resolved, negated or not, keeps
  // the narrow to messages the viewer received, even within a channel whose history they may read.
  if (terms.some((term) => term.operator === 'is' && term.operand !== 'resolved')) channelWide = false;
  const where = conditions.length ? Prisma.join(conditions, ' AND ') : Prisma.sql`TRUE`;
  return { where, channelWide, search, isSearch: search !== null, inReadableChannel };
}

interface CompiledTerm {
  cond: Prisma.Sql;
  /** Un-negated, the term reaches channel history the viewer never received (a readable channel). */
  widens?: boolean;
  /** The full-text query, for highlighting. */
  search?: string;
  /** Only matches messages of one channel whose whole history the viewer may read. */
  readableChannel?: boolean;
}

/** One narrow term as SQL over `m` (Message) and `um` (the viewer's UserMessage); null filters nothing. */
async function compileTerm(db: Db, realm: Realm, viewer: User, term: NarrowTerm, cache: ChannelLookup | undefined): Promise<CompiledTerm | null> {
  switch (term.operator) {
    case 'channel': {
      const { channel, subscribed } = await narrowChannel(db, realm, viewer, term.operand, cache);
      // A channel whose history the viewer may not read (a private one they are not in, or left) is
      // no error, as in Zulip: the narrow keeps to the messages they received there.
      const readable = await historyIsPublicTo(db, channel, viewer, subscribed);
      return { cond: Prisma.sql`m."channelId" = ${channel.id}`, widens: readable, readableChannel: readable };
    }
    case 'channels': {
      if (term.operand !== 'public' && term.operand !== 'web-public') throw new BadNarrowError(`invalid operand '${String(term.operand)}' for 'channels'`);
      const cond = term.operand === 'public'
        ? Prisma.sql`m."channelId" IN (SELECT id FROM "Channel" WHERE "realmId" = ${realm.id} AND NOT "inviteOnly")`
        : Prisma.sql`m."channelId" IN (SELECT id FROM "Channel" WHERE "realmId" = ${realm.id} AND "isWebPublic")`;
      // As Zulip's ok_to_include_history: only `channels:public`, and only for a user who may read
      // public channels (not a guest), reaches messages the viewer never received.
      return { cond, widens: term.operand === 'public' && !isGuest(viewer) };
    }
    case 'topic': {
      if (typeof term.operand !== 'string') throw new BadNarrowError("invalid operand for 'topic'");
      const topic = topicFromClient(term.operand, realm.emptyTopicDisplayName);
      return { cond: Prisma.sql`m."channelId" IS NOT NULL AND lower(m.topic) = lower(${topic})` };
    }
    case 'dm': {
      const ids = await dmParticipants(db, realm, viewer, term);
      const conversation = await db.directConversation.findUnique({ where: { realmId_participantKey: { realmId: realm.id, participantKey: ids.join(',') } }, select: { id: true } });
      return { cond: Prisma.sql`m."directConversationId" = ${conversation?.id ?? -1}` };
    }
    case 'dm-including': {
      const userId = await resolveUser(db, realm, viewer, asUserRef(term), term.operator);
      return { cond: Prisma.sql`m."directConversationId" IN (SELECT "conversationId" FROM "DirectConversationMember" WHERE "userId" = ${userId})` };
    }
    case 'sender': {
      const userId = await resolveUser(db, realm, viewer, asUserRef(term), term.operator);
      return { cond: Prisma.sql`m."senderId" = ${userId}` };
    }
    case 'is':
      if (typeof term.operand !== 'string' || !IS_OPERANDS.has(term.operand)) throw new BadNarrowError(`unknown 'is' operand ${String(term.operand)}`);
      return { cond: isCondition(term.operand, viewer) };
    case 'has':
      if (typeof term.operand !== 'string' || !HAS_OPERANDS.has(term.operand)) throw new BadNarrowError(`unknown 'has' operand ${String(term.operand)}`);
      return {
        cond: term.operand === 'link' ? Prisma.sql`m."hasLink"`
          : term.operand === 'image' ? Prisma.sql`m."hasImage"`
          : term.operand === 'attachment' ? Prisma.sql`m."hasAttachment"`
          : Prisma.sql`EXISTS (SELECT 1 FROM "Reaction" r WHERE r."messageId" = m.id)`,
      };
    case 'id': {
      const id = Number(term.operand);
      if (!isDbId(id)) throw new BadNarrowError("invalid operand for 'id'");
      // Zulip's ok_to_include_history ignores `id`: alone, it finds only a message the viewer
      // received; with a channel term (a message link), that channel's history.
      return { cond: Prisma.sql`m.id = ${id}` };
    }
    case 'near':
      // `near` only chooses the anchor, which the client sends; it filters nothing.
      return null;
    case 'search':
      if (typeof term.operand !== 'string') throw new BadNarrowError("invalid operand for 'search'");
      return { cond: Prisma.sql`m."searchVector" @@ websearch_to_tsquery('english', ${term.operand})`, search: term.operand };
    default:
      throw new BadNarrowError(`unknown operator ${term.operator}`);
  }
}

/**
 * The channel of the organization a `channel` term names, by ID or name, and whether the viewer is
 * subscribed: through the channel cache when the caller has one (resolvers/row-cache.ts), else one
 * statement. As Zulip's get_stream_by_narrow_operand_access_unchecked, whether the viewer may read
 * it is the caller's business: the narrow never reaches messages they may not read.
 */
async function narrowChannel(db: Db, realm: Realm, viewer: User, operand: unknown, cache: ChannelLookup | undefined): Promise<{ channel: Channel; subscribed: boolean }> {
  if (typeof operand !== 'number' && typeof operand !== 'string') throw new BadNarrowError("invalid operand for 'channel'");
  const numeric = typeof operand === 'number' || /^\d+$/.test(operand);
  const found = numeric && !isDbId(Number(operand)) ? null
    : await cachedChannelWithSubscribers({ ...cache, db }, realm.id, numeric ? { id: Number(operand) } : { name: operand as string });
  if (!found) throw new BadNarrowError(`unknown channel ${String(operand)}`);
  return { channel: found.channel, subscribed: found.subscriberIds.includes(viewer.id) };
}

const CONVERSATION_OPERATORS = new Set(['channel', 'topic', 'dm']);

/**
 * Zulip's update_narrow_terms_containing_with_operator: `with` stands for the conversation its
 * message is in now (so a link survives the message's moves), in place of the narrow's channel,
 * topic and dm terms. The channel term it becomes reaches that channel's history as any other. A
 * message the viewer may not read leaves the rest of the narrow if that names a conversation
 * itself, and is refused otherwise.
 */
async function resolveWith(db: Db, viewer: User, terms: NarrowTerm[]): Promise<NarrowTerm[]> {
  const operatorOf = (term: NarrowTerm) => OPERATOR_ALIASES[term.operator] ?? term.operator;
  const [withTerm, ...more] = terms.filter((term) => operatorOf(term) === 'with');
  if (!withTerm) return terms;
  if (more.length) throw new NarrowCombinationError("Duplicate 'with' operators.");
  const rest = terms.filter((term) => term !== withTerm);
  const { operand } = withTerm;
  const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\s*[-+]?\d+\s*$/.test(operand) ? Number(operand) : NaN;
  if (!Number.isSafeInteger(id)) throw new BadNarrowError("Invalid 'with' operator");
  const message = isDbId(id) ? await accessMessage(db, viewer, id).then(({ message }) => message, (error: unknown) => {
    if (error instanceof InvalidMessageError) return null;
    throw error;
  }) : null;
  if (!message) {
    const operators = new Set(rest.map(operatorOf));
    if (operators.has('dm') || (operators.has('channel') && operators.has('topic'))) return rest;
    throw new BadNarrowError("Invalid 'with' operator");
  }
  const others = rest.filter((term) => !CONVERSATION_OPERATORS.has(operatorOf(term)));
  if (message.channelId != null) {
    return [{ operator: 'channel', operand: message.channelId }, { operator: 'topic', operand: message.topic }, ...others];
  }
  const members = await db.directConversationMember.findMany({ where: { conversationId: message.directConversationId! }, select: { userId: true } });
  return [{ operator: 'dm', operand: members.map((member) => member.userId) }, ...others];
}

function isCondition(operand: string, viewer: User): Prisma.Sql {
  switch (operand) {
    case 'dm':
    case 'private':
      return Prisma.sql`m."directConversationId" IS NOT NULL`;
    case 'channel':
    case 'stream':
      return Prisma.sql`m."channelId" IS NOT NULL`;
    // Each flag is its partial index's predicate written out as a clause of its own: the planner
    // proves an index's predicate only from such clauses (not through COALESCE). The test for the
    // row keeps a negated term null-safe, although an is: term already limits the narrow to the
    // messages the viewer received (compileNarrow).
    case 'starred':
      return Prisma.sql`(um."userId" IS NOT NULL AND um.starred)`;
    case 'mentioned':
      return Prisma.sql`(um."userId" IS NOT NULL AND (um.mentioned OR um."streamWildcardMentioned" OR um."topicWildcardMentioned"))`;
    case 'unread':
      return Prisma.sql`(um."userId" IS NOT NULL AND NOT um.read)`;
    case 'alerted':
      return Prisma.sql`(um."userId" IS NOT NULL AND um."hasAlertWord")`;
    case 'resolved':
      return Prisma.sql`m."channelId" IS NOT NULL AND m.topic LIKE ${RESOLVED_TOPIC_PREFIX + '%'}`;
    case 'followed':
      return Prisma.sql`EXISTS (SELECT 1 FROM "UserTopic" ut WHERE ut."userId" = ${viewer.id} AND ut."channelId" = m."channelId" AND lower(ut."topicName") = lower(m.topic) AND ut."visibilityPolicy" = ${TOPIC_POLICY.FOLLOWED})`;
    case 'muted':
      return Prisma.sql`(EXISTS (SELECT 1 FROM "UserTopic" ut WHERE ut."userId" = ${viewer.id} AND ut."channelId" = m."channelId" AND lower(ut."topicName") = lower(m.topic) AND ut."visibilityPolicy" = ${TOPIC_POLICY.MUTED})
        OR EXISTS (SELECT 1 FROM "Subscription" s WHERE s."userId" = ${viewer.id} AND s."channelId" = m."channelId" AND s."isMuted"))`;
    default:
      throw new BadNarrowError(`unknown 'is' operand ${operand}`);
  }
}

/**
 * `FROM … WHERE …` over the messages the viewer may read that match the narrow: their own
 * (a UserMessage row), plus, for channel-wide narrows, channels whose history they may read.
 * GET /messages and the narrow-based flag update select from the same window.
 */
export function readableMessagesMatching(realm: Realm, viewer: User, narrow: CompiledNarrow): Prisma.Sql {
  const access = !narrow.channelWide ? Prisma.sql`um."userId" IS NOT NULL`
    : narrow.inReadableChannel ? Prisma.sql`TRUE`
    : Prisma.sql`(um."userId" IS NOT NULL OR m."channelId" IN (${readableHistoryChannelIdsSql(viewer)}))`;
  return Prisma.sql`FROM "Message" m
    LEFT JOIN "UserMessage" um ON um."messageId" = m.id AND um."userId" = ${viewer.id}
    WHERE m."realmId" = ${realm.id} AND ${access} AND ${narrow.where}`;
}
