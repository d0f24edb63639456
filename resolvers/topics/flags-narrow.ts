// POST /messages/flags/narrow: add or remove a flag on a window of messages in a narrow (the
// replacement for mark_topic_as_read and friends). The window is chosen like GET /messages;
// clients page through large narrows with the returned first/last processed IDs.
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, InvalidArgumentError } from '../errors.ts';
import { MAX_MESSAGES_PER_FETCH } from '../limits.ts';
import { changeFlags, checkFlagChange } from '../messages/update-flags.ts';
import { compileNarrow, readableMessagesMatching, type NarrowTerm } from '../messages/narrow.ts';

export interface FlagsNarrowInput {
  anchor: string;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  op: string;
  flag: string;
}

export interface FlagsNarrowResult {
  processedCount: number;
  updatedCount: number;
  firstProcessedId: number | null;
  lastProcessedId: number | null;
  foundOldest: boolean;
  foundNewest: boolean;
}

const INT32_MAX = 2_147_483_647;

export async function updateFlagsForNarrow(ctx: Context, user: User, input: FlagsNarrowInput): Promise<FlagsNarrowResult> {
  const { db, realm } = ctx;
  const { column, value } = checkFlagChange(input.op, input.flag);
  if (input.numBefore < 0) throw new InvalidArgumentError('num_before', 'num_before must be non-negative');
  if (input.numAfter < 0) throw new InvalidArgumentError('num_after', 'num_after must be non-negative');
  if (input.numBefore + input.numAfter > MAX_MESSAGES_PER_FETCH) throw new BadRequestError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  if (input.numBefore > 0 && input.numAfter > 0 && !input.includeAnchor) throw new BadRequestError('The anchor can only be excluded at an end of the range');

  const narrow = await compileNarrow(db, realm, user, input.narrow);
  const from = readableMessagesMatching(realm, user, narrow);

  let anchor: number;
  const name = input.anchor.trim();
  if (name === 'newest') anchor = INT32_MAX;
  else if (name === 'oldest') anchor = 0;
  else if (name === 'first_unread') {
    const [row] = await db.$queryRaw<{ id: number | null }[]>(Prisma.sql`SELECT min(m.id) AS id ${from} AND um."userId" IS NOT NULL AND NOT um.read`);
    anchor = row?.id ?? INT32_MAX;
  } else if (/^\d+$/.test(name)) anchor = Math.min(Number(name), INT32_MAX);
  else throw new BadRequestError('Invalid anchor');

  const before = input.numBefore > 0 || input.includeAnchor
    ? (await db.$queryRaw<{ id: number }[]>(Prisma.sql`SELECT m.id ${from} AND m.id <= ${anchor} ORDER BY m.id DESC LIMIT ${input.numBefore + 1}`)).map((r) => r.id).reverse()
    : [];
  const after = input.numAfter > 0
    ? (await db.$queryRaw<{ id: number }[]>(Prisma.sql`SELECT m.id ${from} AND m.id > ${anchor} ORDER BY m.id ASC LIMIT ${input.numAfter}`)).map((r) => r.id)
    : [];
  const beforeIds = input.numBefore > 0 ? before.filter((id) => id < anchor).slice(-input.numBefore) : [];
  const anchorIds = input.includeAnchor ? before.filter((id) => id === anchor) : [];
  const afterIds = after;
  const ids = [...beforeIds, ...anchorIds, ...afterIds];
  const foundOldest = anchor === 0 || beforeIds.length < input.numBefore;
  const foundNewest = anchor >= INT32_MAX || afterIds.length < input.numAfter;

  // The window's messages go through POST /messages/flags's rules, as Zulip's
  // update_message_flags_for_narrow hands them to do_update_message_flags.
  const changed = await changeFlags(ctx, user, ids, input.flag, column, value);
  return {
    processedCount: ids.length,
    updatedCount: changed.length,
    firstProcessedId: ids[0] ?? null,
    lastProcessedId: ids.at(-1) ?? null,
    foundOldest,
    foundNewest,
  };
}
