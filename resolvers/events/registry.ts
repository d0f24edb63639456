// The event queues of this server process, when it runs alone (no REDIS_URL): registration,
// delivery from the event bus, long-poll fetches with heartbeats, and collection of idle queues.
// Queues survive a graceful restart: they are saved when the server stops and restored when it
// starts (see persistence.ts). Several processes share their queues through redis/registry.ts.
import type { Delivery, EventBus } from './bus.ts';
import { EventQueue, type QueueOptions, type QueuedEvent, type QueueSnapshot } from './queue.ts';
import { QueueStream } from './queue-stream.ts';
import { Tailoring } from './kinds.ts';
import { checkIdleTimeout, newQueueId, type EventQueues, type UserQueues } from './queues.ts';
import { BadEventQueueIdError } from '../errors.ts';

export { DEFAULT_IDLE_QUEUE_TIMEOUT_SECS, MIN_IDLE_QUEUE_TIMEOUT_SECS, MAX_IDLE_QUEUE_TIMEOUT_SECS } from './queues.ts';

export interface RegistryOptions {
  /** How long a poll waits before answering with a heartbeat (Zulip: about 50 s). */
  heartbeatMs: number;
  /** How often idle queues are looked for. */
  gcIntervalMs: number;
  /** The realm's empty-topic display name, for clients without the empty_topic_name capability. */
  emptyTopicDisplayName: (realmId: number) => string;
}

export class QueueRegistry implements EventQueues<EventQueue> {
  private queues = new Map<string, EventQueue>();
  private byUser = new Map<number, Set<EventQueue>>();
  private publicListeners = new Map<number, Set<EventQueue>>();
  private gcTimer: NodeJS.Timeout;
  private unsubscribe: () => void;

  constructor(bus: EventBus, private readonly options: RegistryOptions) {
    this.unsubscribe = bus.subscribe((delivery) => this.deliver(delivery));
    this.gcTimer = setInterval(() => this.collectIdle(), options.gcIntervalMs);
    this.gcTimer.unref();
  }

  register(realmId: number, userId: number | null, options: QueueOptions): EventQueue {
    checkIdleTimeout(options);
    const queue = new EventQueue(newQueueId(), realmId, userId, options);
    this.add(queue);
    return queue;
  }

  private add(queue: EventQueue): void {
    this.queues.set(queue.id, queue);
    if (queue.userId != null) {
      let set = this.byUser.get(queue.userId);
      if (!set) this.byUser.set(queue.userId, (set = new Set()));
      set.add(queue);
    }
    if (queue.options.allPublicStreams) {
      let set = this.publicListeners.get(queue.realmId);
      if (!set) this.publicListeners.set(queue.realmId, (set = new Set()));
      set.add(queue);
    }
  }

  userQueues(userId: number): UserQueues {
    const queues = [...(this.byUser.get(userId) ?? [])];
    const expiries = queues.map((q) => q.lastAccess + q.options.idleTimeoutSecs * 1000);
    return { count: queues.length, nextExpiry: expiries.length ? Math.min(...expiries) : null };
  }

  /** The caller's queue; someone else's queue is reported exactly like a missing one. */
  get(queueId: string, userId: number | null): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw new BadEventQueueIdError(queueId);
    return queue;
  }

  /**
   * GET /events: acknowledges events up to `lastEventId`, then answers with the newer ones, or
   * waits for one (unless `dontBlock`), answering with a heartbeat if none comes in time.
   */
  async fetch(queue: EventQueue, lastEventId: number | null, dontBlock: boolean, signal?: AbortSignal): Promise<QueuedEvent[]> {
    queue.touch();
    if (lastEventId != null) queue.acknowledge(lastEventId);
    if (queue.events.length || dontBlock) return queue.events.slice();
    const events = await queue.wait(this.options.heartbeatMs, -1, signal);
    if (events.length || signal?.aborted || !this.queues.has(queue.id)) return events;
    return [queue.push({ type: 'heartbeat' })];
  }

  /**
   * Streams the queue's events after `afterId` without acknowledging them (GraphQL subscriptions):
   * they stay queued until the client acknowledges them or the queue is collected.
   */
  stream(queue: EventQueue, afterId: number, signal: AbortSignal): QueueStream {
    return new QueueStream(queue, afterId, this.options.heartbeatMs, this.isRegistered, signal);
  }

  private readonly isRegistered = (queue: EventQueue): boolean => this.queues.has(queue.id);

  delete(queue: EventQueue): void {
    // Unregistered first: a stream woken by the release must find the queue gone and end, not send
    // a heartbeat from it.
    this.queues.delete(queue.id);
    forget(this.byUser, queue.userId ?? -1, queue);
    forget(this.publicListeners, queue.realmId, queue);
    queue.release();
  }

  deleteUserQueues(realmId: number, userId: number): void {
    for (const queue of [...(this.byUser.get(userId) ?? [])]) if (queue.realmId === realmId) this.delete(queue);
  }

  /** Hands one published event to every queue it is addressed to, shaped for that queue. */
  deliver(delivery: Delivery): void {
    const targets = new Map<EventQueue, number | null>();
    for (const userId of delivery.userIds) {
      for (const queue of this.byUser.get(userId) ?? []) if (queue.realmId === delivery.realmId) targets.set(queue, userId);
    }
    if (delivery.event.type === 'message' && delivery.event.public_channel) {
      for (const queue of this.publicListeners.get(delivery.realmId) ?? []) if (!targets.has(queue)) targets.set(queue, queue.userId);
    }
    if (!targets.size) return;
    const emptyTopicDisplayName = this.options.emptyTopicDisplayName(delivery.realmId);
    const tailoring = new Tailoring(delivery.event);
    for (const [queue, userId] of targets) {
      for (const event of tailoring.forQueue({ queueId: queue.id, userId, options: queue.options, emptyTopicDisplayName })) {
        queue.push(event);
      }
    }
  }

  collectIdle(now = Date.now()): number {
    let collected = 0;
    for (const queue of this.queues.values()) {
      if (queue.isIdle(now)) {
        this.delete(queue);
        collected++;
      }
    }
    return collected;
  }

  get size(): number {
    return this.queues.size;
  }

  snapshots(): QueueSnapshot[] {
    return [...this.queues.values()].map((q) => q.snapshot());
  }

  restore(snapshots: QueueSnapshot[]): void {
    for (const snapshot of snapshots) this.add(EventQueue.restore(snapshot));
  }

  /** Stops delivery and answers every waiting poll, so the process can exit. */
  close(): void {
    clearInterval(this.gcTimer);
    this.unsubscribe();
    for (const queue of this.queues.values()) queue.release();
  }
}

/** Removes a queue from an index, and the index entry once it is empty. */
function forget(index: Map<number, Set<EventQueue>>, key: number, queue: EventQueue): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(queue);
  if (!set.size) index.delete(key);
}
