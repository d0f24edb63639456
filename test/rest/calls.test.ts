// Video calls (spec: POST /calls/provider/create; Zulip's /calls/zoom/*): the operator configures
// the provider, the user completes its OAuth flow (register → provider → complete, the code
// exchanged at the token URL), meetings are created with the stored token, refreshed when expired,
// forgotten when refused or revoked; `has_provider_token` / `has_zoom_token` in register and events.
// The provider is a tiny fake OAuth and meeting server in this process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

interface Seen { path: string; headers: http.IncomingHttpHeaders; body: string }

/** The fake provider: token endpoint and meeting API, recording what it was sent. */
class FakeProvider {
  server = http.createServer((req, res) => this.handle(req, res));
  seen: Seen[] = [];
  meetingsFail = false;
  url = '';

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      this.seen.push({ path: req.url!, headers: req.headers, body });
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.url === '/oauth/token' && req.method === 'POST') {
        const form = new URLSearchParams(body);
        const basic = 'Basic ' + Buffer.from('client-id:client-secret').toString('base64');
        if (req.headers.authorization !== basic) return reply(401, { error: 'invalid_client' });
        if (form.get('grant_type') === 'authorization_code') {
          if (form.get('code') === 'good-code') return reply(200, { access_token: 'tok-1', refresh_token: 'ref-1', expires_in: 3600, token_type: 'bearer' });
          if (form.get('code') === 'expired-code') return reply(200, { access_token: 'tok-old', refresh_token: 'ref-1', expires_in: -60, token_type: 'bearer' });
          return reply(400, { error: 'invalid_grant' });
        }
        if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'ref-1') {
          return reply(200, { access_token: 'tok-2', refresh_token: 'ref-2', expires_in: 3600, token_type: 'bearer' });
        }
        return reply(400, { error: 'invalid_grant' });
      }
      if (req.url === '/v2/users/me/meetings' && req.method === 'POST') {
        if (!['Bearer tok-1', 'Bearer tok-2'].includes(req.headers.authorization ?? '')) return reply(401, { code: 124, message: 'Invalid access token.' });
        if (this.meetingsFail) return reply(500, { message: 'boom' });
        return reply(201, { id: 42, join_url: 'https://meet.example.com/j/42?pwd=secret' });
      }
      reply(404, {});
    });
  }
}

const EXTERNAL_URL = 'https://chat.example.com';
let provider: FakeProvider;

beforeAll(async () => {
  provider = new FakeProvider();
  await provider.start();
});
// Registered before the server: afterAll hooks unwind in reverse, so the server closes first.
afterAll(async () => {
  await provider?.close();
});
const t = useTestServer(() => ({
  externalUrl: EXTERNAL_URL,
  videoCalls: {
    zoom: {
      clientId: 'client-id', clientSecret: 'client-secret',
      authorizeUrl: `${provider.url}/oauth/authorize`, tokenUrl: `${provider.url}/oauth/token`, apiUrl: `${provider.url}/v2`,
    },
  },
}));
const { bob } = useTeam(t, ['bob']);

beforeEach(() => { provider.seen = []; provider.meetingsFail = false; });

const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['has_zoom_token', 'has_provider_token'] })).queue_id;
const events = async (c: ApiClient, queueId: string) => withoutIds(await allEvents(c, queueId));
async function tokenState(c: ApiClient) {
  const res = await c.post('/register', { fetch_event_types: ['video_calls'] });
  return { has_provider_token: res.body.has_provider_token, has_zoom_token: res.body.has_zoom_token };
}
/** Runs the OAuth flow for `user` with this code; returns the complete endpoint's response. */
async function authorize(user: MadeUser, code: string) {
  const start = await t.client(user).get('/calls/zoom/register');
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const state = new URL(start.body.url).searchParams.get('state')!;
  return t.client().get('/calls/zoom/complete', { code, state });
}

describe('POST /calls/provider/create before OAuth', () => {
  it('refuses with INVALID_ZOOM_TOKEN while the user has no token', async () => {
    const carol = await makeUser(t);
    expect(await tokenState(t.client(carol))).toEqual({ has_provider_token: false, has_zoom_token: false });
    for (const path of ['/calls/provider/create', '/calls/zoom/create']) {
      const res = await t.client(carol).post(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'INVALID_ZOOM_TOKEN', msg: 'Invalid Zoom access token' });
    }
    expect(provider.seen).toEqual([]);
  });

  it('needs credentials', async () => {
    expect((await t.client().post('/calls/provider/create')).status).toBe(401);
    expect((await t.client().get('/calls/zoom/register')).status).toBe(401);
  });
});

