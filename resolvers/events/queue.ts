// One client's event queue: the events addressed to it that it has not acknowledged yet, and at
// most one long-poll waiting for the next one.
import type { ParleyEvent } from './bus.ts';

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

export interface QueuedEvent extends ParleyEvent {
  id: number;
}

export interface QueueSnapshot {
  id: string;
  realmId: number;
  userId: number | null;
  options: QueueOptions;
  events: QueuedEvent[];
  nextEventId: number;
  lastAccess: number;
}

type Waiter = (events: QueuedEvent[]) => void;

export class EventQueue {
  events: QueuedEvent[] = [];
  nextEventId = 0;
  lastAccess = Date.now();
  private waiter: Waiter | null = null;

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

  snapshot(): QueueSnapshot {
    return { id: this.id, realmId: this.realmId, userId: this.userId, options: this.options, events: this.events, nextEventId: this.nextEventId, lastAccess: this.lastAccess };
  }

  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  push(event: ParleyEvent): QueuedEvent {
    const queued = { ...event, id: this.nextEventId++ } as QueuedEvent;
    this.events.push(queued);
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(this.events.slice());
    }
    return queued;
  }

  /** Drops events the client has acknowledged by asking for those after `lastEventId`. */
  acknowledge(lastEventId: number): void {
    if (this.events.length && this.events[0]!.id <= lastEventId) {
      this.events = this.events.filter((e) => e.id > lastEventId);
    }
  }

  touch(): void {
    this.lastAccess = Date.now();
  }

  isIdle(now: number): boolean {
    return !this.waiter && now - this.lastAccess > this.options.idleTimeoutSecs * 1000;
  }

  /**
   * Resolves with pending events at once, or waits for the next one, or for `timeoutMs` (then with
   * none). A newer poll replaces an older one, which is answered empty (Zulip does the same).
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<QueuedEvent[]> {
    if (this.events.length) return Promise.resolve(this.events.slice());
    if (this.waiter) this.waiter([]);
    return new Promise((resolve) => {
      const finish = (events: QueuedEvent[]) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (this.waiter === finish) this.waiter = null;
        this.touch();
        resolve(events);
      };
      const onAbort = () => finish([]);
      const timer = setTimeout(() => finish([]), timeoutMs);
      signal?.addEventListener('abort', onAbort);
      this.waiter = finish;
    });
  }

  /** Answers a waiting poll (with nothing) so the queue can be closed. */
  release(): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake([]);
    }
  }
}
