// Message reminders: a scheduled direct message from the notification bot to the user, quoting a
// message they can read. Zulip's zerver/actions/reminders.py and zerver/lib/reminders.py.
import type { Message, ScheduledMessage, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { accessMessage } from '../messages/access.ts';
import { normalizeContent, resolveRecipient } from '../messages/send.ts';
import { renderForRealm } from '../messages/render.ts';
import { MAX_MESSAGE_LENGTH } from '../limits.ts';
import { realmUrl } from '../realm/urls.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';
import { futureDeliveryTime, undeliveredRows } from './schedule.ts';
import { formatList, messageLinkSyntax, messageUrl, silentMention, unusedFence } from './links.ts';
import { REMIND, reminderRecord } from './wire.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

/** Zulip's MAX_REMINDER_NOTE_LENGTH. */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

function normalizeNote(note: string): string {
  const body = note.replace(/\s+$/, '').replace(/^\n+/, '');
  if (codePointLength(body) > MAX_REMINDER_NOTE_LENGTH) {
    throw new BadRequestError(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/** The notification bot's text: who said what where, the note, and the message quoted. */
async function reminderContent(ctx: Context, message: Message, user: User, note: string | null): Promise<string> {
  const cleanNote = note ? normalizeNote(note) : '';
  const sender = await ctx.db.user.findUniqueOrThrow({ where: { id: message.senderId } });
  const base = realmUrl(ctx.realm, ctx.config);
  let content: string;
  let where: string;
  if (message.channelId != null) {
    const channel = await ctx.db.channel.findUniqueOrThrow({ where: { id: message.channelId } });
    const url = messageUrl(base, message, channel.name, []);
    content = cleanNote ? `You requested a reminder for the following message. Note:\n > ${cleanNote}` : 'You requested a reminder for the following message.';
    where = `${silentMention(sender)} [said](${url}) in ${messageLinkSyntax(channel.id, channel.name, message.topic, message.id, ctx.realm.emptyTopicDisplayName)}:`;
  } else {
    const members = await ctx.db.directConversationMember.findMany({
      where: { conversationId: message.directConversationId! },
      include: { user: { select: { id: true, fullName: true } } },
      orderBy: { userId: 'asc' },
    });
    const url = messageUrl(base, message, null, members.map((m) => m.userId));
    const others = members.map((m) => m.user).filter((u) => u.id !== sender.id);
    content = cleanNote ? `You requested a reminder for the following direct message. Note:\n > ${cleanNote}` : 'You requested a reminder for the following direct message.';
    where = `${silentMention(sender)} [said](${url}) to ${formatList((others.length ? others : [sender]).map(silentMention))}:`;
  }
  content += `\n\n${where}\n`;
  const fence = unusedFence(message.content);
  const room = MAX_MESSAGE_LENGTH - codePointLength(content + `${fence}quote\n\n${fence}`);
  const quoted = codePointLength(message.content) > room
    ? truncateCodePoints(message.content, room - 20) + '\n[message truncated]'
    : message.content;
  return `${content}${fence}quote\n${quoted}\n${fence}`;
}

export interface ReminderInput {
  messageId: number;
  scheduledDeliveryTimestamp: number;
  note?: string | null;
}

export async function createReminder(ctx: Context, user: User, input: ReminderInput): Promise<number> {
  const deliverAt = futureDeliveryTime(input.scheduledDeliveryTimestamp);
  const { message } = await accessMessage(ctx.db, user, input.messageId);
  const note = input.note ? normalizeNote(input.note) : null;
  // The reminder is a direct message to oneself: check that one could send it (Zulip's check_message).
  await resolveRecipient(ctx, user, { type: 'direct', to: [user.id] });
  const content = normalizeContent(await reminderContent(ctx, message, user, note));
  const rendered = await renderForRealm(ctx.db, ctx.realm.id, content);
  const row = await ctx.db.scheduledMessage.create({
    data: {
      realmId: ctx.realm.id, senderId: user.id, directRecipientIds: [user.id], content, renderedContent: rendered.html,
      scheduledTimestamp: deliverAt, deliveryType: REMIND, reminderTargetMessageId: message.id, reminderNote: note || null,
      sendingClient: ctx.clientName,
    },
  });
  ctx.events.publish(ctx.realm.id, [user.id], { type: 'reminders', op: 'add', reminders: [reminderRecord(row)] });
  return row.id;
}

export async function deleteReminder(ctx: Context, user: User, id: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "ScheduledMessage" WHERE id = ${id}::int FOR UPDATE`;
    const row = await tx.scheduledMessage.findUnique({ where: { id } });
    if (!row || row.senderId !== user.id || row.deliveryType !== REMIND) throw new NotFoundError('Reminder does not exist');
    await tx.scheduledMessage.delete({ where: { id } });
  });
  ctx.events.publish(ctx.realm.id, [user.id], { type: 'reminders', op: 'remove', reminder_id: id });
}

export function listReminders(ctx: Pick<Context, 'db'>, user: Pick<User, 'id'>): Promise<ScheduledMessage[]> {
  return undeliveredRows(ctx, user, REMIND);
}

/** For the worker: a reminder's content at delivery time, or the stored one when access is gone. */
export async function reminderContentAtDelivery(ctx: Context, row: ScheduledMessage, user: User): Promise<string> {
  try {
    const { message } = await accessMessage(ctx.db, user, row.reminderTargetMessageId ?? 0);
    return await reminderContent(ctx, message, user, row.reminderNote);
  } catch (error) {
    if (error instanceof BadRequestError) return row.content;
    throw error;
  }
}

// Register: the viewer's undelivered message reminders, soonest first.
initialStatePart(['reminders'], async (s) => ({ reminders: s.user ? (await listReminders(s, s.user)).map(reminderRecord) : [] }));
