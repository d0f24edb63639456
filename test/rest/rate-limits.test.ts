// Zulip's rate limits (server/rate-limits.ts): requests per user (REST, GraphQL and WebSocket
// operations alike), requests per IP address without credentials, login attempts per account,
// address-change confirmations and event queues per user; answered with HTTP 429, RATE_LIMIT_HIT, `retry-after` and Zulip's
// X-RateLimit-* headers. Off in the rest of the suite; on here, with small limits.
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ApiClient, graphql, type Credentials } from '../support/client.ts';
import { makeUser } from '../support/factories.ts';
import { DEFAULT_RATE_LIMITS } from '../../server/rate-limits.ts';
import { configFromEnv } from '../../server/config.ts';
import { useTestServer } from '../support/fixtures.ts';

const PER_USER = 12;
const PER_IP = 40;
const LOGIN_ATTEMPTS = 3;
const QUEUES = 3;

const t = useTestServer({
  rateLimits: {
    enabled: true,
    apiByUser: { requests: PER_USER, seconds: 60 },
    apiByIp: { requests: PER_IP, seconds: 60 },
    authenticateByUsername: { requests: LOGIN_ATTEMPTS, seconds: 1800 },
    emailChangeByUser: { requests: 2, seconds: 3600 },
    maxEventQueuesPerUser: QUEUES,
  },
});
const users: Credentials[] = [];

beforeAll(async () => {
  // Each test has users of its own, so their counts start at zero.
  for (let i = 0; i < 7; i++) users.push(await makeUser(t));
});

function expectRateLimited(res: { status: number; headers: Record<string, unknown>; body: any }, msg = 'API usage exceeded rate limit') {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toEqual({ result: 'error', code: 'RATE_LIMIT_HIT', msg, 'retry-after': expect.any(Number) });
  expect(res.body['retry-after']).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBe(res.body['retry-after']);
}

describe('requests per user (Zulip: 200 a minute)', () => {
  it('counts down in X-RateLimit-* headers, then answers 429 with retry-after', async () => {
    const client = t.client(users[0]);
    const before = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= PER_USER; i++) {
      const res = await client.get('/users/me');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(PER_USER));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(PER_USER - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(before);
      expect(reset).toBeLessThanOrEqual(before + 61);
    }
    const refused = await client.get('/users/me');
    expectRateLimited(refused);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.body['retry-after']).toBeLessThanOrEqual(60);
    // Another user is not affected.
    expect((await t.client(users[1]).get('/users/me')).status).toBe(200);
  });

  it('GraphQL over HTTP and WebSocket operations count against the same limit', async () => {
    const user = users[2]!;
    for (let i = 0; i < PER_USER - 1; i++) expect((await t.client(user).get('/users/me')).status).toBe(200);
    const last = await graphql(t.baseUrl, '{ me { userId } }', {}, user);
    expect(last.status).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await graphql(t.baseUrl, '{ me { userId } }', {}, user);
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMIT_HIT', zulip: { 'retry-after': expect.any(Number) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const ws = createClient({
      url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, lazy: true, retryAttempts: 0,
      connectionParams: { authorization: 'Basic ' + Buffer.from(`${user.email}:${user.apiKey}`).toString('base64') },
    });
    try {
      const result = await new Promise<any>((resolve) => {
        ws.subscribe({ query: '{ me { userId } }' }, { next: resolve, error: resolve, complete: () => {} });
      });
      const errors = Array.isArray(result) ? result : result.errors;
      expect(errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_HIT');
    } finally {
      await ws.dispose();
    }
  });
});

describe('login attempts per account (Zulip: 5 in 30 minutes)', () => {
  it('locks the account after the limit, even for the right password; other accounts still log in', async () => {
    const victim = users[3]!;
    const anonymous = t.client();
    for (let i = 0; i < LOGIN_ATTEMPTS; i++) {
      const wrong = await anonymous.post('/fetch_api_key', { username: victim.email, password: `guess-${i}` });
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('AUTHENTICATION_FAILED');
    }
    expectRateLimited(await anonymous.post('/fetch_api_key', { username: victim.email, password: 'pw-' + victim.email }));
    // Case does not make another account of it.
    expectRateLimited(await anonymous.post('/fetch_api_key', { username: victim.email.toUpperCase(), password: 'x' }));
    // GraphQL's fetchApiKey counts the same attempts.
    const viaGraphql = await graphql(t.baseUrl, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey } }', { u: victim.email, p: 'x' });
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_HIT');
    const other = users[4]!;
    expect((await anonymous.post('/fetch_api_key', { username: other.email, password: 'pw-' + other.email })).status).toBe(200);
  });

  it('a successful login forgets the failed attempts before it', async () => {
    const user = users[4]!;
    const anonymous = t.client();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_ATTEMPTS - 1; i++) expect((await anonymous.post('/fetch_api_key', { username: user.email, password: 'wrong' })).status).toBe(401);
      expect((await anonymous.post('/fetch_api_key', { username: user.email, password: 'pw-' + user.email })).status).toBe(200);
    }
  });
});

