// The send path's caches (resolvers/row-cache.ts) across two server processes sharing one database
// and one Redis: a change made through process A is seen by the very next request to process B,
// which had the old rows cached. Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ApiClient, type Credentials } from '../support/client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { createScratchDatabase } from '../../prisma/scratch-database.ts';

const pgBase = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const OWNER = { email: 'owner@example.com', password: 'row-caches-password' };

describe.skipIf(!pgBase || !redisUrl)('Cached credentials and subscribers across two processes (PostgreSQL + Redis)', () => {
  const redisPrefix = uniqueRedisPrefix('rowcaches');
  let dropDatabase: () => Promise<void> = async () => {};
  let a: ServerProcess;
  let b: ServerProcess;
  let owner: Credentials;
  let counter = 0;

  const on = (proc: ServerProcess, user?: Credentials) => new ApiClient(proc.baseUrl, user);

  async function login(email: string, password: string): Promise<Credentials> {
    const key = await on(a).post('/fetch_api_key', { username: email, password });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
  }

  /** A new member, whose credentials process B has cached. */
  async function cachedOnB(): Promise<Credentials> {
    const email = `user${++counter}@example.com`;
    expect((await on(a, owner).post('/users', { email, password: `pw-${email}-x`, full_name: `User ${counter}` })).status).toBe(200);
    const user = await login(email, `pw-${email}-x`);
    for (let i = 0; i < 2; i++) expect((await on(b, user).get('/users/me')).status).toBe(200);
    return user;
  }

  beforeAll(async () => {
    const scratch = await createScratchDatabase(pgBase!, 'parley_test_rowcache');
    dropDatabase = scratch.drop;
    const env = {
      DATABASE_URL: scratch.url, REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: redisPrefix,
      PARLEY_ADMIN_EMAIL: OWNER.email, PARLEY_ADMIN_PASSWORD: OWNER.password,
    };
    // One after the other: the first applies the migrations and creates the organization.
    a = await startServerProcess('A', env);
    b = await startServerProcess('B', env);
    // Before the owner's first authenticated request, so neither process has the row cached.
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    await client.query(`UPDATE "User" SET "canChangeUserEmails" = true WHERE "deliveryEmail" = $1`, [OWNER.email]);
    await client.end();
    owner = await login(OWNER.email, OWNER.password);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase();
    if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
  });

  it('refuses on B an API key regenerated on A', async () => {
    const user = await cachedOnB();
    const regenerated = await on(a, user).post('/users/me/api_key/regenerate');
    expect(regenerated.status).toBe(200);
    expect((await on(b, user).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    expect((await on(b, { ...user, apiKey: regenerated.body.api_key }).get('/users/me')).status).toBe(200);
  });

  it('refuses on B a user deactivated on A', async () => {
    const user = await cachedOnB();
    expect((await on(a, owner).delete(`/users/${user.userId}`)).status).toBe(200);
    expect((await on(b, user).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
  });

  it('applies on B a role given on A', async () => {
    const user = await cachedOnB();
    const target = await cachedOnB();
    expect((await on(b, user).delete(`/users/${target.userId}`)).body).toMatchObject({ msg: 'Must be an organization administrator' });
    expect((await on(a, owner).patch(`/users/${user.userId}`, { role: 200 })).status).toBe(200);
    expect((await on(b, user).delete(`/users/${target.userId}`)).status).toBe(200);
  });

  it('follows on B an e-mail address changed on A', async () => {
    const user = await cachedOnB();
    const email = `moved${user.userId}@example.com`;
    expect((await on(a, owner).patch(`/users/${user.userId}`, { new_email: email })).status).toBe(200);
    expect((await on(b, user).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    expect((await on(b, { ...user, email }).get('/users/me')).status).toBe(200);
  });

  it('delivers a message sent through B to a subscriber added through A', async () => {
    const sender = await cachedOnB();
    expect((await on(b, sender).post('/users/me/subscriptions', { subscriptions: [{ name: 'shared' }] })).status).toBe(200);
    expect((await on(b, sender).post('/messages', { type: 'channel', to: 'shared', topic: 't', content: 'before' })).status).toBe(200);
    const late = await cachedOnB();
    expect((await on(a, late).post('/users/me/subscriptions', { subscriptions: [{ name: 'shared' }] })).status).toBe(200);
    const sent = await on(b, sender).post('/messages', { type: 'channel', to: 'shared', topic: 't', content: 'after' });
    expect(sent.status).toBe(200);
    // Flags, not `historical`: the message reached the new subscriber.
    expect((await on(a, late).get(`/messages/${sent.body.id}`)).body.message.flags).toEqual([]);
  });
});
