// Event queues shared by several server processes through Redis (REDIS_URL set).
//
// Design: a queue's whole state lives in Redis (store.ts), not in any one process, because a
// long-poll may reach any process (no sticky sessions) and a process may restart at any time.
//  - Delivery happens where the event arises: this process looks up the queues the delivery
//    reaches (per-user index, plus all_public_streams queues), shapes the event for each from the
//    queue's stored options (shape.ts), and appends the results in one script that allocates each
//    event's ID as it appends it. No process owns a queue, so there is nothing to hand over or
//    forward, and a queue registered on one process gets events raised on any other.
//  - Deliveries leave in publication order: those published while a write is in flight are written
//    together in the next one, so a queue never sees this process's events out of order.
//  - A poll registers as waiting on its queue before it reads it, then, having found nothing,
//    waits for a wake-up, its heartbeat timeout or its client leaving. Whichever process appended
//    publishes the wake-up: one message per append naming every queue it reached, on one channel
//    each process subscribes to once (a fan-out to a thousand queues is one message, not a
//    thousand, and a wait costs no SUBSCRIBE). The queues a wake-up (or a timeout) concerns are
//    read in one call, and their polls answered in one pass.
//  - Idle queues are scored by expiry time in a sorted set; any process collects them. Queues a
//    process is waiting on are in use: it refreshes them before every collection.
//  - A graceful shutdown only answers this process's waiting polls: queues are already in Redis,
//    so they outlive the process (database persistence is for the in-memory registry only).
// Remote bus deliveries (redis/bus.ts) are ignored here: their origin process already appended them.
import type { Delivery, EventBus, ParleyEvent } from '../bus.ts';
import type { QueueOptions, QueuedEvent } from '../queue.ts';
import { Tailoring, type WireEvent } from '../kinds.ts';
import { checkIdleTimeout, newQueueId, type EventQueues, type QueueHandle, type UserQueues, STREAM_RESUME_WINDOW } from '../queues.ts';
import type { RegistryOptions } from '../registry.ts';
import { BadEventQueueIdError } from '../../errors.ts';
import type { RedisLink } from './link.ts';
import { RedisQueueStore, type StoredQueue } from './store.ts';
import { stoppable } from '../bus-iterator.ts';

interface Batch {
  deliveries: Delivery[];
  written: Promise<void>;
  resolve: () => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  const written = new Promise<void>((r) => { resolve = r; });
  return { deliveries: [], written, resolve };
}

/**
 * A poll or subscription of this process waiting on a queue: settled with the queue's events after
 * `afterId` once a wake-up (or the heartbeat timeout, or the registry closing) has it read, with
 * none if its client leaves, null if the queue is gone. An object rather than closures made per
 * wait (a fan-out's thousand polls wait again at once).
 */
class RedisWaiter {
  private settled = false;
  /** Its heartbeat timeout passed, or the registry closed: the next read answers it, even with nothing. */
  private due = false;
  private resolve!: (events: QueuedEvent[] | null) => void;
  private reject!: (error: unknown) => void;
  readonly woken = new Promise<QueuedEvent[] | null>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly registry: RedisQueueRegistry,
    readonly queueId: string,
    readonly afterId: number,
    private readonly signal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(readOnTimeout, timeoutMs, this);
    signal?.addEventListener('abort', this);
    // A read that fails after its poll found events by itself has no one to tell.
    this.woken.catch(() => {});
  }

  /**
   * A read's answer. A wake-up that found nothing new (its news was read already, e.g. by this
   * poll's own first read) leaves it waiting.
   */
  answer(events: QueuedEvent[] | null): void {
    if (events && !events.length && !this.due) return;
    this.settle(events);
  }

  /** Ends the wait with `events` (ignored once settled: its client left meanwhile). */
  settle(events: QueuedEvent[] | null): void {
    if (this.settled) return;
    this.cancel();
    this.resolve(events);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.cancel();
    this.reject(error);
  }

  /** Stops waiting (settled, or its caller done with it). */
  cancel(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
    this.registry.forget(this);
  }

  get pending(): boolean {
    return !this.settled;
  }

  /** The signal's abort: the waiter is its own listener. */
  handleEvent(): void {
    this.settle([]);
  }

  /** Has its queue read: it may have news, or (`due`) it has waited long enough. */
  wake(due = false): void {
    if (due) this.due = true;
    this.registry.readSoon(this);
  }
}

function readOnTimeout(waiter: RedisWaiter): void {
  waiter.wake(true);
}

