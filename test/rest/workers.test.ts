// PARLEY_WORKERS=2 (server/workers.ts): one command, two server processes on one port, sharing
// events and queues through Redis. Connections go to the workers in turn; the request log
// (PARLEY_LOG_REQUESTS, each line prefixed by its worker) says which one served what.
// The cluster needs TEST_DATABASE_URL and TEST_REDIS_URL; the refusals need neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ApiClient, type Credentials } from '../support/client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { createScratchDatabase } from '../../prisma/scratch-database.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pgBase = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const OWNER = { email: 'owner@example.com', password: 'workers-test-password' };

/** Runs main.ts to its end with `env`: how it refuses a configuration. */
function runMain(env: Record<string, string>): { code: number | null; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: ROOT, encoding: 'utf8', timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', DATABASE_URL: '', REDIS_URL: '', ...env },
  });
  return { code: result.status, stderr: result.stderr };
}

describe('PARLEY_WORKERS refusals', () => {
  it('refuses several workers without REDIS_URL and DATABASE_URL, saying what is missing', () => {
    const both = runMain({ PARLEY_WORKERS: '2', PARLEY_DATA_DIR: 'memory://' });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('cannot start: PARLEY_WORKERS=2 needs REDIS_URL');
    expect(both.stderr).toContain('and DATABASE_URL (PGlite serves one process)');
    const noRedis = runMain({ PARLEY_WORKERS: '2', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' });
    expect(noRedis.code).toBe(1);
    expect(noRedis.stderr).toMatch(/needs REDIS_URL \(the workers share events, event queues and rate limits through Redis\)\n/);
  });

  it('refuses a count that is not a whole number', () => {
    const bad = runMain({ PARLEY_WORKERS: 'two', PARLEY_DATA_DIR: 'memory://' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('PARLEY_WORKERS must be a whole number, at least 1');
  });
});

describe.skipIf(!pgBase || !redisUrl)('PARLEY_WORKERS=2 (PostgreSQL + Redis)', () => {
  let cluster: ServerProcess;
  let dropDatabase: () => Promise<void> = async () => {};
  const redisPrefix = uniqueRedisPrefix('workers');
  let alice: Credentials;
  let bob: Credentials;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(pgBase!, 'parley_test_workers');
    dropDatabase = scratch.drop;
    cluster = await startServerProcess('workers', {
      PARLEY_WORKERS: '2', DATABASE_URL: scratch.url, REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: redisPrefix,
      PARLEY_ADMIN_EMAIL: OWNER.email, PARLEY_ADMIN_PASSWORD: OWNER.password, PARLEY_LOG_REQUESTS: '1',
    });
    const login = async (email: string, password: string) => {
      const key = await new ApiClient(cluster.baseUrl).post('/fetch_api_key', { username: email, password });
      expect(key.status, JSON.stringify(key.body)).toBe(200);
      return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id } as Credentials;
    };
    const owner = await login(OWNER.email, OWNER.password);
    for (const name of ['alice', 'bob']) {
      const email = `${name}@example.com`;
      expect((await new ApiClient(cluster.baseUrl, owner).post('/users', { email, password: `pw-${name}-workers`, full_name: name })).status).toBe(200);
    }
    alice = await login('alice@example.com', 'pw-alice-workers');
    bob = await login('bob@example.com', 'pw-bob-workers');
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await dropDatabase();
    if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
  });

  /** The workers (`w1`, `w2`) that logged `method path` so far. */
  const servedBy = (method: string, path: string) =>
    new Set([...cluster.output.join('').matchAll(/\[parley (w\d+)\] (\S+) (\S+)\n/g)].filter((m) => m[2] === method && m[3] === path).map((m) => m[1]));

  it('starts two workers on one port, announced once', () => {
    const out = cluster.output.join('');
    expect(out).toMatch(/\[parley\] 2 worker processes \(pids \d+, \d+\) share the port/);
    expect(out.match(/REST API: /g)).toHaveLength(1);
  });

  it('serves from both workers, which share the event queues', async () => {
    const reg = await new ApiClient(cluster.baseUrl, bob).post('/register', { event_types: ['message'] });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    // Each request is a connection of its own, handed to the workers in turn.
    const sent: number[] = [];
    const polled: number[][] = [];
    for (let i = 0; i < 6; i++) {
      // Sends and polls alternate, so every other round shifts them by one connection.
      if (i % 2) expect((await new ApiClient(cluster.baseUrl, alice).get('/users/me')).status).toBe(200);
      const res = await new ApiClient(cluster.baseUrl, alice).post('/messages', { type: 'direct', to: [bob.userId], content: `message ${i}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      sent.push(res.body.id);
      const events = await new ApiClient(cluster.baseUrl, bob).get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
      expect(events.status, JSON.stringify(events.body)).toBe(200);
      polled.push(events.body.events.map((e: { message: { id: number } }) => e.message.id));
    }
    // Every poll saw every message sent so far, whichever worker sent it and whichever answered.
    expect(polled).toEqual(sent.map((_, i) => sent.slice(0, i + 1)));
    expect(servedBy('POST', '/api/v1/messages')).toEqual(new Set(['w1', 'w2']));
    expect(servedBy('GET', '/api/v1/events')).toEqual(new Set(['w1', 'w2']));
  });

  it('stops both workers on SIGTERM, then itself, with exit code 0', async () => {
    expect(await cluster.stop()).toBe(0);
    const out = cluster.output.join('');
    expect(out).toContain('[parley w1] stopped');
    expect(out).toContain('[parley w2] stopped');
    expect(out).toMatch(/\[parley\] stopped\n/);
  });
});
