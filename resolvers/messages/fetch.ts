// GET /messages: a window of messages around an anchor, or an explicit list of IDs, in a narrow.
// The window arithmetic follows Zulip's `limit_query_to_range` and `post_process_limited_query`.
import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { driverQuery, type Db } from '../../prisma/database.ts';
import { BadRequestError, IncompatibleParametersError, MissingArgumentError, InvalidArgumentError } from '../errors.ts';
import { MAX_MESSAGES_PER_FETCH } from '../limits.ts';
import { compileNarrow, readableMessagesMatching, type NarrowTerm } from './narrow.ts';
import { presentMessages, type MessageView } from './present.ts';

/** Larger than any message ID: Zulip's "newest" anchor. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export interface FetchInput {
  anchor?: string | null;
  anchorDate?: string | null;
  includeAnchor?: boolean | null;
  numBefore?: number | null;
  numAfter?: number | null;
  narrow: NarrowTerm[];
  messageIds?: number[] | null;
  useFirstUnreadAnchor?: boolean | null;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export interface FetchResult {
  anchor: number | null;
  foundAnchor: boolean;
  foundNewest: boolean;
  foundOldest: boolean;
  historyLimited: boolean;
  messages: MessageView[];
}

function parseAnchorDate(value: string): Date {
  // Date-only means 00:00 UTC; a time without a zone means UTC (spec, feature level 445).
  const text = value.trim();
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text.replace(' ', 'T')}Z`
    : text;
  const date = new Date(iso);
  // Year 0 parses in JavaScript but no database (nor Python's datetime) takes it.
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1) throw new InvalidArgumentError('anchor_date', 'Invalid anchor_date');
  // JavaScript rolls days past the month's end over (2024-02-30 is March 1st); ISO 8601 does not.
  if (iso.endsWith('Z') && date.toISOString().slice(0, 10) !== iso.slice(0, 10)) throw new InvalidArgumentError('anchor_date', 'Invalid anchor_date');
  return date;
}

export async function fetchMessages(ctx: Context, viewer: User, input: FetchInput): Promise<FetchResult> {
  const { db, realm } = ctx;
  checkWindow(input);
  // Explicit IDs do not widen the search (Zulip's ok_to_include_history reads only the narrow): a
  // message the viewer never received comes back only if the narrow reaches its channel's history.
  const narrow = await compileNarrow(db, realm, viewer, input.narrow, { cache: ctx });
  const from = readableMessagesMatching(realm, viewer, narrow);
  // Two statements: the IDs in the window (planned for the narrow's values, cheap to plan), then
  // the records of those IDs (one prepared statement whatever the narrow: see presentMessages).
  const present: Present = async (idQuery) => {
    const ids = (await driverQuery<{ id: number }>(db, idQuery)).map((row) => row.id);
    return presentMessages(db, realm, viewer, ids, {
      applyMarkdown: input.applyMarkdown, clientGravatar: input.clientGravatar, gravatar: ctx.config.gravatarEnabled,
      allowEmptyTopicName: input.allowEmptyTopicName, search: narrow.search,
    });
  };

  if (input.messageIds != null) {
    const wanted = [...new Set(input.messageIds)];
    const messages = wanted.length ? await present(Prisma.sql`SELECT m.id ${from} AND m.id = ANY(${wanted}::int[])`) : [];
    return { anchor: null, foundAnchor: false, foundNewest: false, foundOldest: false, historyLimited: false, messages };
  }
  const anchor = await resolveAnchor(db, from, input);
  const window = await windowAround(present, from, anchor, input.numBefore!, input.numAfter!, input.includeAnchor ?? true);
  // Parley has no plan that limits history.
  return { anchor, ...window, historyLimited: false };
}

/** The records, in ID order, of the messages an ID query (`SELECT m.id …`) selects. */
type Present = (idQuery: Prisma.Sql) => Promise<MessageView[]>;

