// What the API layer (register.ts, fields.ts) and the server need from the event queues, whoever
// keeps them: this process's memory (registry.ts) or Redis, shared by every process
// (redis/registry.ts). Methods may answer synchronously, so the in-memory path stays synchronous.
import { randomBytes } from 'node:crypto';
import type { QueueOptions, QueuedEvent } from './queue.ts';
import { BadRequestError } from '../errors.ts';

export interface UserQueues {
  count: number;
  nextExpiry: number | null;
}

/** One registered queue, as the API layer sees it. */
export interface QueueHandle {
  readonly id: string;
  readonly realmId: number;
  readonly userId: number | null;
  readonly options: QueueOptions;
  /** The newest event's ID when the handle was obtained (-1 for none yet). */
  readonly lastEventId: number;
  /** How many of this process's polls and subscriptions are waiting on the queue right now. */
  readonly waiting: number;
}

export interface EventQueues<Q extends QueueHandle = QueueHandle> {
  register(realmId: number, userId: number | null, options: QueueOptions): Q | Promise<Q>;
  /** The caller's queue; someone else's queue is reported exactly like a missing one. */
  get(queueId: string, userId: number | null): Q | Promise<Q>;
  /** GET /events: acknowledge up to `lastEventId`, answer with the rest or wait (heartbeat on timeout). */
  fetch(queue: Q, lastEventId: number | null, dontBlock: boolean, signal?: AbortSignal): Promise<QueuedEvent[]>;
  /**
   * GraphQL subscription: the events after `afterId`, as they come, without acknowledging them. Ends
   * at once when `signal` aborts or `return()` is called, even while waiting for the next event.
   */
  stream(queue: Q, afterId: number, signal: AbortSignal): AsyncIterableIterator<QueuedEvent>;
  delete(queue: Q): void | Promise<void>;
  /** How many queues the user has, and when the first of them becomes idle enough to be collected (ms since the epoch). */
  userQueues(userId: number): UserQueues | Promise<UserQueues>;
  /** Drops every queue of a user in the realm (on deactivation). */
  deleteUserQueues(realmId: number, userId: number): void | Promise<void>;
  collectIdle(now?: number): number | Promise<number>;
  /** Answers every waiting poll so the process can exit. */
  close(): void;
  /**
   * Resolves once every event published so far by this process is in its queues. Absent where
   * delivery is synchronous (in memory); with Redis, responses wait for it, so a client that got an
   * answer to a request finds that request's events in its queues on any process.
   */
  settled?(): Promise<void>;
}

// Bounds on `idle_queue_timeout` (feature level 481), in seconds: Zulip's default is 10 minutes,
// and mobile clients keep queues for a week.
/**
 * A GraphQL subscription streams without acknowledging, so a client that reconnects can resume from
 * its last event ID; only this many of the newest streamed events are kept for that, or a
 * long-lived subscription would keep every event it ever sent.
 */
export const STREAM_RESUME_WINDOW = 1000;

export const DEFAULT_IDLE_QUEUE_TIMEOUT_SECS = 600;
/**
 * Zulip's `idle_queue_timeout: "mobile"` (feature level 481): 12 hours, so a mobile app opened a few
 * times a day finds its queue still there (zulip-flutter always asks for it).
 */
export const MOBILE_IDLE_QUEUE_TIMEOUT_SECS = 12 * 3600;
export const MIN_IDLE_QUEUE_TIMEOUT_SECS = 60;
export const MAX_IDLE_QUEUE_TIMEOUT_SECS = 7 * 24 * 3600;

export function checkIdleTimeout(options: QueueOptions): void {
  if (options.idleTimeoutSecs < MIN_IDLE_QUEUE_TIMEOUT_SECS || options.idleTimeoutSecs > MAX_IDLE_QUEUE_TIMEOUT_SECS) {
    throw new BadRequestError(`idle_queue_timeout must be between ${MIN_IDLE_QUEUE_TIMEOUT_SECS} and ${MAX_IDLE_QUEUE_TIMEOUT_SECS} seconds`);
  }
}

/** Unguessable (a queue ID is not a credential, but it should not be enumerable either), sortable by age. */
export function newQueueId(): string {
  return `${Date.now().toString(36)}:${randomBytes(9).toString('base64url')}`;
}
