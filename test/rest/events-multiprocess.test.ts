// Two real server processes (`node --import tsx main.ts`) sharing one PostgreSQL database and one
// Redis: events raised on either reach queues and subscriptions on both, a queue can be polled
// through either (no sticky sessions), and a graceful restart of one keeps the queue.
// Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ApiClient, type Credentials } from '../support/client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { createScratchDatabase } from '../../prisma/scratch-database.ts';

const pgBase = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const OWNER = { email: 'owner@example.com', password: 'multi-process-password' };

let databaseUrl: string;
let dropDatabase: () => Promise<void> = async () => {};
const redisPrefix = uniqueRedisPrefix('multiprocess');
const running = new Set<ServerProcess>();

/** Starts a server process sharing this test's database and Redis. */
async function startProcess(name: string): Promise<ServerProcess> {
  const started = await startServerProcess(name, {
    DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: redisPrefix,
    PARLEY_ADMIN_EMAIL: OWNER.email, PARLEY_ADMIN_PASSWORD: OWNER.password, PARLEY_HEARTBEAT_SECS: '2',
  });
  const proc: ServerProcess = {
    ...started,
    stop: async () => {
      const code = await started.stop();
      running.delete(proc);
      return code;
    },
  };
  running.add(proc);
  return proc;
}

/** A database of its own on the PostgreSQL server at `base`, shared by this test's processes. */
async function freshDatabase(base: string): Promise<void> {
  const scratch = await createScratchDatabase(base, 'parley_test_mp');
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
}

async function login(baseUrl: string, email: string, password: string): Promise<Credentials> {
  const key = await new ApiClient(baseUrl).post('/fetch_api_key', { username: email, password });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
}

async function makeUser(baseUrl: string, owner: Credentials, fullName: string): Promise<Credentials> {
  const email = `${fullName.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const created = await new ApiClient(baseUrl, owner).post('/users', { email, password: `pw-${email}`, full_name: fullName });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return login(baseUrl, email, `pw-${email}`);
}

function wsClient(baseUrl: string, user: Credentials): Client {
  return createClient({
    url: `${baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: 'Basic ' + Buffer.from(`${user.email}:${user.apiKey}`).toString('base64') },
    retryAttempts: 0,
    lazy: true,
  });
}

