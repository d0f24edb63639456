// GraphQL subscriptions over graphql-ws: the same events a REST queue gets, authenticated with the
// same API key, and nothing lost across a dropped connection.
import { describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql, type Credentials } from '../support/client.ts';
import { makeUser, sendDirect, deactivate } from '../support/factories.ts';
import { validateEvent } from '../support/openapi.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ heartbeatSecs: 1 });
const { alice, bob } = useTeam(t, ['alice', 'bob']);

function wsClient(credentials?: Credentials): Client {
  return createClient({
    url: `ws://127.0.0.1:${t.port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: credentials ? { authorization: 'Basic ' + Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString('base64') } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

/** Collects events from a subscription until `count` have arrived (heartbeats skipped). */
function collect(client: Client, query: string, variables: Record<string, unknown>, count: number): Promise<{ events: any[]; errors?: unknown }> {
  return new Promise((resolve) => {
    const events: any[] = [];
    const stop = client.subscribe({ query, variables }, {
      next: (result) => {
        if (result.errors) { stop(); resolve({ events, errors: result.errors }); return; }
        const event = (result.data as any).queueEvents;
        if (event.type === 'heartbeat') return;
        events.push(event);
        if (events.length >= count) { stop(); resolve({ events }); }
      },
      error: (errors) => resolve({ events, errors }),
      complete: () => resolve({ events }),
    });
  });
}

const SUBSCRIBE = 'subscription($q: String!, $last: Int) { queueEvents(queueId: $q, lastEventId: $last) }';

async function registerQueue(user: Credentials): Promise<string> {
  const res = await graphql(t.baseUrl, 'mutation { registerEventQueue(eventTypes: ["message"], fetchEventTypes: ["realm"]) { queueId lastEventId } }', {}, user);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.registerEventQueue.queueId;
}

describe('subscription queueEvents', () => {
  it('streams the queue\'s events in Zulip\'s format', async () => {
    const queueId = await registerQueue(bob);
    const client = wsClient(bob);
    const received = collect(client, SUBSCRIBE, { q: queueId }, 1);
    await new Promise((r) => setTimeout(r, 200));
    const id = await sendDirect(t.client(alice), [bob.userId], 'over the socket');
    const { events, errors } = await received;
    await client.dispose();
    expect(errors).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'message', id: 0, message: { id, content: 'over the socket' } });
    validateEvent(events[0]);
  });

  it('loses nothing unacknowledged when the connection drops', async () => {
    const queueId = await registerQueue(bob);
    const first = wsClient(bob);
    const got = collect(first, SUBSCRIBE, { q: queueId }, 1);
    await new Promise((r) => setTimeout(r, 200));
    await sendDirect(t.client(alice), [bob.userId], 'one');
    expect((await got).events.map((e) => e.id)).toEqual([0]);
    await first.dispose();
    // While disconnected:
    await sendDirect(t.client(alice), [bob.userId], 'two');
    const second = wsClient(bob);
    const resumed = await collect(second, SUBSCRIBE, { q: queueId, last: 0 }, 1);
    await second.dispose();
    expect(resumed.events.map((e) => [e.id, e.message.content])).toEqual([[1, 'two']]);
  });

  it('answers under the field\'s alias, each result exactly the event', async () => {
    const queueId = await registerQueue(bob);
    const client = wsClient(bob);
    const results: any[] = [];
    const done = new Promise<void>((resolve) => {
      const stop = client.subscribe({ query: 'subscription($q: String!) { mine: queueEvents(queueId: $q) }', variables: { q: queueId } }, {
        next: (result) => {
          results.push(result);
          if ((result.data as any)?.mine?.type === 'message') { stop(); resolve(); }
        },
        error: () => resolve(),
        complete: () => resolve(),
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    const id = await sendDirect(t.client(alice), [bob.userId], 'aliased');
    await done;
    await client.dispose();
    const last = results.at(-1);
    expect(Object.keys(last)).toEqual(['data']);
    expect(Object.keys(last.data)).toEqual(['mine']);
    expect(last.data.mine).toMatchObject({ type: 'message', message: { id, content: 'aliased' } });
  });

  it('refuses another user\'s queue and anonymous sockets', async () => {
    const queueId = await registerQueue(bob);
    const intruder = wsClient(alice);
    const stolen = await collect(intruder, SUBSCRIBE, { q: queueId }, 1);
    await intruder.dispose();
    expect(JSON.stringify(stolen.errors)).toContain('BAD_EVENT_QUEUE_ID');
    const anonymous = wsClient();
    const anon = await collect(anonymous, SUBSCRIBE, { q: queueId }, 1);
    await anonymous.dispose();
    expect(anon.errors).toBeDefined();
  });

  it('ends when the queue is deleted, with nothing more from it', async () => {
    const queueId = await registerQueue(bob);
    const client = wsClient(bob);
    const results: any[] = [];
    let sawMessage!: () => void;
    const messageSeen = new Promise<void>((resolve) => { sawMessage = resolve; });
    const ended = new Promise<string>((resolve) => {
      client.subscribe({ query: SUBSCRIBE, variables: { q: queueId } }, {
        next: (result) => {
          results.push(result);
          if ((result.data as any)?.queueEvents?.type === 'message') sawMessage();
        },
        error: () => resolve('error'),
        complete: () => resolve('complete'),
      });
    });
    await sendDirect(t.client(alice), [bob.userId], 'before the queue goes');
    await messageSeen;
    const before = results.length;
    expect((await t.client(bob).delete('/events', { queue_id: queueId })).status).toBe(200);
    expect(await ended).toBe('complete');
    await client.dispose();
    // Neither a heartbeat nor anything else from a queue that no longer exists.
    expect(results.slice(before)).toEqual([]);
  });
});

/** Collects `count` results of a typed subscription field. */
function collectField(client: Client, query: string, variables: Record<string, unknown>, field: string, count: number): Promise<{ items: any[]; errors?: unknown }> {
  return new Promise((resolve) => {
    const items: any[] = [];
    const stop = client.subscribe({ query, variables }, {
      next: (result) => {
        if (result.errors) { stop(); resolve({ items, errors: result.errors }); return; }
        items.push((result.data as any)[field]);
        if (items.length >= count) { stop(); resolve({ items }); }
      },
      error: (errors) => resolve({ items, errors }),
      complete: () => resolve({ items }),
    });
  });
}

describe('subscription newMessages', () => {
  it('delivers typed messages the viewer receives, filtered by the narrow', async () => {
    const client = wsClient(bob);
    const got = collectField(client, 'subscription { newMessages(narrow: [{operator: "is", operand: "dm"}]) { id senderId content flags type } }', {}, 'newMessages', 1);
    await new Promise((r) => setTimeout(r, 200));
    await t.client(alice).post('/messages', { type: 'stream', to: 'general', topic: 'not a dm', content: 'skipped' });
    const id = await sendDirect(t.client(alice), [bob.userId], '**typed**');
    const { items, errors } = await got;
    await client.dispose();
    expect(errors).toBeUndefined();
    expect(items).toEqual([{ id, senderId: alice.userId, content: '<p><strong>typed</strong></p>', flags: [], type: 'private' }]);
  });

  it('never delivers messages the viewer did not receive', async () => {
    const carol = await makeUser(t, { fullName: 'Carol Singer' });
    const client = wsClient(carol);
    const got = collectField(client, 'subscription { newMessages { id content } }', {}, 'newMessages', 1);
    await new Promise((r) => setTimeout(r, 200));
    await sendDirect(t.client(alice), [bob.userId], 'not for carol');
    const mine = await sendDirect(t.client(alice), [carol.userId], 'for carol');
    const { items } = await got;
    await client.dispose();
    expect(items.map((m) => m.id)).toEqual([mine]);
  });
});

describe('subscription typingNotifications', () => {
  it('tells the recipient who is typing', async () => {
    const client = wsClient(bob);
    const got = collectField(client, 'subscription { typingNotifications { op senderId messageType recipientIds } }', {}, 'typingNotifications', 1);
    await new Promise((r) => setTimeout(r, 200));
    await t.client(alice).post('/typing', { op: 'start', to: [bob.userId] });
    const { items } = await got;
    await client.dispose();
    expect(items[0]).toMatchObject({ op: 'start', senderId: alice.userId, messageType: 'direct' });
    expect(items[0].recipientIds.sort()).toEqual([alice.userId, bob.userId].sort());
  });
});

describe('A closed subscription', () => {
  // A server with Zulip's 50-second heartbeat, so only the unsubscribe can end the wait.
  const slow = useTestServer({ heartbeatSecs: 50 });

  it('stops waiting on its queue at once, not at the next heartbeat', async () => {
    const reg = await graphql(slow.baseUrl, 'mutation { registerEventQueue(eventTypes: ["message"], fetchEventTypes: ["realm"]) { queueId } }', {}, slow.owner);
    const queueId = reg.body.data.registerEventQueue.queueId;
    const client = createClient({
      url: `ws://127.0.0.1:${slow.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0,
      connectionParams: { authorization: 'Basic ' + Buffer.from(`${slow.owner.email}:${slow.owner.apiKey}`).toString('base64') },
    });
    client.subscribe({ query: SUBSCRIBE, variables: { q: queueId } }, { next: () => {}, error: () => {}, complete: () => {} });
    const registry = slow.server.queues as unknown as { get(id: string, user: number): { waiting: number } | Promise<{ waiting: number }> };
    const waiting = async () => (await registry.get(queueId, slow.owner.userId)).waiting;
    for (let i = 0; i < 50 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await waiting()).toBe(1);
    await client.dispose();
    await new Promise((r) => setTimeout(r, 300));
    expect(await waiting()).toBe(0);
  });
});

