// Event queues as tests use them, through the public API: POST /register, then GET /events without
// blocking. Every event the server hands out is checked against Zulip's OpenAPI description
// (validateEvent), heartbeats included, so no test can read an event that a Zulip client would
// reject. Two ways to read a queue:
// - `allEvents(client, queueId)`: everything since the queue was registered (last_event_id -1), so
//   each call sees the earlier calls' events again;
// - `openQueue(client, params).events()`: only what arrived since the previous call, as a client
//   acknowledges by last_event_id.
import { expect } from 'vitest';
import type { ApiClient } from './client.ts';
import { validateEvent } from './openapi.ts';

export interface ZulipEventOut {
  id: number;
  type: string;
  // Events are whatever the OpenAPI description allows, already checked by validateEvent.
  [key: string]: any;
}

/** The register response: the initial state asked for, with the queue's ID. */
export interface RegisterState {
  queue_id: string;
  last_event_id: number;
  [key: string]: any;
}

/**
 * POST /register with `params` (event_types, fetch_event_types, narrow, client_capabilities, ...),
 * which must succeed. `State` types the parts of the initial state a test reads.
 */
export async function registerQueue<State extends object = object>(client: ApiClient, params: Record<string, unknown> = {}): Promise<RegisterState & State> {
  const res = await client.post('/register', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.queue_id, JSON.stringify(res.body)).toEqual(expect.any(String));
  return res.body;
}

/**
 * Events as tests read them: checked against the OpenAPI description already, so typed loosely
 * (`any`, not ZulipEventOut) for tests to destructure and index without a check at every step.
 */
export type CheckedEvent = any;

/**
 * One GET /events from `lastEventId` (a long poll unless `dontBlock`), which must succeed: the
 * events as the server sent them, heartbeats included, each validated.
 */
export async function getEvents(client: ApiClient, queueId: string, lastEventId = -1, dontBlock = true): Promise<CheckedEvent[]> {
  const res = await client.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: dontBlock });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const events = res.body.events as ZulipEventOut[];
  for (const event of events) validateEvent(event);
  return events;
}

/**
 * Every event in the queue since it was registered (last_event_id -1, without blocking), each
 * validated, heartbeats left out unless `keepHeartbeats` (for tests that compare the whole answer,
 * where a stray heartbeat must fail them).
 */
export async function allEvents(client: ApiClient, queueId: string, options: { keepHeartbeats?: boolean } = {}): Promise<CheckedEvent[]> {
  const events = await getEvents(client, queueId);
  return options.keepHeartbeats ? events : events.filter((e) => e.type !== 'heartbeat');
}

/** The events without the IDs their queue gave them, for comparing whole events. */
export function withoutIds(events: CheckedEvent[]): CheckedEvent[] {
  return events.map(({ id: _id, ...event }: ZulipEventOut) => event);
}

/** A queue registered with `params`; `events()` drains it without blocking. */
export async function openQueue(client: ApiClient, params: Record<string, unknown>) {
  const state = await registerQueue(client, params);
  let last = state.last_event_id;
  const queueId = state.queue_id;
  return {
    state,
    queueId,
    async events(): Promise<ZulipEventOut[]> {
      // Strings, as the real clients of test/clients/ put them on the wire.
      const polled = await client.get('/events', { queue_id: queueId, last_event_id: String(last), dont_block: 'true' });
      expect(polled.status, JSON.stringify(polled.body)).toBe(200);
      const received = polled.body.events as ZulipEventOut[];
      for (const event of received) validateEvent(event);
      if (received.length) last = Math.max(last, ...received.map((e) => e.id));
      return received.filter((e) => e.type !== 'heartbeat');
    },
  };
}

/** The one event of `type` (and `op`) among `events`. */
export function only(events: ZulipEventOut[], type: string, op?: string): ZulipEventOut {
  const found = events.filter((e) => e.type === type && (op === undefined || e.op === op));
  expect(found, `${type}${op ? `/${op}` : ''} in ${JSON.stringify(events)}`).toHaveLength(1);
  return found[0]!;
}
