// Two real server processes (`node --import tsx main.ts`) on one PostgreSQL database and one Redis,
// both running the delivery worker at a short poll interval over many due messages at once: each
// message is sent exactly once (rows are claimed with SELECT … FOR UPDATE SKIP LOCKED).
// Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { ApiClient, type Credentials } from '../support/client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { testDatabase } from '../support/databases.ts';

const pgBase = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const OWNER = { email: 'owner@example.com', password: 'scheduled-multi-process' };
const COUNT = 60;

let databaseUrl: string;
let dropDatabase: () => Promise<void> = async () => {};
const redisPrefix = uniqueRedisPrefix('scheduled-mp');
const children: ServerProcess[] = [];
// Fresh connections: a kept-alive socket the server is just closing would fail a request spuriously.
http.globalAgent = new http.Agent({ keepAlive: false });

async function startProcess(name: string): Promise<string> {
  const proc = await startServerProcess(name, {
    DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: redisPrefix,
    PARLEY_ADMIN_EMAIL: OWNER.email, PARLEY_ADMIN_PASSWORD: OWNER.password, PARLEY_SCHEDULED_POLL_MS: '20',
  });
  children.push(proc);
  return proc.baseUrl;
}

async function stopAll(): Promise<void> {
  await Promise.all(children.map((proc) => proc.stop()));
}

async function sql<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function login(baseUrl: string, email: string, password: string): Promise<Credentials> {
  const key = await new ApiClient(baseUrl).post('/fetch_api_key', { username: email, password });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
}

describe.skipIf(!pgBase || !redisUrl)('Scheduled delivery across two server processes (PostgreSQL + Redis)', () => {
  let a: string;
  let b: string;

  beforeAll(async () => {
    const scratch = await testDatabase(pgBase!, 'smp');
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
    a = await startProcess('A');
    b = await startProcess('B');
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    await dropDatabase();
    if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
  });

  it('delivers each of many due messages exactly once', async () => {
    const owner = await login(a, OWNER.email, OWNER.password);
    const users: Credentials[] = [];
    for (const name of ['sam', 'tia', 'uma']) {
      const email = `${name}@example.com`;
      expect((await new ApiClient(a, owner).post('/users', { email, password: `pw-${email}`, full_name: name })).status).toBe(200);
      users.push(await login(b, email, `pw-${email}`));
    }
    const [sam, tia, uma] = users as [Credentials, Credentials, Credentials];
    const channel = await new ApiClient(a, sam).post('/users/me/subscriptions', { subscriptions: [{ name: 'busy' }], principals: [sam.userId, tia.userId] });
    expect(channel.status).toBe(200);
    const channelId = (await new ApiClient(a, sam).get('/get_stream_id', { stream: 'busy' })).body.stream_id;

    // Channel messages and direct messages (to conversations that do not exist yet), from both processes.
    const later = Math.floor(Date.now() / 1000) + 3600;
    const ids: number[] = [];
    for (let i = 0; i < COUNT; i++) {
      const via = new ApiClient(i % 2 ? a : b, i % 3 ? sam : tia);
      const params = i % 4 === 0
        ? { type: 'direct', to: [uma.userId], content: `scheduled #${i}` }
        : { type: 'channel', to: channelId, topic: `topic ${i % 5}`, content: `scheduled #${i}` };
      const res = await via.post('/scheduled_messages', { ...params, scheduled_delivery_timestamp: later });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(res.body.scheduled_message_id);
    }
    // All due at the same moment: both workers race for them.
    await sql('UPDATE "ScheduledMessage" SET "scheduledTimestamp" = $1::timestamp(3) WHERE id = ANY($2::int[])', [new Date(Date.now() - 1000).toISOString(), ids]);

    let pending = COUNT;
    for (let i = 0; i < 600 && pending > 0; i++) {
      const [row] = await sql<{ pending: number }>('SELECT count(*)::int AS pending FROM "ScheduledMessage" WHERE delivered = false AND failed = false');
      pending = row!.pending;
      if (pending > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pending).toBe(0);

    const rows = await sql<{ id: number; delivered: boolean; failed: boolean; deliveredMessageId: number }>(
      'SELECT id, delivered, failed, "deliveredMessageId" FROM "ScheduledMessage" WHERE id = ANY($1::int[])', [ids]);
    expect(rows.filter((r) => !r.delivered || r.failed)).toEqual([]);
    expect(new Set(rows.map((r) => r.deliveredMessageId)).size).toBe(COUNT);
    const sent = await sql<{ content: string; copies: number }>(
      `SELECT content, count(*)::int AS copies FROM "Message" WHERE content LIKE 'scheduled #%' GROUP BY content`);
    expect(sent).toHaveLength(COUNT);
    expect(sent.filter((m) => m.copies !== 1)).toEqual([]);

    // Through the API too: the recipient of the direct messages sees each once.
    const got = await new ApiClient(b, uma).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] });
    const contents = got.body.messages.map((m: any) => m.content);
    expect(contents.length).toBe(new Set(contents).size);
    expect(contents.length).toBe(Math.ceil(COUNT / 4));
  }, 180_000);
});
