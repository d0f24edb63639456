// POST /messages/flags: add or remove a per-user flag on messages.
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { EDITABLE_FLAGS, FLAG_COLUMNS, type FlagName } from './flags.ts';
import { channelsWithReadableHistory } from './narrow.ts';
import { InvalidMessageError } from './access.ts';

export async function updateMessageFlags(ctx: Context, user: User, messageIds: number[], op: string, flag: string): Promise<number[]> {
  if (op !== 'add' && op !== 'remove') throw new BadRequestError(`Invalid message flag operation: '${op}'`);
  if (!(flag in FLAG_COLUMNS)) throw new BadRequestError(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.has(flag as FlagName)) throw new BadRequestError(`Flag not editable: '${flag}'`);
  const column = FLAG_COLUMNS[flag as FlagName];
  const value = op === 'add';
  const ids = [...new Set(messageIds)];
  // Computed outside the transaction: PGlite has one connection, so nothing may wait on it inside.
  const readable = await channelsWithReadableHistory(ctx.db, user, { webPublic: false });
  const changed = await ctx.db.$transaction(async (tx) => {
    const rows = await tx.userMessage.findMany({ where: { userId: user.id, messageId: { in: ids } }, select: { messageId: true, read: true, starred: true, collapsed: true } });
    const have = new Set(rows.map((r) => r.messageId));
    const toChange = rows.filter((r) => r[column as 'read' | 'starred' | 'collapsed'] !== value).map((r) => r.messageId);
    if (toChange.length) await tx.userMessage.updateMany({ where: { userId: user.id, messageId: { in: toChange } }, data: { [column]: value } });
    const missing = ids.filter((id) => !have.has(id));
    if (missing.length) {
      // Messages the user never received count only when they may read them (hasMessageAccess).
      const accessible = await tx.message.findMany({ where: { id: { in: missing }, realmId: ctx.realm.id, channelId: { in: readable } }, select: { id: true } });
      if (accessible.length !== missing.length) throw new InvalidMessageError();
      // Starring such a message gives the user a historical row, as in Zulip.
      if (flag === 'starred' && value) {
        if (accessible.length) {
          await tx.userMessage.createMany({ data: accessible.map((m) => ({ userId: user.id, messageId: m.id, read: true, historical: true, starred: true })) });
          toChange.push(...accessible.map((m) => m.id));
        }
      }
    }
    return toChange.sort((a, b) => a - b);
  });
  if (changed.length) {
    ctx.events.publish(ctx.realm.id, [user.id], { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false });
  }
  return ids;
}
