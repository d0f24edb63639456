// Rate limits across two real server processes sharing one PostgreSQL database and one Redis: the
// counters live in Redis, so a user's requests count the same whichever process answers them.
// Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type Credentials } from '../support/client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { createScratchDatabase } from '../../prisma/scratch-database.ts';

const pgBase = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const OWNER = { email: 'owner@example.com', password: 'rate-limit-password' };
const PER_USER = 10;

const redisPrefix = uniqueRedisPrefix('ratelimits');
let dropDatabase: () => Promise<void> = async () => {};
const running: ServerProcess[] = [];

async function freshDatabase(base: string): Promise<string> {
  const scratch = await createScratchDatabase(base, 'parley_test_rl');
  dropDatabase = scratch.drop;
  return scratch.url;
}

describe.skipIf(!pgBase || !redisUrl)('rate limits across two server processes (PostgreSQL + Redis)', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let owner: Credentials;

  beforeAll(async () => {
    const databaseUrl = await freshDatabase(pgBase!);
    const env = {
      DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: redisPrefix,
      PARLEY_ADMIN_EMAIL: OWNER.email, PARLEY_ADMIN_PASSWORD: OWNER.password,
      PARLEY_RATE_LIMITING: '1', PARLEY_RATE_LIMIT_API_BY_USER: `${PER_USER}/60`, PARLEY_RATE_LIMIT_AUTHENTICATE_BY_USERNAME: '3/1800',
    };
    // One after the other: the first applies the migrations and creates the organization.
    running.push((a = await startServerProcess('A', env)));
    running.push((b = await startServerProcess('B', env)));
    const key = await new ApiClient(a.baseUrl).post('/fetch_api_key', { username: OWNER.email, password: OWNER.password });
    expect(key.status).toBe(200);
    owner = { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
  }, 180_000);

  afterAll(async () => {
    for (const proc of running) await proc.stop();
    await dropDatabase();
    if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
  });

  it("one user's requests count once, whichever process answers them", async () => {
    const clients = [new ApiClient(a.baseUrl, owner), new ApiClient(b.baseUrl, owner)];
    for (let i = 1; i <= PER_USER; i++) {
      const res = await clients[i % 2]!.get('/users/me');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(PER_USER - i));
    }
    for (const client of clients) {
      const refused = await client.get('/users/me');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('login attempts against one account add up across processes', async () => {
    const [onA, onB] = [new ApiClient(a.baseUrl), new ApiClient(b.baseUrl)];
    expect((await onA.post('/fetch_api_key', { username: OWNER.email, password: 'wrong' })).status).toBe(401);
    expect((await onB.post('/fetch_api_key', { username: OWNER.email, password: 'wrong' })).status).toBe(401);
    expect((await onA.post('/fetch_api_key', { username: OWNER.email, password: 'wrong' })).status).toBe(401);
    const locked = await onB.post('/fetch_api_key', { username: OWNER.email, password: OWNER.password });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('RATE_LIMIT_HIT');
  });
});