/** Either explicit message IDs or a window (num_before, num_after) within Zulip's size limit. */
function checkWindow(input: FetchInput): void {
  if (input.messageIds != null) {
    const conflicting = [
      input.anchor != null && 'anchor', input.includeAnchor != null && 'include_anchor',
      input.useFirstUnreadAnchor != null && 'use_first_unread_anchor',
      input.numBefore != null && 'num_before', input.numAfter != null && 'num_after',
    ].filter(Boolean) as string[];
    if (conflicting.length) throw new IncompatibleParametersError([...conflicting, 'message_ids']);
    return;
  }
  if (input.numBefore == null) throw new MissingArgumentError('num_before');
  if (input.numAfter == null) throw new MissingArgumentError('num_after');
  if (input.numBefore < 0) throw new InvalidArgumentError('num_before', 'num_before must be non-negative');
  if (input.numAfter < 0) throw new InvalidArgumentError('num_after', 'num_after must be non-negative');
  if (input.numBefore + input.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw new BadRequestError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
}

/** The anchor as a message ID (0 for the oldest, LARGER_THAN_MAX_MESSAGE_ID for the newest). */
async function resolveAnchor(db: Db, from: Prisma.Sql, input: FetchInput): Promise<number> {
  // Zulip's parse_anchor_value: the deprecated flag wins over any anchor sent with it (zulip-terminal
  // sends `anchor=0&use_first_unread_anchor=true`).
  const anchorName = input.useFirstUnreadAnchor ? 'first_unread' : input.anchor ?? null;
  if (anchorName == null) throw new MissingArgumentError('anchor');
  if (anchorName === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchorName === 'oldest') return 0;
  if (anchorName === 'first_unread') {
    const [row] = await driverQuery<{ id: number | null }>(db, Prisma.sql`SELECT min(m.id) AS id ${from} AND um."userId" IS NOT NULL AND NOT um.read`);
    return row?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
  }
  if (anchorName === 'date') {
    if (!input.anchorDate) throw new MissingArgumentError('anchor_date');
    const date = parseAnchorDate(input.anchorDate);
    const [row] = await driverQuery<{ id: number | null }>(db, Prisma.sql`SELECT min(m.id) AS id ${from} AND m."dateSent" >= ${date}`);
    return row?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
  }
  if (/^-?\d+$/.test(anchorName.trim())) {
    // As Zulip: a negative anchor means the oldest, anything past the last ID the newest.
    const value = BigInt(anchorName.trim());
    return value < 0n ? 0 : value > BigInt(LARGER_THAN_MAX_MESSAGE_ID) ? LARGER_THAN_MAX_MESSAGE_ID : Number(value);
  }
  throw new BadRequestError('Invalid anchor');
}

/** The messages around the anchor, and whether the window reached the anchor, the oldest and the newest. */
async function windowAround(present: Present, from: Prisma.Sql, anchor: number, numBefore: number, numAfter: number, includeAnchor: boolean) {
  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const needBefore = !anchoredToLeft && numBefore > 0;
  const needAfter = !anchoredToRight && numAfter > 0;
  const inc = includeAnchor ? 1 : 0;
  // Message IDs are 32-bit; the "newest" sentinel and huge client anchors are clamped for SQL.
  const bigint = (n: number) => Math.max(-1, Math.min(n, 2_147_483_647));

  // Both sides' IDs are one query, their records one more, in ID order; a row or two past what is
  // kept may be presented.
  let rows: MessageView[] = [];
  const before = (beforeAnchor: number, limit: number) =>
    Prisma.sql`SELECT m.id ${from} AND m.id <= ${bigint(beforeAnchor)} ORDER BY m.id DESC LIMIT ${limit}`;
  const after = (afterAnchor: number, limit: number) =>
    Prisma.sql`SELECT m.id ${from} AND m.id >= ${bigint(afterAnchor)} ORDER BY m.id ASC LIMIT ${limit}`;
  if (needBefore && needAfter) {
    rows = await present(Prisma.sql`(${before(anchor - 1, numBefore)}) UNION ALL (${after(anchor, numAfter + 1)})`);
  } else if (needBefore) {
    rows = await present(before(anchor - (includeAnchor ? 0 : 1), numBefore + (anchoredToRight ? 0 : inc)));
  } else if (needAfter) {
    rows = await present(after(anchor + (includeAnchor ? 0 : 1), numAfter + inc));
  } else if (!anchoredToLeft && !anchoredToRight) {
    rows = await present(Prisma.sql`SELECT m.id ${from} AND m.id = ${bigint(anchor)}`);
  }

  const beforeRows = numBefore ? (anchoredToRight ? rows : rows.filter((m) => m.id < anchor)).slice(-numBefore) : [];
  const anchorRows = anchoredToRight ? [] : rows.filter((m) => m.id === anchor);
  const afterRows = anchoredToRight ? [] : rows.filter((m) => m.id > anchor).slice(0, numAfter);
  return {
    messages: [...beforeRows, ...(includeAnchor ? anchorRows : []), ...afterRows],
    // Zulip: false when the anchor is missing, does not match, or was excluded by include_anchor.
    foundAnchor: includeAnchor && anchorRows.length === 1,
    foundOldest: anchoredToLeft || beforeRows.length < numBefore,
    foundNewest: anchoredToRight || afterRows.length < numAfter,
  };
}
