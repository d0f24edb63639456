// One database transaction for a domain action, with its events published after commit (Zulip's
// `transaction.atomic` + `send_event_on_commit`): the action runs with a context whose `db` is the
// transaction and whose `events` hold every publication until the transaction commits. A rollback
// publishes nothing. Conflicts with concurrent transactions (serialization failures, deadlocks) are
// retried a bounded number of times, then answered with ConcurrentUpdateError rather than a 500.
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { Db } from '../prisma/database.ts';
import type { Delivery, EventBus } from './events/bus.ts';
import type { ParleyEvent } from './events/kinds.ts';
import { ConcurrentUpdateError } from './errors.ts';

/** What a transaction needs of a context: a database and the event bus to publish to on commit. */
export interface TransactionHost {
  db: Db;
  events: EventBus;
}

/** A context inside a transaction: `db` (and `tx`) is the transaction, `events` publish on commit. */
export type TxContext<C extends TransactionHost> = C & { readonly tx: Prisma.TransactionClient };

export interface TransactionOptions {
  /** Milliseconds the transaction may run (Prisma's `timeout`). */
  timeout?: number;
  /** Milliseconds to wait for a connection (Prisma's `maxWait`). */
  maxWait?: number;
  isolationLevel?: Prisma.TransactionIsolationLevel;
}

const MAX_ATTEMPTS = 4;

/** Holds publications until the transaction that made them commits. */
class OnCommitEvents implements EventBus {
  readonly pending: Delivery[] = [];

  publish(realmId: number, userIds: number[], event: ParleyEvent): void {
    if (userIds.length) this.pending.push({ realmId, userIds, event });
  }

  subscribe(): () => void {
    throw new Error('events cannot be subscribed to inside a transaction');
  }

  async close(): Promise<void> {}
}

/** PostgreSQL's serialization failure and deadlock, as Prisma reports them through the driver adapter. */
export function isTransactionConflict(error: unknown): boolean {
  for (let current: any = error, depth = 0; current && depth < 5; current = current.cause ?? current.meta?.driverAdapterError, depth++) {
    if (current.code === 'P2034') return true;
    const text = `${current.code ?? ''} ${current.message ?? ''} ${current.originalCode ?? ''} ${current.kind ?? ''}`;
    if (/\b(40001|40P01)\b|TransactionWriteConflict|could not serialize|deadlock detected/i.test(text)) return true;
  }
  return false;
}

export function inTransaction<T, C extends TransactionHost>(ctx: C, work: (tx: TxContext<C>) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  // Nested: the outer transaction holds the events and decides about commit.
  if ('tx' in ctx) return work(ctx as TxContext<C>);
  return run(ctx, work, options);
}

async function run<T, C extends TransactionHost>(ctx: C, work: (tx: TxContext<C>) => Promise<T>, options: TransactionOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const events = new OnCommitEvents();
    try {
      const result = await ctx.db.$transaction(
        (tx) => work({ ...ctx, db: tx as unknown as Db, tx, events }),
        options,
      );
      for (const { realmId, userIds, event } of events.pending) ctx.events.publish(realmId, userIds, event);
      return result;
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConcurrentUpdateError();
      // A short, growing, jittered pause lets the other transaction finish first.
      await new Promise((resolve) => setTimeout(resolve, attempt * 10 + Math.random() * 20));
    }
  }
}