describe('A long-lived subscription', () => {
  it('keeps only a resume window of the events it streamed', async () => {
    const reg = await graphql(t.baseUrl, 'mutation { registerEventQueue(eventTypes: ["update_message_flags"], fetchEventTypes: ["realm"]) { queueId } }', {}, bob);
    const queueId = reg.body.data.registerEventQueue.queueId;
    const client = wsClient(bob);
    const total = 1500;
    let seen = 0;
    const done = new Promise<void>((resolve) => {
      client.subscribe({ query: SUBSCRIBE, variables: { q: queueId } }, {
        next: (r) => { if ((r.data as any)?.queueEvents?.type === 'update_message_flags' && ++seen === total) resolve(); },
        error: () => resolve(), complete: () => resolve(),
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < total; i++) {
      t.server.events.publish(t.realmId, [bob.userId], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [i], all: false });
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, 10));
    }
    await done;
    // One more event makes the stream trim on its next wait.
    t.server.events.publish(t.realmId, [bob.userId], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [0], all: false });
    await new Promise((r) => setTimeout(r, 200));
    const res = await t.client(bob).get('/events', { queue_id: queueId, dont_block: true });
    await client.dispose();
    expect(seen).toBeGreaterThanOrEqual(total);
    expect(res.body.events.length).toBeLessThanOrEqual(1001);
    expect(res.body.events.at(-1).id).toBe(total);
  }, 60_000);
});