describe('event queues per user', () => {
  it(`refuses a queue beyond ${QUEUES} with RATE_LIMIT_HIT until one is deleted`, async () => {
    const user = await makeUser(t);
    const client = t.client(user);
    const queues: string[] = [];
    for (let i = 0; i < QUEUES; i++) {
      const res = await client.post('/register', { event_types: '["message"]' });
      expect(res.status).toBe(200);
      queues.push(res.body.queue_id);
    }
    const refused = await client.post('/register', { event_types: '["message"]' });
    expectRateLimited(refused, `Too many event queues (limit: ${QUEUES}); delete one or let one expire`);
    // The first queue becomes idle in about 10 minutes.
    expect(refused.body['retry-after']).toBeGreaterThan(500);
    expect(refused.body['retry-after']).toBeLessThanOrEqual(600);
    expect((await client.delete('/events', { queue_id: queues[0] })).status).toBe(200);
    expect((await client.post('/register', { event_types: '["message"]' })).status).toBe(200);
  });
});

describe('address-change confirmations per user (Zulip: 2 an hour)', () => {
  it('refuses a third PATCH /settings email within the hour, through GraphQL too', async () => {
    const user = users[5]!;
    const client = t.client(user);
    // A refused address is not counted.
    expect((await client.patch('/settings', { email: 'not an address' })).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await client.patch('/settings', { email: `moving${i}-${user.userId}@example.com` })).status).toBe(200);
    expectRateLimited(await client.patch('/settings', { email: `moving2-${user.userId}@example.com` }));
    const gql = await graphql(t.baseUrl, 'mutation { updateSettings(email: "moving3@example.com") { timezone } }', {}, user);
    expect(gql.body.errors?.[0]).toMatchObject({ message: 'API usage exceeded rate limit', extensions: { code: 'RATE_LIMIT_HIT' } });
    // Other settings still change, and the limit is the sender's alone.
    expect((await client.patch('/settings', { enter_sends: true })).status).toBe(200);
    const other = users[6]!;
    expect((await t.client(other).patch('/settings', { email: `moving-${other.userId}@example.com` })).status).toBe(200);
  });
});

describe('requests per IP address without credentials (Zulip: 100 a minute)', () => {
  it('counts every request without accepted credentials, refused ones included', async () => {
    const anonymous = new ApiClient(t.baseUrl);
    let res = await anonymous.get('/server_settings');
    expect(res.headers['x-ratelimit-limit']).toBe(String(PER_IP));
    let remaining = Number(res.headers['x-ratelimit-remaining']);
    const wrongKey = new ApiClient(t.baseUrl, { ...users[0]!, apiKey: 'x'.repeat(32) });
    const refused = await wrongKey.get('/users/me');
    expect(refused.status).toBe(401);
    expect(Number(refused.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    while (remaining-- > 1) expect((await anonymous.get('/server_settings')).status).toBe(200);
    res = await anonymous.get('/server_settings');
    expectRateLimited(res);
    // Logging in is refused too: it is a request without credentials.
    expectRateLimited(await anonymous.post('/fetch_api_key', { username: users[1]!.email, password: 'pw-' + users[1]!.email }));
    // Authenticated requests count against their user instead.
    expect((await t.client(users[1]).get('/users/me')).status).toBe(200);
  });
});

describe('configuration', () => {
  it("defaults to Zulip's rules, and reads PARLEY_RATE_LIMIT_* as requests/seconds", () => {
    expect(configFromEnv({}).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(DEFAULT_RATE_LIMITS).toMatchObject({ apiByUser: { requests: 200, seconds: 60 }, apiByIp: { requests: 100, seconds: 60 }, authenticateByUsername: { requests: 5, seconds: 1800 }, emailChangeByUser: { requests: 2, seconds: 3600 } });
    const custom = configFromEnv({ PARLEY_RATE_LIMITING: '0', PARLEY_RATE_LIMIT_API_BY_USER: '50/10', PARLEY_RATE_LIMIT_EMAIL_CHANGE_BY_USER: '3/60', PARLEY_MAX_EVENT_QUEUES_PER_USER: '7' }).rateLimits;
    expect(custom).toMatchObject({ enabled: false, apiByUser: { requests: 50, seconds: 10 }, emailChangeByUser: { requests: 3, seconds: 60 }, maxEventQueuesPerUser: 7 });
    expect(() => configFromEnv({ PARLEY_RATE_LIMIT_API_BY_IP: 'lots' })).toThrow(/requests\/seconds/);
  });
});
