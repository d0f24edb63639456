// The delivery worker: every server process runs one. Each due row is claimed with
// `SELECT … FOR UPDATE SKIP LOCKED` in a transaction that also sends the message and marks the row
// delivered, so with any number of processes each row is sent exactly once: a second process skips
// the locked row, and once the first commits the row is no longer due. Events go out after commit.
import type { Prisma, ScheduledMessage, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { Services } from '../../server/context.ts';
import { inTransaction, type TxContext } from '../transaction.ts';
import { ParleyError, RealmDeactivatedError, UserDeactivatedError } from '../errors.ts';
import { sendMessage } from '../messages/send.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { REMIND, scheduledMessageRecord } from './wire.ts';
import { reminderContentAtDelivery } from './reminders.ts';
import { globalTime } from './links.ts';
import { startPeriodicJob } from '../periodic.ts';

/** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: later than this, a message is not sent at all. */
const LATE_CUTOFF_MS = 10 * 60_000;
const INTERNAL_ERROR = 'Internal server error';
/** Unexpected errors (a lost race on a unique key, a dropped connection) are retried this often. */
const MAX_ATTEMPTS = 3;

export interface ScheduledDelivery {
  /** Sends every message due now; resolves with how many rows were handled (sent or failed). */
  deliverDue(): Promise<number>;
  stop(): Promise<void>;
}

export function startScheduledDelivery(services: Services, pollMs: number, log: (line: string) => void): ScheduledDelivery {
  const attempts = new Map<number, number>();
  // One run at a time in this process; other processes are kept apart by the row locks.
  const job = startPeriodicJob('scheduled delivery', pollMs, log, async (stopped) => {
    let handled = 0;
    while (!stopped() && (await deliverOne(services, log, attempts))) handled += 1;
    return handled;
  });
  return { deliverDue: job.runNow, stop: job.stop };
}

/** Claims and handles one due row; false when none is due (or all due rows are claimed elsewhere). */
async function deliverOne(services: Services, log: (line: string) => void, attempts: Map<number, number>): Promise<boolean> {
  let claimedId: number | null = null;
  try {
    await inTransaction(services, async (txServices) => {
      const { tx } = txServices;
      const now = new Date().toISOString();
      const [due] = await tx.$queryRaw<{ id: number }[]>`
        SELECT id FROM "ScheduledMessage"
        WHERE delivered = false AND failed = false AND "scheduledTimestamp" <= ${now}::timestamp(3)
        ORDER BY "scheduledTimestamp", id
        LIMIT 1
        FOR UPDATE SKIP LOCKED`;
      if (!due) return;
      claimedId = due.id;
      const row = await tx.scheduledMessage.findUniqueOrThrow({ where: { id: due.id } });
      const ctx = await workerContext(txServices, row);
      try {
        await deliverRow(ctx, tx, row);
      } catch (error) {
        if (!(error instanceof ParleyError)) throw error;
        await markFailed(ctx, tx, row, error);
      }
    }, { maxWait: 30_000, timeout: 120_000 });
  } catch (error) {
    // Something unexpected: nothing of the attempt was kept; the row is tried again, then marked failed.
    if (claimedId == null) throw error;
    const tried = (attempts.get(claimedId) ?? 0) + 1;
    log(`scheduled message ${claimedId}, attempt ${tried}: ${error instanceof Error ? error.stack : String(error)}`);
    if (tried < MAX_ATTEMPTS) {
      attempts.set(claimedId, tried);
      return true;
    }
    attempts.delete(claimedId);
    await markFailedAfterCrash(services, claimedId);
  }
  if (claimedId != null) attempts.delete(claimedId);
  // As after a request: the events are in their queues before the run reports completion.
  if (claimedId != null) await services.queues.settled?.();
  return claimedId != null;
}

/** The context a request of the sender would have, inside the worker's transaction. */
async function workerContext(services: TxContext<Services>, row: ScheduledMessage): Promise<TxContext<Context> & { user: User }> {
  const realm = await services.tx.realm.findUniqueOrThrow({ where: { id: row.realmId } });
  const user = await services.tx.user.findUniqueOrThrow({ where: { id: row.senderId } });
  return { ...services, realm, user, clientName: row.sendingClient };
}

async function deliverRow(ctx: Context & { user: User }, tx: Prisma.TransactionClient, row: ScheduledMessage): Promise<void> {
  // The account and organization may have changed since the message was scheduled.
  if (ctx.realm.deactivated) throw new RealmDeactivatedError();
  if (!ctx.user.isActive) throw new UserDeactivatedError();
  let messageId: number;
  if (row.deliveryType === REMIND) {
    // Reminders come late rather than never: they only reach their own author.
    const content = await reminderContentAtDelivery(ctx, row, ctx.user);
    messageId = (await sendAsNotificationBot(ctx, { userIds: [ctx.user.id] }, content)).id;
  } else {
    if (Date.now() > row.scheduledTimestamp.getTime() + LATE_CUTOFF_MS) {
      throw new ParleyError('Message could not be sent at the scheduled time.');
    }
    // Sent as if now: the sender's permissions and the recipients are checked again.
    const toSelfOnly = row.channelId == null && row.directRecipientIds.length === 1 && row.directRecipientIds[0] === row.senderId;
    const input = row.channelId != null
      ? { type: 'channel', to: row.channelId, topic: row.topic ?? '' }
      : { type: 'direct', to: row.directRecipientIds };
    messageId = (await sendMessage(ctx, ctx.user, { ...input, content: row.content, readBySender: !toSelfOnly })).id;
  }
  await tx.scheduledMessage.update({ where: { id: row.id }, data: { delivered: true, deliveredMessageId: messageId } });
  ctx.events.publish(ctx.realm.id, [row.senderId], row.deliveryType === REMIND
    ? { type: 'reminders', op: 'remove', reminder_id: row.id }
    : { type: 'scheduled_messages', op: 'remove', scheduled_message_id: row.id });
}

async function markFailed(ctx: Context & { user: User }, tx: Prisma.TransactionClient, row: ScheduledMessage, error: ParleyError): Promise<void> {
  const failed = await tx.scheduledMessage.update({ where: { id: row.id }, data: { failed: true, failureMessage: error.message } });
  // Zulip tells the sender, unless nobody could read it (deactivated) or it is a reminder.
  // Reminders have no update event (Zulip's own notification system covers them).
  if (row.deliveryType === REMIND) return;
  if (error instanceof UserDeactivatedError || error instanceof RealmDeactivatedError) return;
  ctx.events.publish(ctx.realm.id, [row.senderId], { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageRecord(failed) });
  await notifyFailure(ctx, failed);
}

async function notifyFailure(ctx: Context & { user: User }, row: ScheduledMessage): Promise<void> {
  const content = `The message you scheduled for ${globalTime(row.scheduledTimestamp)} was not sent because of the following error:\n\n`
    + `> ${row.failureMessage}\n\n[View scheduled messages](#scheduled)`;
  await sendAsNotificationBot(ctx, { userIds: [row.senderId] }, content);
}

async function markFailedAfterCrash(services: Services, id: number): Promise<void> {
  await inTransaction(services, async (txServices) => {
    const { tx } = txServices;
    const [locked] = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM "ScheduledMessage" WHERE id = ${id}::int AND delivered = false AND failed = false FOR UPDATE SKIP LOCKED`;
    if (!locked) return;
    const row = await tx.scheduledMessage.update({ where: { id }, data: { failed: true, failureMessage: INTERNAL_ERROR } });
    const ctx = await workerContext(txServices, row);
    if (row.deliveryType === REMIND) return;
    ctx.events.publish(row.realmId, [row.senderId], { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageRecord(row) });
    if (ctx.user.isActive && !ctx.realm.deactivated) await notifyFailure(ctx, row);
  }, { maxWait: 30_000, timeout: 120_000 }).catch(() => {});
}
