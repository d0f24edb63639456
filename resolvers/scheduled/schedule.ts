// Send-later messages: checked like a message sent now (recipient, permission, content, topic),
// stored, and delivered by the worker in delivery.ts. Zulip's zerver/actions/scheduled_messages.py.
import { Prisma, type ScheduledMessage, type User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { normalizeContent, resolveRecipient, type Recipient } from '../messages/send.ts';
import { renderForRealm } from '../messages/render.ts';
import { checkTopicAllowed, normalizeTopic } from '../messages/topics.ts';
import { REMIND, SEND_LATER, scheduledMessageRecord } from './wire.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

export interface ScheduleInput {
  type: string;
  to: unknown;
  topic?: string | null;
  content: string;
  scheduledDeliveryTimestamp: number;
  readBySender?: boolean | null;
}

export interface EditScheduleInput {
  type?: string | null;
  to?: unknown;
  topic?: string | null;
  content?: string | null;
  scheduledDeliveryTimestamp?: number | null;
}

const TYPES = ['direct', 'channel', 'stream', 'private'];

/** `channel` / `direct` spelled as Zulip's records spell them. */
function recordType(type: string): 'stream' | 'private' {
  if (!TYPES.includes(type)) throw new BadRequestError('Invalid type');
  return type === 'channel' || type === 'stream' ? 'stream' : 'private';
}

/** The delivery time, which must lie in the future. */
export function futureDeliveryTime(timestamp: number): Date {
  const at = new Date(timestamp * 1000);
  if (!Number.isFinite(at.getTime()) || at.getTime() <= Date.now()) {
    throw new BadRequestError('Scheduled delivery time must be in the future.');
  }
  return at;
}

/** Channel targets are one channel ID; direct targets a list of user IDs (Zulip's recipient_parsing). */
function parseTarget(type: 'stream' | 'private', to: unknown): number | number[] {
  if (type === 'stream') {
    const id = Array.isArray(to) && to.length === 1 ? to[0] : to;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new BadRequestError('Invalid data type for channel ID');
    return id;
  }
  const ids = Array.isArray(to) ? to : [to];
  if (!ids.length || !ids.every((id) => typeof id === 'number' && Number.isSafeInteger(id))) {
    throw new BadRequestError('Invalid data type for recipients');
  }
  return ids as number[];
}

/** What a row stores for a recipient: the channel and topic, or the other participants. */
function recipientColumns(sender: User, recipient: Recipient) {
  if (recipient.kind === 'channel') return { channelId: recipient.channel.id, topic: recipient.topic, directRecipientIds: [] as number[] };
  const others = recipient.participants.map((p) => p.id).filter((id) => id !== sender.id);
  return { channelId: null, topic: null, directRecipientIds: others.length ? others : [sender.id] };
}

export async function scheduleMessage(ctx: Context, sender: User, input: ScheduleInput): Promise<number> {
  const type = recordType(input.type);
  const deliverAt = futureDeliveryTime(input.scheduledDeliveryTimestamp);
  const content = normalizeContent(input.content);
  const recipient = await resolveRecipient(ctx, sender, { type, to: parseTarget(type, input.to), topic: input.topic });
  const rendered = await renderForRealm(ctx.db, ctx.realm.id, content);
  const row = await ctx.db.scheduledMessage.create({
    data: {
      realmId: ctx.realm.id, senderId: sender.id, ...recipientColumns(sender, recipient),
      content, renderedContent: rendered.html, scheduledTimestamp: deliverAt, deliveryType: SEND_LATER,
      sendingClient: ctx.clientName,
    },
  });
  ctx.events.publish(ctx.realm.id, [sender.id], { type: 'scheduled_messages', op: 'add', scheduled_messages: [scheduledMessageRecord(row)] });
  return row.id;
}

/** The sender's own send-later row, locked for the rest of the transaction. */
async function lockOwn(tx: Prisma.TransactionClient, sender: User, id: number): Promise<ScheduledMessage> {
  await tx.$queryRaw`SELECT id FROM "ScheduledMessage" WHERE id = ${id}::int FOR UPDATE`;
  const row = await tx.scheduledMessage.findUnique({ where: { id } });
  if (!row || row.senderId !== sender.id || row.deliveryType !== SEND_LATER) throw new NotFoundError('Scheduled message does not exist');
  return row;
}

export async function editScheduledMessage(ctx: Context, sender: User, id: number, input: EditScheduleInput): Promise<void> {
  const { type: newType, to, topic, content, scheduledDeliveryTimestamp: timestamp } = input;
  if (newType == null && to == null && topic == null && content == null && timestamp == null) throw new BadRequestError('Nothing to change');
  let type: 'stream' | 'private' | null = null;
  if (newType) {
    if (to == null) throw new BadRequestError('Recipient required when updating type of scheduled message.');
    type = recordType(newType);
  }
  if (type === 'stream') {
    if (topic == null) throw new BadRequestError('Topic required when updating scheduled message type to stream.');
    // The new topic is required here, so the empty topic (however it is spelled) does not count.
    if (normalizeTopic(topic, ctx.realm, { noTopic: true }) === '') throw new BadRequestError('Topics are required in this organization.');
  }
  const deliverAt = timestamp != null ? futureDeliveryTime(timestamp) : null;

  const updated = await ctx.db.$transaction(async (tx) => {
    const row = await lockOwn(tx, sender, id);
    if (row.delivered) throw new BadRequestError('Scheduled message was already sent');
    if (row.failed && deliverAt == null) throw new BadRequestError('Scheduled delivery time must be in the future.');
    const txCtx: Context = { ...ctx, db: tx as unknown as Db };
    const existingType = row.channelId != null ? 'stream' : 'private';
    const data: Prisma.ScheduledMessageUpdateInput = { sendingClient: ctx.clientName, failed: false, failureMessage: null };

    if (type != null || to != null || content != null) {
      // Recipient or content changed: check the whole message again, as if sent now.
      const finalType = type ?? existingType;
      const target = to != null ? parseTarget(finalType, to) : (row.channelId ?? row.directRecipientIds);
      const finalTopic = topic ?? row.topic ?? '';
      const finalContent = normalizeContent(content ?? row.content);
      const recipient = await resolveRecipient(txCtx, sender, { type: finalType, to: target, topic: finalTopic });
      if (type != null || to != null) {
        const columns = recipientColumns(sender, recipient);
        Object.assign(data, {
          channel: columns.channelId != null ? { connect: { id: columns.channelId } } : { disconnect: true },
          topic: columns.topic, directRecipientIds: columns.directRecipientIds,
        });
      } else if (topic != null && recipient.kind === 'channel') {
        data.topic = recipient.topic;
      }
      if (content != null) {
        data.content = finalContent;
        data.renderedContent = (await renderForRealm(tx, ctx.realm.id, finalContent)).html;
      }
    } else if (topic != null && row.channelId != null) {
      // Only the topic of a channel message: a topic change needs only the channel's topic policy.
      const channel = await tx.channel.findUniqueOrThrow({ where: { id: row.channelId } });
      const normalized = normalizeTopic(topic, ctx.realm, { noTopic: true });
      checkTopicAllowed(normalized, channel, ctx.realm);
      data.topic = normalized;
    }
    if (deliverAt) data.scheduledTimestamp = deliverAt;
    return tx.scheduledMessage.update({ where: { id }, data });
  });
  ctx.events.publish(ctx.realm.id, [sender.id], { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageRecord(updated) });
}

export async function deleteScheduledMessage(ctx: Context, sender: User, id: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    await lockOwn(tx, sender, id);
    await tx.scheduledMessage.delete({ where: { id } });
  });
  ctx.events.publish(ctx.realm.id, [sender.id], { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
}

/** The sender's undelivered rows of one kind (send-later messages or reminders), soonest first (failed ones included). */
export function undeliveredRows(ctx: Pick<Context, 'db'>, sender: Pick<User, 'id'>, deliveryType: typeof SEND_LATER | typeof REMIND): Promise<ScheduledMessage[]> {
  return ctx.db.scheduledMessage.findMany({
    where: { senderId: sender.id, delivered: false, deliveryType },
    orderBy: [{ scheduledTimestamp: 'asc' }, { id: 'asc' }],
  });
}

export function listScheduledMessages(ctx: Pick<Context, 'db'>, sender: Pick<User, 'id'>): Promise<ScheduledMessage[]> {
  return undeliveredRows(ctx, sender, SEND_LATER);
}

// Register: the viewer's undelivered scheduled messages (not reminders), soonest first, with the
// empty topic named as the client asked (the record keeps it as stored).
initialStatePart(['scheduled_messages'], async (s) => ({
  scheduled_messages: s.user
    ? (await listScheduledMessages(s, s.user)).map((m) => (m.channelId != null ? { ...scheduledMessageRecord(m), topic: s.topicName(m.topic ?? '') } : scheduledMessageRecord(m)))
    : [],
}));