describe('graphql-ws connection_init credentials', () => {
  /** Opens a connection and reports how the server closes it (or that it acknowledged). */
  function connect(authorization?: string): Promise<{ acked: boolean; code?: number }> {
    return new Promise((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${t.port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: authorization ? { authorization } : {},
        retryAttempts: 0,
        lazy: false,
        // The client would print the CloseEvent; the close code is what the test checks.
        onNonLazyError: () => {},
        on: {
          connected: () => { resolve({ acked: true }); void client.dispose(); },
          closed: (event) => resolve({ acked: false, code: (event as { code: number }).code }),
        },
      });
    });
  }
  const basic = (email: string, key: string) => 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');

  it('refuses a bad API key, a deactivated user and a malformed header at connection_init with 4403', async () => {
    expect(await connect(basic(alice.email, 'x'.repeat(32)))).toEqual({ acked: false, code: 4403 });
    expect(await connect('Basic !!!')).toEqual({ acked: false, code: 4403 });
    const gone = await makeUser(t, { fullName: 'Gone Soon' });
    await deactivate(t, gone.userId);
    expect(await connect(basic(gone.email, gone.apiKey))).toEqual({ acked: false, code: 4403 });
  });

  it('accepts good credentials, and no credentials (spectators)', async () => {
    expect(await connect(basic(alice.email, alice.apiKey))).toEqual({ acked: true });
    expect(await connect()).toEqual({ acked: true });
  });
});