describe('The OAuth flow', () => {
  it('sends the user to the configured authorize URL with a one-time state', async () => {
    const dave = await makeUser(t);
    const res = await t.client(dave).get('/calls/provider/register');
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code', client_id: 'client-id', redirect_uri: `${EXTERNAL_URL}/api/v1/calls/zoom/complete`,
    });
    expect(url.searchParams.get('state')).toMatch(new RegExp(`^${dave.userId}\\.`));
    // A flow in progress is not a token.
    expect(await tokenState(t.client(dave))).toEqual({ has_provider_token: false, has_zoom_token: false });
  });

  it('stores the token from the code exchange and tells only that user, under both event names', async () => {
    const erin = await makeUser(t);
    const mine = await queue(t.client(erin));
    const theirs = await queue(t.client(bob));
    const res = await authorize(erin, 'good-code');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const exchange = provider.seen.find((s) => s.path === '/oauth/token')!;
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toMatchObject({
      grant_type: 'authorization_code', code: 'good-code', redirect_uri: `${EXTERNAL_URL}/api/v1/calls/zoom/complete`,
    });
    expect(await events(t.client(erin), mine)).toEqual([{ type: 'has_zoom_token', value: true }, { type: 'has_provider_token', value: true }]);
    expect(await events(t.client(bob), theirs)).toEqual([]);
    expect(await tokenState(t.client(erin))).toEqual({ has_provider_token: true, has_zoom_token: true });
    expect(await tokenState(t.client(bob))).toEqual({ has_provider_token: false, has_zoom_token: false });
    const row = await t.db.videoProviderToken.findUniqueOrThrow({ where: { userId_provider: { userId: erin.userId, provider: 'zoom' } } });
    expect(JSON.parse(row.token)).toMatchObject({ access_token: 'tok-1', refresh_token: 'ref-1' });
  });

  it('refuses a replayed, forged, malformed or expired state, and a refused code; nothing is stored', async () => {
    const frank = await makeUser(t);
    const start = await t.client(frank).get('/calls/zoom/register');
    const state = new URL(start.body.url).searchParams.get('state')!;
    const bad = await t.client().get('/calls/zoom/complete', { code: 'wrong-code', state });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid Zoom credentials' });
    // The state was spent by that attempt.
    const replay = await t.client().get('/calls/zoom/complete', { code: 'good-code', state });
    expect(replay.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid Zoom session identifier' });

    const again = await t.client(frank).get('/calls/zoom/register');
    const fresh = new URL(again.body.url).searchParams.get('state')!;
    for (const forged of [`${bob.userId}.${fresh.split('.')[1]}`, `${frank.userId}.${'A'.repeat(32)}`, 'garbage', '']) {
      const res = await t.client().get('/calls/zoom/complete', { code: 'good-code', state: forged });
      expect(res.status).toBe(400);
    }
    // Written directly: only time ages a token.
    await t.db.videoProviderToken.updateMany({ where: { userId: frank.userId }, data: { createdAt: new Date(Date.now() - 11 * 60 * 1000) } });
    const expired = await t.client().get('/calls/zoom/complete', { code: 'good-code', state: fresh });
    expect(expired.body.msg).toBe('Invalid Zoom session identifier');
    expect(await t.db.videoProviderToken.findMany({ where: { userId: { in: [frank.userId, bob.userId] }, provider: 'zoom' } })).toEqual([]);
    expect(await tokenState(t.client(frank))).toEqual({ has_provider_token: false, has_zoom_token: false });
  });
});

