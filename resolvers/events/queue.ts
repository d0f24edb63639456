// One client's event queue: the events addressed to it that it has not acknowledged yet, and at
// most one long-poll waiting for the next one.
import type { WireEvent } from './kinds.ts';

export interface QueueOptions {
  /** Event types to receive; null = all. */
  eventTypes: string[] | null;
  narrow: [string, string][];
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  capabilities: Record<string, boolean>;
  /** Seconds the queue survives without being polled. */
  idleTimeoutSecs: number;
}

/** An event in a queue: its wire form and its ID in that queue. */
export type QueuedEvent = WireEvent & { id: number };

/**
 * Each queued event's wire form without its ID: the event object, shared by every queue of one
 * shape (kinds.ts Tailoring), or its JSON as read back from Redis. Events are never modified once
 * queued, so the JSON of a shared event is made once, however many queues answer with it.
 */
const bodies = new WeakMap<QueuedEvent, WireEvent | string>();
/** The JSON of a shared event up to where its ID goes (`{...,`), made once per event. */
const prefixes = new WeakMap<WireEvent, string>();

/** `event` as queued with `id` (after its own fields, as Zulip's queues add it); `json` is the event's JSON when known. */
export function queuedEvent(event: WireEvent, id: number, json?: string): QueuedEvent {
  // Not `{ ...event, id }`: V8 (Node 20) builds a spread followed by more properties through a slow
  // path (and a slow object), once per queue of every fan-out.
  const queued = Object.assign({}, event, { id }) as QueuedEvent;
  // An event with a field named `id` of its own keeps it where it was: serialized as a whole.
  if (!Object.hasOwn(event, 'id')) bodies.set(queued, json ?? event);
  return queued;
}

function prefixOf(json: string): string {
  return json.length > 2 ? `${json.slice(0, -1)},` : '{';
}

/** JSON.stringify(event), from its wire form's JSON where that is known (see `bodies`). */
export function eventJson(event: QueuedEvent): string {
  const body = bodies.get(event);
  if (body === undefined) return JSON.stringify(event);
  let prefix: string | undefined;
  if (typeof body === 'string') prefix = prefixOf(body);
  else if ((prefix = prefixes.get(body)) === undefined) prefixes.set(body, (prefix = prefixOf(JSON.stringify(body))));
  return `${prefix}"id":${event.id}}`;
}

/** JSON.stringify(events), each event's body serialized once however many queues it is in. */
export function eventsJson(events: readonly QueuedEvent[]): string {
  return `[${events.map(eventJson).join(',')}]`;
}

/**
 * The format of saved queues (snapshots in the database, queues in Redis). Bump it whenever
 * QueueOptions or the queued events change shape: queues saved in another format are dropped when
 * read, and their clients register again, as after any BAD_EVENT_QUEUE_ID.
 */
export const QUEUE_FORMAT_VERSION = 1;

/** Options as saved beside a queue, with the format they were saved in. */
export function encodeQueueOptions(options: QueueOptions): string {
  return JSON.stringify({ formatVersion: QUEUE_FORMAT_VERSION, ...options });
}

/** Options saved by encodeQueueOptions; null when they were saved in another format. */
export function decodeQueueOptions(json: string): QueueOptions | null {
  const { formatVersion, ...options } = JSON.parse(json) as QueueOptions & { formatVersion?: number };
  return formatVersion === QUEUE_FORMAT_VERSION ? options : null;
}

export interface QueueSnapshot {
  formatVersion: number;
  id: string;
  realmId: number;
  userId: number | null;
  options: QueueOptions;
  events: QueuedEvent[];
  nextEventId: number;
  lastAccess: number;
}

/** What waits on a queue: a poll's Waiter, or a subscription's stream (queue-stream.ts). */
export interface QueueWaiter {
  /** Woken once events newer than this arrive. */
  readonly afterId: number;
  /** Those events, or none when the queue is released; the waiter stops listening (`unlisten`) itself. */
  wake(events: QueuedEvent[]): void;
}

/**
 * A poll waiting on a queue. An object with methods rather than closures made per
 * wait: a fan-out wakes a thousand of them and they wait again at once, and each closure made
 * here would also be renamed on creation (tsx keeps function names: a defineProperty per closure).
 */
class Waiter implements QueueWaiter {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly queue: EventQueue,
    private readonly waiters: Set<QueueWaiter>,
    readonly afterId: number,
    private readonly resolve: (events: QueuedEvent[]) => void,
    private readonly signal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(wakeEmpty, timeoutMs, this);
    signal?.addEventListener('abort', this);
    waiters.add(this);
  }

  wake(events: QueuedEvent[]): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
    this.waiters.delete(this);
    this.queue.touch();
    this.resolve(events);
  }

  /** The signal's abort: the waiter is its own listener. */
  handleEvent(): void {
    this.wake([]);
  }
}

