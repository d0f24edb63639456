// POST /messages/flags: add or remove a per-user flag on messages.
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { EDITABLE_FLAGS, FLAG_COLUMNS, type FlagName } from './flags.ts';
import { channelsWithReadableHistory } from './narrow.ts';
import { InvalidMessageError } from './access.ts';

export async function updateMessageFlags(ctx: Context, user: User, messageIds: number[], op: string, flag: string): Promise<number[]> {
  const { column, value } = checkFlagChange(op, flag);
  await changeFlags(ctx, user, messageIds, flag, column, value);
  return [...new Set(messageIds)];
}

/** The flag operation's column and value, or Zulip's errors for the flag and operation, in its order. */
export function checkFlagChange(op: string, flag: string): { column: 'read' | 'starred' | 'collapsed'; value: boolean } {
  if (!(flag in FLAG_COLUMNS)) throw new BadRequestError(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.has(flag as FlagName)) throw new BadRequestError(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw new BadRequestError(`Invalid message flag operation: '${op}'`);
  return { column: FLAG_COLUMNS[flag as FlagName] as 'read' | 'starred' | 'collapsed', value: op === 'add' };
}

/**
 * Zulip's do_update_message_flags, for POST /messages/flags and /messages/flags/narrow alike: sets
 * the flag on the given messages and answers those it changed. A message the user never received
 * reads as read and historical; an operation leaving that as it is (marking read, unstarring,
 * expanding) passes over such messages unchecked, while one changing it (starring, collapsing,
 * marking unread) needs access to every one of them (`readableHistoryChannelIdsSql` without
 * web-public: has_message_access for messages not received), refuses the whole request otherwise,
 * and gives the user historical rows. Marking unread skips channels the user is not subscribed to:
 * every unread channel message is in a subscribed channel.
 */
export async function changeFlags(ctx: Context, user: User, messageIds: number[], flag: string, column: 'read' | 'starred' | 'collapsed', value: boolean): Promise<number[]> {
  let ids = [...new Set(messageIds)];
  const touchesUnreceived = value !== (column === 'read');
  // Computed outside the transaction: PGlite has one connection, so nothing may wait on it inside.
  const readable = touchesUnreceived ? await channelsWithReadableHistory(ctx.db, user, { webPublic: false }) : [];
  if (column === 'read' && !value && ids.length) {
    const unsubscribed = await ctx.db.message.findMany({
      where: { id: { in: ids }, channelId: { not: null }, channel: { subscriptions: { none: { userId: user.id, active: true } } } },
      select: { id: true },
    });
    const skip = new Set(unsubscribed.map((m) => m.id));
    ids = ids.filter((id) => !skip.has(id));
  }
  const changed = await ctx.db.$transaction(async (tx) => {
    const rows = await tx.userMessage.findMany({ where: { userId: user.id, messageId: { in: ids } }, select: { messageId: true, read: true, starred: true, collapsed: true } });
    const have = new Set(rows.map((r) => r.messageId));
    const toChange = rows.filter((r) => r[column] !== value).map((r) => r.messageId);
    if (toChange.length) await tx.userMessage.updateMany({ where: { userId: user.id, messageId: { in: toChange } }, data: { [column]: value } });
    const missing = ids.filter((id) => !have.has(id));
    if (touchesUnreceived && missing.length) {
      const accessible = await tx.message.findMany({ where: { id: { in: missing }, realmId: ctx.realm.id, channelId: { in: readable } }, select: { id: true } });
      if (accessible.length !== missing.length) throw new InvalidMessageError();
      await tx.userMessage.createMany({ data: missing.map((messageId) => ({ userId: user.id, messageId, read: true, historical: true, [column]: value })) });
      toChange.push(...missing);
    }
    return toChange.sort((a, b) => a - b);
  });
  if (changed.length) {
    const op = value ? 'add' : 'remove';
    ctx.events.publish(ctx.realm.id, [user.id], { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false });
  }
  return changed;
}