describe('POST /calls/provider/create with a token', () => {
  let gina: MadeUser;
  beforeAll(async () => {
    gina = await makeUser(t);
    expect((await authorize(gina, 'good-code')).status).toBe(200);
  });

  it('creates a meeting with the user\'s token and returns its URL (both paths)', async () => {
    for (const path of ['/calls/provider/create', '/calls/zoom/create']) {
      const res = await t.client(gina).post(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', msg: '', url: 'https://meet.example.com/j/42?pwd=secret' });
    }
    const meeting = provider.seen.find((s) => s.path === '/v2/users/me/meetings')!;
    expect(meeting.headers.authorization).toBe('Bearer tok-1');
    expect(JSON.parse(meeting.body)).toEqual({ settings: { host_video: true, participant_video: true }, default_password: true });
  });

  it('turns video off for an audio call', async () => {
    await t.client(gina).post('/calls/zoom/create', { is_video_call: false });
    expect(JSON.parse(provider.seen.at(-1)!.body).settings).toEqual({ host_video: false, participant_video: false });
  });

  it('refuses an is_video_call that is not a boolean', async () => {
    const res = await t.client(gina).post('/calls/provider/create', { is_video_call: 'sometimes' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(provider.seen).toEqual([]);
  });

  it("does not lend one user's token to another", async () => {
    const res = await t.client(bob).post('/calls/provider/create');
    expect(res.body.code).toBe('INVALID_ZOOM_TOKEN');
  });

  it('keeps the token when the provider fails for another reason', async () => {
    provider.meetingsFail = true;
    const res = await t.client(gina).post('/calls/provider/create');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Failed to create Zoom call' });
    expect(await tokenState(t.client(gina))).toEqual({ has_provider_token: true, has_zoom_token: true });
  });
});

describe('Expired, refused and revoked tokens', () => {
  it('refreshes an expired token at the token URL and stores the new one', async () => {
    const hal = await makeUser(t);
    expect((await authorize(hal, 'expired-code')).status).toBe(200);
    const res = await t.client(hal).post('/calls/provider/create');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const refresh = provider.seen.filter((s) => s.path === '/oauth/token').at(-1)!;
    expect(Object.fromEntries(new URLSearchParams(refresh.body))).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'ref-1' });
    expect(provider.seen.at(-1)!.headers.authorization).toBe('Bearer tok-2');
    const row = await t.db.videoProviderToken.findUniqueOrThrow({ where: { userId_provider: { userId: hal.userId, provider: 'zoom' } } });
    expect(JSON.parse(row.token)).toMatchObject({ access_token: 'tok-2', refresh_token: 'ref-2' });
  });

  it('forgets a token the provider refuses, and tells the user', async () => {
    const ivy = await makeUser(t);
    await authorize(ivy, 'good-code');
    // Written directly: a token the provider has since revoked, which only the provider could do.
    await t.db.videoProviderToken.update({
      where: { userId_provider: { userId: ivy.userId, provider: 'zoom' } },
      data: { token: JSON.stringify({ access_token: 'revoked-at-provider' }) },
    });
    const q = await queue(t.client(ivy));
    const res = await t.client(ivy).post('/calls/provider/create');
    expect(res.body).toMatchObject({ code: 'INVALID_ZOOM_TOKEN', msg: 'Invalid Zoom access token' });
    expect(await events(t.client(ivy), q)).toEqual([{ type: 'has_zoom_token', value: false }, { type: 'has_provider_token', value: false }]);
    expect(await tokenState(t.client(ivy))).toEqual({ has_provider_token: false, has_zoom_token: false });
  });

  it('DELETE /calls/provider revokes the token; again, it changes nothing', async () => {
    const jack = await makeUser(t);
    await authorize(jack, 'good-code');
    const q = await queue(t.client(jack));
    expect((await t.client(jack).delete('/calls/provider')).status).toBe(200);
    expect((await t.client(jack).delete('/calls/zoom')).status).toBe(200);
    expect(await events(t.client(jack), q)).toEqual([{ type: 'has_zoom_token', value: false }, { type: 'has_provider_token', value: false }]);
    expect((await t.client(jack).post('/calls/provider/create')).body.code).toBe('INVALID_ZOOM_TOKEN');
  });
});

describe('A server without a video-call provider', () => {
  const bare = useTestServer();

  it('answers that the credentials are not configured, for every endpoint', async () => {
    const owner = bare.client(bare.owner);
    for (const res of [await owner.post('/calls/provider/create'), await owner.get('/calls/zoom/register'), await bare.client().get('/calls/zoom/complete', { code: 'c', state: '1.abc' })]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Zoom credentials have not been configured' });
    }
  });
});