export class RedisQueueRegistry implements EventQueues {
  private readonly store: RedisQueueStore;
  /** This process's waiting polls and subscriptions, by queue. */
  private readonly waiting = new Map<string, Set<RedisWaiter>>();
  /** Waiters woken in this task, read together once it is done. */
  private toRead: Set<RedisWaiter> | null = null;
  private open: Batch | null = null;
  private writing: Batch | null = null;
  private closed = false;
  private readonly gcTimer: NodeJS.Timeout;
  /** Settles once this process hears the wake channel (a wait registered after that cannot miss its wake-up). */
  private readonly listening: Promise<unknown>;

  constructor(private readonly link: RedisLink, bus: EventBus, private readonly options: RegistryOptions, private readonly log: (line: string) => void = console.error) {
    this.store = new RedisQueueStore(link);
    this.listening = link.subscribe(this.store.wakeChannel, (message) => {
      for (const id of message.split(' ')) for (const waiter of this.waiting.get(id) ?? []) waiter.wake();
    });
    // A failed subscription fails each wait (which awaits it), not the process.
    this.listening.catch(() => {});
    // Never unsubscribed: deliveries made while the server shuts down still reach the queues, until
    // the bus itself closes.
    bus.subscribe((delivery) => {
      if (!delivery.remote) this.enqueue(delivery);
    });
    this.gcTimer = setInterval(() => {
      this.store.touch([...this.waiting.keys()], Date.now())
        .then(() => this.collectIdle())
        .catch((error) => this.log(`could not collect idle event queues: ${error}`));
    }, options.gcIntervalMs);
    this.gcTimer.unref();
  }

  async register(realmId: number, userId: number | null, options: QueueOptions): Promise<QueueHandle> {
    checkIdleTimeout(options);
    const queue: StoredQueue = { id: newQueueId(), realmId, userId, options, lastEventId: -1 };
    await this.store.create(queue, Date.now());
    return this.handle(queue);
  }

  async get(queueId: string, userId: number | null): Promise<QueueHandle> {
    const queue = await this.store.get(queueId);
    if (!queue || queue.userId !== userId) throw new BadEventQueueIdError(queueId);
    return this.handle(queue);
  }

  private handle(queue: StoredQueue): QueueHandle {
    const waiting = this.waiting;
    return { ...queue, get waiting() { return waiting.get(queue.id)?.size ?? 0; } };
  }

  async fetch(queue: QueueHandle, lastEventId: number | null, dontBlock: boolean, signal?: AbortSignal): Promise<QueuedEvent[]> {
    // Waiting before reading: an event appended after the read then still wakes the poll, and a
    // poll that finds nothing costs one read.
    const waiter = dontBlock ? null : this.waiter(queue.id, -1, signal);
    try {
      if (waiter) await this.listening;
      const events = await this.store.read(queue.id, Date.now(), lastEventId, -1);
      if (!events) throw new BadEventQueueIdError(queue.id);
      if (events.length || !waiter) return events;
      const waited = await waiter.woken;
      if (!waited || waited.length || signal?.aborted) return waited ?? [];
      const heartbeat = await this.store.push(queue.id, { type: 'heartbeat' });
      return heartbeat ? [heartbeat] : [];
    } finally {
      waiter?.cancel();
    }
  }

  stream(queue: QueueHandle, afterId: number, signal: AbortSignal): AsyncIterableIterator<QueuedEvent> {
    return stoppable((stop) => this.streamEvents(queue, afterId, stop), signal);
  }

  private async *streamEvents(queue: QueueHandle, afterId: number, signal: AbortSignal): AsyncGenerator<QueuedEvent> {
    let events = await this.store.read(queue.id, Date.now(), afterId, afterId);
    let cursor = afterId;
    while (events && !signal.aborted) {
      for (const event of events) {
        cursor = event.id;
        yield event;
      }
      if (signal.aborted || this.closed) return;
      // Keep only the resume window of what was streamed; anything newer that arrived meanwhile
      // comes back from the same call.
      events = await this.store.read(queue.id, Date.now(), Math.max(afterId, cursor - STREAM_RESUME_WINDOW), cursor);
      if (events && events.length) continue;
      events = await this.wait(queue.id, cursor, signal);
      if (events && !events.length && !signal.aborted && !this.closed) {
        const heartbeat = await this.store.push(queue.id, { type: 'heartbeat' });
        events = heartbeat ? [heartbeat] : null;
      }
    }
  }

  /**
   * The events after `afterId`, once there are some, or [] after the heartbeat interval or when the
   * client leaves; null if the queue is gone.
   */
  private async wait(queueId: string, afterId: number, signal?: AbortSignal): Promise<QueuedEvent[] | null> {
    const waiter = this.waiter(queueId, afterId, signal);
    try {
      // Waiting before reading: an event appended after the read then still wakes us.
      await this.listening;
      const pending = await this.store.read(queueId, Date.now(), null, afterId);
      if (!pending || pending.length) return pending;
      return await waiter.woken;
    } finally {
      waiter.cancel();
    }
  }

