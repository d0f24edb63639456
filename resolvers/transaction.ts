// One database transaction for a domain action, with its events published after commit (Zulip's
// `transaction.atomic` + `send_event_on_commit`): the action runs with a context whose `db` is the
// transaction and whose `events` hold every publication until the transaction commits. A rollback
// publishes nothing.
//
// Every interactive transaction of the server (`db.$transaction(fn)`, and so `inTransaction`) is
// retried by `withTransactionRetries`, which the database is opened with: conflicts with concurrent
// transactions (serialization failures, deadlocks) a bounded number of times, then answered with
// ConcurrentUpdateError rather than a 500; a unique violation once, because it means a concurrent
// request inserted the same key first, and the retry's own checks then see that row and answer as
// the domain does ("already exists", "already subscribed").
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

/** Holds publications until the transaction that made them commits. */
class OnCommitEvents implements EventBus {
  readonly pending: Delivery[] = [];
  /** Work to start once the transaction has committed (see onCommit). */
  readonly callbacks: (() => void)[] = [];

  publish(realmId: number, userIds: number[], event: ParleyEvent): void {
    if (userIds.length) this.pending.push({ realmId, userIds, event });
  }

  subscribe(): () => void {
    throw new Error('events cannot be subscribed to inside a transaction');
  }

  subscribeUser(): () => void {
    return this.subscribe();
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
  // A retried attempt starts over with no pending events (the database retries the callback).
  let events = new OnCommitEvents();
  const result = await ctx.db.$transaction((tx) => {
    events = new OnCommitEvents();
    return work({ ...ctx, db: tx as unknown as Db, tx, events });
  }, options);
  for (const { realmId, userIds, event } of events.pending) ctx.events.publish(realmId, userIds, event);
  for (const callback of events.callbacks) callback();
  return result;
}

/**
 * Starts `work` once what the context wrote is committed (Django's transaction.on_commit): after
 * the enclosing transaction commits, or at once outside one. A rollback drops it.
 */
export function onCommit(ctx: TransactionHost, work: () => void): void {
  if (ctx.events instanceof OnCommitEvents) ctx.events.callbacks.push(work);
  else work();
}

/** A unique-constraint violation (Prisma's P2002, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: any = error, depth = 0; current && depth < 5; current = current.cause ?? current.meta?.driverAdapterError, depth++) {
    if (current.code === 'P2002' || current.code === '23505' || current.originalCode === '23505' || current.kind === 'UniqueConstraintViolation') return true;
  }
  return false;
}

const MAX_CONFLICT_ATTEMPTS = 6;
const MAX_DUPLICATE_ATTEMPTS = 2;

async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let conflicts = 0, duplicates = 0; ;) {
    try {
      return await attempt();
    } catch (error) {
      if (isTransactionConflict(error)) {
        if (++conflicts >= MAX_CONFLICT_ATTEMPTS) throw new ConcurrentUpdateError();
        // A short, growing, jittered pause lets the other transaction finish first.
        await new Promise((resolve) => setTimeout(resolve, conflicts * 10 + Math.random() * 20 * conflicts));
        continue;
      }
      if (isUniqueViolation(error) && ++duplicates < MAX_DUPLICATE_ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * The client with every interactive transaction (`$transaction(fn)`) retried as described at the
 * top; everything else passes through to the client itself.
 */
export function withTransactionRetries<D extends object & { $transaction: (...args: any[]) => Promise<any> }>(db: D): D {
  const transaction = db.$transaction.bind(db);
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, property) {
      if (property === '$transaction') {
        return (arg: unknown, options?: unknown) => (typeof arg === 'function' ? retrying(() => transaction(arg, options)) : transaction(arg, options));
      }
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      // Methods run on the client itself, whose private state a proxy cannot reach.
      if (!bound.has(property)) bound.set(property, value.bind(target));
      return bound.get(property);
    },
  });
}