function wakeEmpty(waiter: Waiter): void {
  waiter.wake([]);
}

export class EventQueue {
  events: QueuedEvent[] = [];
  nextEventId = 0;
  lastAccess = Date.now();
  private waiters = new Set<QueueWaiter>();

  constructor(
    readonly id: string,
    readonly realmId: number,
    readonly userId: number | null,
    readonly options: QueueOptions,
  ) {}

  static restore(snapshot: QueueSnapshot): EventQueue {
    const queue = new EventQueue(snapshot.id, snapshot.realmId, snapshot.userId, snapshot.options);
    queue.events = snapshot.events;
    queue.nextEventId = snapshot.nextEventId;
    queue.lastAccess = snapshot.lastAccess;
    return queue;
  }

  /** The queue as it is now (its events copied: saving is asynchronous, and the queue goes on changing meanwhile). */
  snapshot(): QueueSnapshot {
    return { formatVersion: QUEUE_FORMAT_VERSION, id: this.id, realmId: this.realmId, userId: this.userId, options: this.options, events: this.events.slice(), nextEventId: this.nextEventId, lastAccess: this.lastAccess };
  }

  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  push(event: WireEvent): QueuedEvent {
    const queued = queuedEvent(event, this.nextEventId++);
    this.events.push(queued);
    if (this.waiters.size) wakeSoon(this);
    return queued;
  }

  /** Answers the waiting polls and subscriptions with what arrived since they started waiting. */
  wakeWaiters(): void {
    for (const waiter of [...this.waiters]) {
      const events = this.eventsAfter(waiter.afterId);
      if (events.length) waiter.wake(events);
    }
  }

  /** Wakes `waiter` with the events after its `afterId` once there are some (or when the queue is released). */
  listen(waiter: QueueWaiter): void {
    this.waiters.add(waiter);
  }

  unlisten(waiter: QueueWaiter): void {
    this.waiters.delete(waiter);
  }

  /** Drops events the client has acknowledged by asking for those after `lastEventId`. */
  acknowledge(lastEventId: number): void {
    // IDs ascend: the acknowledged events are a prefix. A streaming subscription with a full resume
    // window drops one event per event it streams; a pass over the whole window (and a new array)
    // each time made that O(window).
    if (this.events.length && this.events[0]!.id <= lastEventId) this.events.splice(0, this.indexAfter(lastEventId));
  }

  touch(): void {
    this.lastAccess = Date.now();
  }

  /** How many polls or subscriptions are waiting on this queue right now. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** A queue someone is waiting on is in use, however long ago it was polled. */
  isIdle(now: number): boolean {
    return this.waiters.size === 0 && now - this.lastAccess > this.options.idleTimeoutSecs * 1000;
  }

  eventsAfter(afterId: number): QueuedEvent[] {
    return this.events.slice(this.indexAfter(afterId));
  }

  /** The first event newer than `afterId`, if any. */
  eventAfter(afterId: number): QueuedEvent | undefined {
    return this.events[this.indexAfter(afterId)];
  }

  private indexAfter(afterId: number): number {
    // IDs ascend, and a streaming subscription keeps up to STREAM_RESUME_WINDOW events queued:
    // found by bisection, not by a pass over all of them on every wait and wake-up.
    const { events } = this;
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (events[middle]!.id > afterId) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * Resolves with the events newer than `afterId` at once, or waits for the next one, or for
   * `timeoutMs` (then with none). Waiting does not acknowledge anything: a GraphQL subscription
   * streams events without dropping them, so a client that reconnects loses nothing unacknowledged.
   */
  wait(timeoutMs: number, afterId = -1, signal?: AbortSignal): Promise<QueuedEvent[]> {
    const pending = this.eventsAfter(afterId);
    if (pending.length || signal?.aborted) return Promise.resolve(pending);
    return new Promise((resolve) => void new Waiter(this, this.waiters, afterId, resolve, signal, timeoutMs));
  }

  /** Answers every waiting poll (with nothing), so the queue can be closed. */
  release(): void {
    for (const waiter of [...this.waiters]) waiter.wake([]);
  }
}

/**
 * Queues with new events and someone waiting, woken together once the current task is done: every
 * event published in one go (a transaction's, a fan-out's) reaches a waiting poll in one answer,
 * rather than the first one waking it and the rest waiting for its next poll.
 */
let toWake: Set<EventQueue> | null = null;

function wakeSoon(queue: EventQueue): void {
  if (!toWake) {
    toWake = new Set();
    queueMicrotask(() => {
      const queues = toWake!;
      toWake = null;
      for (const q of queues) q.wakeWaiters();
    });
  }
  toWake.add(queue);
}