  /** A waiter on the queue, registered; already settled with none if the client left or the registry is closed. */
  private waiter(queueId: string, afterId: number, signal?: AbortSignal): RedisWaiter {
    const waiter = new RedisWaiter(this, queueId, afterId, signal, this.options.heartbeatMs);
    if (this.closed || signal?.aborted) {
      waiter.settle([]);
      return waiter;
    }
    let waiters = this.waiting.get(queueId);
    if (!waiters) this.waiting.set(queueId, (waiters = new Set()));
    waiters.add(waiter);
    return waiter;
  }

  /** Unregisters a waiter (RedisWaiter.cancel). */
  forget(waiter: RedisWaiter): void {
    const waiters = this.waiting.get(waiter.queueId);
    if (!waiters?.delete(waiter)) return;
    if (!waiters.size) this.waiting.delete(waiter.queueId);
  }

  /**
   * Has the waiter's queue read, with every other waiter woken in this task: a fan-out's wake-up
   * reads its thousand queues in one call and answers their polls in one pass, instead of a
   * thousand replies each answering some polls between incoming requests.
   */
  readSoon(waiter: RedisWaiter): void {
    if (!this.toRead) {
      this.toRead = new Set();
      queueMicrotask(() => this.readWoken());
    }
    this.toRead.add(waiter);
  }

  private readWoken(): void {
    const batch = [...this.toRead!].filter((w) => w.pending);
    this.toRead = null;
    if (!batch.length) return;
    this.store.readMany(batch, Date.now()).then(
      (answers) => batch.forEach((waiter, i) => waiter.answer(answers[i]!)),
      (error) => batch.forEach((waiter) => waiter.fail(error)),
    );
  }

  async delete(queue: QueueHandle): Promise<void> {
    // Redis tells every process's waiters (this one's too) over the queue's wake channel.
    await this.store.delete(queue.id);
  }

  userQueues(userId: number): Promise<UserQueues> {
    return this.store.userQueues(userId);
  }

  async deleteUserQueues(realmId: number, userId: number): Promise<void> {
    for (const id of await this.store.userQueueIds(userId)) {
      const queue = await this.store.get(id);
      if (queue?.realmId === realmId) await this.store.delete(id);
    }
  }

  /** Removes queues idle at `now`, except those this process is waiting on. */
  collectIdle(now = Date.now()): Promise<number> {
    return this.store.collect(now, [...this.waiting.keys()]);
  }

  private enqueue(delivery: Delivery): void {
    if (!this.open) this.open = newBatch();
    this.open.deliveries.push(delivery);
    if (!this.writing) this.writeNext();
  }

  private writeNext(): void {
    const batch = this.open;
    this.open = null;
    this.writing = batch;
    if (!batch) return;
    this.write(batch.deliveries)
      .catch((error) => this.log(`could not deliver ${batch.deliveries.length} events to their queues: ${error}`))
      .finally(() => {
        batch.resolve();
        this.writeNext();
      });
  }

  /** One round trip for the targets of every delivery, one for appending every shaped event. */
  private async write(deliveries: Delivery[]): Promise<void> {
    const targets = await Promise.all(deliveries.map(({ realmId, userIds, event }) =>
      this.store.targets(realmId, userIds, event.type === 'message' && !!event.public_channel)));
    const appends: [string, WireEvent][] = [];
    deliveries.forEach((delivery, i) => {
      if (!targets[i]!.length) return;
      const emptyTopicDisplayName = this.options.emptyTopicDisplayName(delivery.realmId);
      const tailoring = new Tailoring(delivery.event);
      for (const queue of targets[i]!) {
        for (const event of tailoring.forQueue({ queueId: queue.id, userId: queue.userId, options: queue.options, emptyTopicDisplayName })) {
          appends.push([queue.id, event]);
        }
      }
    });
    await this.store.append(appends);
  }

  settled(): Promise<void> {
    return (this.open ?? this.writing)?.written ?? Promise.resolve();
  }

  /**
   * Answers this process's waiting polls (with a heartbeat, as the in-memory registry does) and
   * stops collecting. Deliveries continue until the bus closes; await `settled()` before closing
   * the Redis link.
   */
  close(): void {
    this.closed = true;
    clearInterval(this.gcTimer);
    for (const waiters of this.waiting.values()) for (const waiter of waiters) waiter.wake(true);
  }
}
