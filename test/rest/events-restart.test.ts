// A graceful restart keeps event queues: clients resume polling without BAD_EVENT_QUEUE_ID.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScratchDatabase } from '../../prisma/scratch-database.ts';
import { testDatabase } from '../support/databases.ts';
import { createParleyServer, type ParleyServer } from '../../server/app.ts';
import { configFromEnv, type Config } from '../../server/config.ts';
import { ApiClient } from '../support/client.ts';
import { openDatabase } from '../../prisma/database.ts';
import { QUEUE_FORMAT_VERSION } from '../../resolvers/events/queue.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-restart-'));
let scratch: ScratchDatabase | null = null;
// With TEST_REDIS_URL the queues live in Redis, which both server generations share.
const redisUrl = process.env.TEST_REDIS_URL || undefined;
const redisPrefix = uniqueRedisPrefix('restart');

async function config(): Promise<Config> {
  const base: Config = { ...configFromEnv({}), dataDir: dir, adminEmail: 'owner@example.com', adminPassword: 'restart-password', heartbeatSecs: 1, redisUrl, redisPrefix };
  const pgBase = process.env.TEST_DATABASE_URL;
  if (!pgBase) return base;
  scratch ??= await testDatabase(pgBase, 'restart');
  return { ...base, databaseUrl: scratch.url };
}

async function start(): Promise<{ server: ParleyServer; client: ApiClient }> {
  const server = await createParleyServer(await config(), () => {});
  const port = await server.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const key = await new ApiClient(base).post('/fetch_api_key', { username: 'owner@example.com', password: 'restart-password' });
  return { server, client: new ApiClient(base, { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id }) };
}

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
  await scratch?.drop();
});

describe('Event queues across a graceful restart', () => {
  it('keep their unacknowledged events and their IDs', async () => {
    const first = await start();
    const reg = await first.client.post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
    const queueId = reg.body.queue_id;
    await first.client.post('/messages', { type: 'direct', to: [first.client.credentials!.userId], content: 'before restart' });
    await first.server.close();

    const second = await start();
    try {
      const res = await second.client.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      expect(res.status).toBe(200);
      expect(res.body.events.map((e: { id: number; message: { content: string } }) => [e.id, e.message.content])).toEqual([[0, 'before restart']]);
      // New events continue the numbering.
      await second.client.post('/messages', { type: 'direct', to: [second.client.credentials!.userId], content: 'after restart' });
      const next = await second.client.get('/events', { queue_id: queueId, last_event_id: 0, dont_block: true });
      expect(next.body.events.map((e: { id: number }) => e.id)).toEqual([1]);
    } finally {
      await second.server.close();
    }
  }, 60_000);

  // Redis keeps its own queues; the database snapshots are the in-process registry's.
  it.skipIf(Boolean(redisUrl))('are dropped when saved in another format, so their clients register again', async () => {
    const first = await start();
    const reg = await first.client.post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
    await first.server.close();
    // A snapshot from a server whose queue format differed (an older version of Parley).
    const reopened = await openDatabase({ url: (await config()).databaseUrl, dataDir: dir, log: () => {} });
    const [row] = await reopened.prisma.persistedEventQueue.findMany({ where: { id: reg.body.queue_id } });
    expect(row).toBeDefined();
    await reopened.prisma.persistedEventQueue.update({ where: { id: row!.id }, data: { data: { ...(row!.data as object), formatVersion: QUEUE_FORMAT_VERSION - 1 } } });
    await reopened.close();

    const second = await start();
    try {
      const res = await second.client.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_EVENT_QUEUE_ID');
      expect(await second.server.database.prisma.persistedEventQueue.count()).toBe(0);
    } finally {
      await second.server.close();
    }
  }, 60_000);
});