/** The first non-heartbeat result of a subscription field. */
function firstResult(client: Client, query: string, field: string, variables: Record<string, unknown> = {}): Promise<any> {
  return new Promise((resolve, reject) => {
    const stop = client.subscribe({ query, variables }, {
      next: (result) => {
        if (result.errors) { stop(); reject(new Error(JSON.stringify(result.errors))); return; }
        const value = (result.data as any)[field];
        if (value?.type === 'heartbeat') return;
        stop();
        resolve(value);
      },
      error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
      complete: () => {},
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!pgBase || !redisUrl)('Event queues across two server processes (PostgreSQL + Redis)', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let alice: Credentials;
  let bob: Credentials;

  beforeAll(async () => {
    await freshDatabase(pgBase!);
    // One after the other: the first applies the migrations and creates the organization.
    a = await startProcess('A');
    b = await startProcess('B');
    const owner = await login(a.baseUrl, OWNER.email, OWNER.password);
    alice = await makeUser(a.baseUrl, owner, 'Alice Liddell');
    bob = await makeUser(b.baseUrl, owner, 'Bob Builder');
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...running].map((proc) => proc.stop()));
    await dropDatabase();
    if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
  });

  const on = (proc: ServerProcess, user: Credentials) => new ApiClient(proc.baseUrl, user);
  const send = (proc: ServerProcess, content: string) =>
    on(proc, alice).post('/messages', { type: 'direct', to: [bob.userId], content });

  it('shares one queue between processes: delivery, long-polls, acknowledgement, subscriptions, restart', async () => {
    const reg = await on(a, bob).post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    const queueId: string = reg.body.queue_id;

    // A long-poll waiting on A is woken by a message sent through B.
    const waitingOnA = on(a, bob).get('/events', { queue_id: queueId, last_event_id: -1 });
    await sleep(300);
    expect((await send(b, 'from B to a poll on A')).status).toBe(200);
    const woken = await waitingOnA;
    expect(woken.status).toBe(200);
    expect(woken.body.events.map((e: any) => [e.id, e.type, e.message?.content])).toEqual([[0, 'message', 'from B to a poll on A']]);

    // The same queue answers through B, and an acknowledgement made through B holds on A.
    const throughB = await on(b, bob).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(throughB.body.events.map((e: any) => e.id)).toEqual([0]);
    expect((await on(b, bob).get('/events', { queue_id: queueId, last_event_id: 0, dont_block: true })).body.events).toEqual([]);
    expect((await on(a, bob).get('/events', { queue_id: queueId, dont_block: true })).body.events).toEqual([]);

    // A long-poll through B gets a message sent through A.
    const waitingOnB = on(b, bob).get('/events', { queue_id: queueId, last_event_id: 0 });
    await sleep(300);
    await send(a, 'from A to a poll on B');
    expect((await waitingOnB).body.events.map((e: any) => [e.id, e.message?.content])).toEqual([[1, 'from A to a poll on B']]);

    // GraphQL subscriptions on A see an event raised on B: the queue's, and the bus's typed one.
    const socket = wsClient(a.baseUrl, bob);
    try {
      const queued = firstResult(socket, 'subscription($q: String!, $last: Int) { queueEvents(queueId: $q, lastEventId: $last) }', 'queueEvents', { q: queueId, last: 1 });
      const typed = firstResult(socket, 'subscription { newMessages { id content } }', 'newMessages');
      await sleep(500);
      const sent = await send(b, 'from B to subscriptions on A');
      expect(await queued).toMatchObject({ id: 2, type: 'message', message: { id: sent.body.id, content: 'from B to subscriptions on A' } });
      expect(await typed).toEqual({ id: sent.body.id, content: '<p>from B to subscriptions on A</p>' });
    } finally {
      await socket.dispose();
    }

    // A graceful restart of A: its waiting poll is answered, and the queue goes on, events raised
    // meanwhile through B included, with the same IDs.
    const pollDuringShutdown = on(a, bob).get('/events', { queue_id: queueId, last_event_id: 2 });
    await sleep(300);
    expect(await a.stop()).toBe(0);
    const answered = await pollDuringShutdown;
    expect(answered.status).toBe(200);
    expect(answered.body.events.map((e: any) => e.type)).toEqual(['heartbeat']);
    const heartbeatId: number = answered.body.events[0].id;
    await send(b, 'while A is down');
    a = await startProcess('A again');
    const resumed = await on(a, bob).get('/events', { queue_id: queueId, last_event_id: heartbeatId, dont_block: true });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.events.map((e: any) => [e.id, e.message?.content])).toEqual([[heartbeatId + 1, 'while A is down']]);

    // Deleting through one process removes the queue for all.
    expect((await on(a, bob).delete('/events', { queue_id: queueId })).status).toBe(200);
    const gone = await on(b, bob).get('/events', { queue_id: queueId, dont_block: true });
    expect(gone.body.code).toBe('BAD_EVENT_QUEUE_ID');
  }, 120_000);

  it('wakes a long-poll on another process when its queue is deleted', async () => {
    const reg = await on(b, bob).post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
    const queueId: string = reg.body.queue_id;
    const started = Date.now();
    const waiting = on(b, bob).get('/events', { queue_id: queueId, last_event_id: -1 });
    await sleep(300);
    expect((await on(a, bob).delete('/events', { queue_id: queueId })).status).toBe(200);
    const answered = await waiting;
    // Answered at once (well before the 2-second heartbeat), with nothing.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(answered.status).toBe(200);
    expect(answered.body.events).toEqual([]);
  }, 60_000);
});
