// A GraphQL subscription's view of one in-memory queue (registry.ts `stream`): the events after a
// cursor, one per `next()`, without acknowledging them. An iterator the queue pushes to rather
// than an async generator over `queue.wait()`: a fan-out wakes a thousand subscriptions at once,
// and a generator (plus the wrapper that lets `return()` stop it while it waits) cost two promise
// layers per event, and every wait a timer and an abort listener of its own. Here the abort
// listener lives as long as the stream, and one heartbeat timer is re-armed only when it fires.
import { STREAM_RESUME_WINDOW } from './queues.ts';
import type { EventQueue, QueuedEvent, QueueWaiter } from './queue.ts';

export class QueueStream implements AsyncIterableIterator<QueuedEvent>, QueueWaiter {
  /** The last event handed out (or acknowledged by the client before subscribing). */
  afterId: number;
  private pending: ((result: IteratorResult<QueuedEvent>) => void) | null = null;
  private waitingSince = 0;
  private timer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly queue: EventQueue,
    afterId: number,
    private readonly heartbeatMs: number,
    /** Whether the queue is still registered: a deleted queue ends its streams. */
    private readonly registered: (queue: EventQueue) => boolean,
    private readonly signal: AbortSignal,
  ) {
    this.afterId = afterId;
    queue.acknowledge(afterId);
    signal.addEventListener('abort', this);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<QueuedEvent>> {
    if (this.pending) return Promise.reject(new Error('QueueStream: next() while a previous next() is pending'));
    if (this.ended || this.signal.aborted || !this.registered(this.queue)) return Promise.resolve(this.end());
    const { queue } = this;
    // Only the resume window of what was streamed stays queued.
    queue.acknowledge(this.afterId - STREAM_RESUME_WINDOW);
    const event = queue.eventAfter(this.afterId);
    if (event) return Promise.resolve(this.handOut(event));
    this.waitingSince = Date.now();
    this.timer ??= setTimeout(heartbeatDue, this.heartbeatMs, this);
    queue.listen(this);
    return new Promise((resolve) => { this.pending = resolve; });
  }

  /** From the queue: the events after `afterId`, or none when the queue is released. */
  wake(events: QueuedEvent[]): void {
    this.queue.unlisten(this);
    this.queue.touch();
    this.settle(events.length ? this.handOut(events[0]!) : this.idle());
  }

  /** The heartbeat timer: answers a wait that has lasted `heartbeatMs`, else waits for the rest of it. */
  heartbeatDue(): void {
    this.timer = null;
    if (!this.pending) return;
    const left = this.waitingSince + this.heartbeatMs - Date.now();
    if (left > 0) {
      this.timer = setTimeout(heartbeatDue, left, this);
      return;
    }
    this.queue.unlisten(this);
    this.queue.touch();
    this.settle(this.idle());
  }

  /** The signal's abort: the stream is its own listener. */
  handleEvent(): void {
    this.end();
  }

  return(): Promise<IteratorResult<QueuedEvent>> {
    return Promise.resolve(this.end());
  }

  throw(error?: unknown): Promise<IteratorResult<QueuedEvent>> {
    this.end();
    return Promise.reject(error);
  }

  private handOut(event: QueuedEvent): IteratorResult<QueuedEvent> {
    this.afterId = event.id;
    return { done: false, value: event };
  }

  /** Nothing came: a heartbeat with an ID of its own (an event queued meanwhile must still follow it). */
  private idle(): IteratorResult<QueuedEvent> {
    if (this.ended || this.signal.aborted || !this.registered(this.queue)) return this.end();
    return this.handOut(this.queue.push({ type: 'heartbeat' }));
  }

  private settle(result: IteratorResult<QueuedEvent>): void {
    const resolve = this.pending;
    this.pending = null;
    resolve?.(result);
  }

  private end(): IteratorResult<QueuedEvent> {
    if (!this.ended) {
      this.ended = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.signal.removeEventListener('abort', this);
      this.queue.unlisten(this);
    }
    // Whoever waits on a pending next() gets the end too.
    const done: IteratorResult<QueuedEvent> = { done: true, value: undefined };
    this.settle(done);
    return done;
  }
}

function heartbeatDue(stream: QueueStream): void {
  stream.heartbeatDue();
}
