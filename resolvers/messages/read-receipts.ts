// GET /messages/{message_id}/read_receipts (Zulip's read_receipts view): who has read a message,
// among those who share that. Never the sender, nor deactivated users, nor users whose
// send_read_receipts is off, nor users the viewer muted or who muted the viewer (whose instant
// reads would give the muting away); historical rows count (a reader who starred a public message).
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { effectiveSettings } from '../settings/catalog.ts';
import { accessMessage } from './access.ts';
import { listMutedUsers, usersMuting } from '../users/muted-users.ts';

export async function readReceipts(ctx: Context, viewer: User, messageId: number): Promise<number[]> {
  const { message } = await accessMessage(ctx.db, viewer, messageId);
  if (!ctx.realm.enableReadReceipts) throw new BadRequestError('Read receipts are disabled in this organization.');
  const readers = await ctx.db.$queryRaw<Pick<User, 'id' | 'settings'>[]>(Prisma.sql`
    SELECT u.id, u.settings FROM "UserMessage" um JOIN "User" u ON u.id = um."userId"
    WHERE um."messageId" = ${message.id} AND um.read AND um."userId" <> ${message.senderId}
      AND u."realmId" = ${ctx.realm.id} AND u."isActive"
    ORDER BY u.id`);
  const [muting, muted] = await Promise.all([usersMuting(ctx.db, ctx.realm.id, viewer.id), listMutedUsers(ctx.db, viewer)]);
  const hidden = new Set([...muting, ...muted.map((m) => m.id)]);
  return readers.filter((r) => !hidden.has(r.id) && effectiveSettings(r, ctx.realm).send_read_receipts).map((r) => r.id);
}
