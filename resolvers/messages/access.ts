// May this user read this message? Zulip's `has_message_access`: a direct message they received,
// or a channel message as `hasMessageAccess` (channels/access.ts) decides.
import type { Message, User, UserMessage } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { BadRequestError } from '../errors.ts';
import { hasMessageAccess } from '../channels/access.ts';
import { flagList } from './flags.ts';

export class InvalidMessageError extends BadRequestError {
  constructor() {
    super('Invalid message(s)');
  }
}

/** `modifying`: Zulip's is_modifying_message, for changes to the message (refused once archived). */
export async function accessMessage(
  db: Db, viewer: User, messageId: number, { modifying = false }: { modifying?: boolean } = {},
): Promise<{ message: Message; userMessage: UserMessage | null }> {
  const message = await db.message.findUnique({ where: { id: messageId } });
  if (!message || message.realmId !== viewer.realmId) throw new InvalidMessageError();
  const userMessage = await db.userMessage.findUnique({ where: { userId_messageId: { userId: viewer.id, messageId } } });
  if (message.channelId == null) {
    if (userMessage) return { message, userMessage };
  } else {
    const channel = await db.channel.findUnique({ where: { id: message.channelId } });
    if (channel && (await hasMessageAccess(db, viewer, channel, userMessage != null, { modifying }))) return { message, userMessage };
  }
  throw new InvalidMessageError();
}

/**
 * Users who should hear about changes to a message (Zulip's event_recipient_ids_for_action_on_messages):
 * everyone with a UserMessage row for it, and, in a channel whose history subscribers may read, its
 * active subscribers (who may have it on screen from the history without a row).
 */
export async function messageAudience(db: Db, messageId: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ userId: number }[]>`
    SELECT "userId" FROM "UserMessage" WHERE "messageId" = ${messageId}::int
    UNION
    SELECT s."userId" FROM "Message" m
      JOIN "Channel" c ON c.id = m."channelId" AND c."historyPublicToSubscribers"
      JOIN "Subscription" s ON s."channelId" = c.id AND s.active AND s."isUserActive"
    WHERE m.id = ${messageId}::int`;
  return rows.map((r) => r.userId);
}

/**
 * Each recipient's flags on a message, for `update_message` events: Zulip sends every user their
 * own, and clients replace their copy with them (zulip-flutter does), so an empty list would
 * drop a message's read and starred state.
 */
export async function messageFlagsByUser(db: Db, messageId: number): Promise<Record<number, string[]>> {
  const rows = await db.userMessage.findMany({ where: { messageId } });
  return Object.fromEntries(rows.map((row) => [row.userId, flagList(row)]));
}