describe('graphql-ws protocol over Parley\'s sockets', () => {
  /** A raw graphql-transport-ws socket: the frames it got, and how it closed. */
  async function rawSocket(protocol: string | null = 'graphql-transport-ws') {
    const ws = new WebSocket(`ws://127.0.0.1:${t.port}/graphql`, protocol ?? undefined);
    const frames: any[] = [];
    const waiters: Array<() => void> = [];
    ws.on('message', (data) => { frames.push(JSON.parse(String(data))); for (const w of waiters.splice(0)) w(); });
    let closedWith: { code: number; reason: string } | undefined;
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => {
      resolve((closedWith = { code, reason: String(reason) }));
      for (const w of waiters.splice(0)) w();
    }));
    await new Promise((resolve) => ws.once('open', resolve));
    /** Resolves with the first frame (from the start) that matches; rejects once the socket closed without one. */
    const frame = async (match: (f: any) => boolean): Promise<any> => {
      for (;;) {
        const found = frames.find(match);
        if (found) return found;
        if (closedWith) throw new Error(`closed ${closedWith.code} ${closedWith.reason}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    const send = (message: object) => ws.send(JSON.stringify(message));
    const init = async (user: Credentials) => {
      send({ type: 'connection_init', payload: { authorization: 'Basic ' + Buffer.from(`${user.email}:${user.apiKey}`).toString('base64') } });
      await frame((f) => f.type === 'connection_ack');
    };
    return { ws, frames, closed, frame, send, init };
  }

  it('answers a query with a syntax error on its own operation, leaving the socket and its subscriptions open', async () => {
    const queueId = await registerQueue(bob);
    const socket = await rawSocket();
    await socket.init(bob);
    socket.send({ id: 'events', type: 'subscribe', payload: { query: SUBSCRIBE, variables: { q: queueId } } });
    socket.send({ id: 'broken', type: 'subscribe', payload: { query: 'subscription { queueEvents(' } });
    const error = await socket.frame((f) => f.id === 'broken');
    expect(error.type).toBe('error');
    expect(error.payload[0].message).toMatch(/^Syntax Error/);
    await sendDirect(t.client(alice), [bob.userId], 'still subscribed');
    const next = await socket.frame((f) => f.id === 'events' && f.payload?.data?.queueEvents?.type === 'message');
    expect(next.payload.data.queueEvents.message.content).toBe('still subscribed');
    socket.ws.close();
  });

  it('writes each queueEvents result as graphql-ws would: the operation ID, `next`, the event under its response key', async () => {
    const queueId = await registerQueue(bob);
    const socket = await rawSocket();
    const raw: string[] = [];
    socket.ws.on('message', (data) => raw.push(String(data)));
    await socket.init(bob);
    const id = 'op "one" \\ ü';
    socket.send({ id, type: 'subscribe', payload: { query: 'subscription($q: String!) { mine: queueEvents(queueId: $q) }', variables: { q: queueId } } });
    await new Promise((r) => setTimeout(r, 200));
    const messageId = await sendDirect(t.client(alice), [bob.userId], 'framed "exactly"');
    const next = await socket.frame((f) => f.id === id && f.payload?.data?.mine?.type === 'message');
    expect(next.payload.data.mine).toMatchObject({ type: 'message', id: 0, message: { id: messageId, content: 'framed "exactly"' } });
    validateEvent(next.payload.data.mine);
    // The text as JSON.stringify makes it: these keys, in this order, and nothing else.
    const text = raw.find((r) => JSON.parse(r).payload?.data?.mine?.type === 'message')!;
    expect(text).toBe(JSON.stringify({ id, type: 'next', payload: { data: { mine: next.payload.data.mine } } }));
    // Deleting the queue ends the operation with graphql-ws's `complete`.
    expect((await t.client(bob).delete('/events', { queue_id: queueId })).status).toBe(200);
    expect(await socket.frame((f) => f.id === id && f.type === 'complete')).toEqual({ id, type: 'complete' });
    socket.ws.close();
  });

  it('closes with 4409 on an operation ID already in use, however long the ID', async () => {
    const queueId = await registerQueue(bob);
    const socket = await rawSocket();
    await socket.init(bob);
    const id = 'x'.repeat(200);
    socket.send({ id, type: 'subscribe', payload: { query: SUBSCRIBE, variables: { q: queueId } } });
    socket.send({ id, type: 'subscribe', payload: { query: SUBSCRIBE, variables: { q: queueId } } });
    const { code, reason } = await socket.closed;
    expect(code).toBe(4409);
    expect(reason).toMatch(/^Subscriber for x+…$/);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });

  it('answers the protocol\'s ping with a pong carrying its payload, before and after connection_init', async () => {
    const socket = await rawSocket();
    socket.send({ type: 'ping', payload: { n: 1 } });
    expect(await socket.frame((f) => f.type === 'pong')).toEqual({ type: 'pong', payload: { n: 1 } });
    await socket.init(bob);
    socket.send({ type: 'ping' });
    await socket.frame((f) => f.type === 'pong' && !('payload' in f));
    socket.ws.close();
  });

  it('closes a socket that sends a message over 1 MiB with 1009 (too big), before reading it', async () => {
    const socket = await rawSocket();
    socket.send({ type: 'connection_init', payload: { padding: 'x'.repeat(1024 * 1024) } });
    expect((await socket.closed).code).toBe(1009);
    // A large operation below the limit is read as usual.
    const other = await rawSocket();
    await other.init(bob);
    other.send({ id: 'q', type: 'subscribe', payload: { query: `{ me { userId } } # ${'x'.repeat(512 * 1024)}` } });
    expect((await other.frame((f) => f.id === 'q' && f.type === 'next')).payload.data.me.userId).toBe(bob.userId);
    other.ws.close();
  });

  it('closes a socket without the graphql-transport-ws subprotocol with 4406', async () => {
    const socket = await rawSocket(null);
    expect((await socket.closed).code).toBe(4406);
  });
});
