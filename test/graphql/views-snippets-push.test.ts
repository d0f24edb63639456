// Navigation views, saved snippets, push registration and video calls through /graphql: the same
// rules and errors as the REST endpoints (which run these very fields), and the same events.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.ts';
import { makeUser } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { graphql } from '../support/client.ts';
import { configFromEnv } from '../../server/config.ts';
import { fails, ok } from './helpers.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const BOUNCER_KEY = randomBytes(32).toString('base64');
let fake: http.Server;
let fakeUrl: string;

beforeAll(async () => {
  // A minimal provider: any code gives token `tok`, which creates meeting 7.
  fake = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/token' ? { access_token: 'tok', expires_in: 3600 } : { join_url: 'https://meet.example.com/7' }));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
// Registered before the server: afterAll hooks unwind in reverse, so the server closes first.
afterAll(async () => {
  await new Promise<void>((resolve) => fake?.close(() => resolve()));
});
const t = useTestServer(() => ({
  pushNotificationsEnabled: true,
  pushBouncerPublicKeys: [BOUNCER_KEY],
  videoCalls: { zoom: { clientId: 'id', clientSecret: 'secret', authorizeUrl: `${fakeUrl}/authorize`, tokenUrl: `${fakeUrl}/token`, apiUrl: fakeUrl } },
}));
const { alice, bob } = useTeam(t, ['alice', 'bob']);

const queue = async (as: Credentials, eventTypes: string[]) => (await registerQueue(t.client(as), { event_types: eventTypes })).queue_id;
const events = async (as: Credentials, queueId: string) => withoutIds(await allEvents(t.client(as), queueId));

const VIEWS = '{ navigationViews { fragment isPinned name } }';
const ADD_VIEW = 'mutation($f: String!, $p: Boolean!, $n: String) { addNavigationView(fragment: $f, isPinned: $p, name: $n) }';
const UPDATE_VIEW = 'mutation($f: String!, $p: Boolean, $n: String) { updateNavigationView(fragment: $f, isPinned: $p, name: $n) }';
const REMOVE_VIEW = 'mutation($f: String!) { removeNavigationView(fragment: $f) }';

describe('navigation views', () => {
  it('adds, updates, lists and removes, with navigation_view events to the owner only', async () => {
    const carol = await makeUser(t);
    const q = await queue(carol, ['navigation_view']);
    const other = await queue(bob, ['navigation_view']);
    await ok(t, ADD_VIEW, { f: 'inbox', p: true }, carol);
    await ok(t, ADD_VIEW, { f: 'narrow/is/x', p: false, n: 'X' }, carol);
    await ok(t, UPDATE_VIEW, { f: 'narrow/is/x', p: true }, carol);
    expect((await ok(t, VIEWS, {}, carol)).navigationViews).toEqual([
      { fragment: 'inbox', isPinned: true, name: null },
      { fragment: 'narrow/is/x', isPinned: true, name: 'X' },
    ]);
    await ok(t, REMOVE_VIEW, { f: 'inbox' }, carol);
    expect(await events(carol, q)).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: true } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/x', is_pinned: false, name: 'X' } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/x', data: { is_pinned: true } },
      { type: 'navigation_view', op: 'remove', fragment: 'inbox' },
    ]);
    expect(await events(bob, other)).toEqual([]);
    expect((await ok(t, VIEWS, {}, bob)).navigationViews).toEqual([]);
  });

  it('gives the same errors as REST', async () => {
    const blank = await fails(t, ADD_VIEW, { f: ' ', p: true, n: 'n' }, alice);
    expect(blank.error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(blank.error.message).toBe('fragment cannot be blank');
    expect((await fails(t, ADD_VIEW, { f: 'recent', p: true, n: 'n' }, alice)).error.message).toBe('Built-in views cannot have a custom name.');
    expect((await fails(t, ADD_VIEW, { f: 'custom', p: true }, alice)).error.message).toBe('Custom views must have a valid name.');
    const missing = await fails(t, UPDATE_VIEW, { f: 'nowhere', p: true }, alice);
    expect(missing.error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 404 });
    expect(missing.error.message).toBe('Navigation view does not exist.');
    expect((await fails(t, VIEWS)).error.extensions?.code).toBe('UNAUTHORIZED');
  });
});

const SNIPPETS = '{ savedSnippets { id title content dateCreated } }';
const CREATE = 'mutation($t: String!, $c: String!) { createSavedSnippet(title: $t, content: $c) }';
const EDIT = 'mutation($id: Int!, $t: String, $c: String) { editSavedSnippet(savedSnippetId: $id, title: $t, content: $c) }';
const DELETE = 'mutation($id: Int!) { deleteSavedSnippet(savedSnippetId: $id) }';

describe('saved snippets', () => {
  it("creates, edits and deletes one's own snippets, with saved_snippets events", async () => {
    const dave = await makeUser(t);
    const q = await queue(dave, ['saved_snippets']);
    const id = (await ok(t, CREATE, { t: 'Hello', c: 'Hello world' }, dave)).createSavedSnippet;
    await ok(t, EDIT, { id, c: 'Hello again' }, dave);
    const [snippet] = (await ok(t, SNIPPETS, {}, dave)).savedSnippets;
    expect(snippet).toEqual({ id, title: 'Hello', content: 'Hello again', dateCreated: expect.any(Number) });
    await ok(t, DELETE, { id }, dave);
    expect(await events(dave, q)).toEqual([
      { type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Hello', content: 'Hello world', date_created: snippet.dateCreated } },
      { type: 'saved_snippets', op: 'update', saved_snippet: { id, title: 'Hello', content: 'Hello again', date_created: snippet.dateCreated } },
      { type: 'saved_snippets', op: 'remove', saved_snippet_id: id },
    ]);
  });

  it("treats someone else's snippet as missing, and enforces the limits", async () => {
    const id = (await ok(t, CREATE, { t: 'Mine', c: 'Mine' }, alice)).createSavedSnippet;
    for (const query of [EDIT, DELETE]) {
      const { error } = await fails(t, query, { id, t: 'Theirs' }, bob);
      expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 404 });
      expect(error.message).toBe('Saved snippet does not exist.');
    }
    expect((await fails(t, CREATE, { t: 'x'.repeat(61), c: 'c' }, alice)).error.message).toBe('title is too long (limit: 60 characters)');
    expect((await fails(t, CREATE, { t: '', c: 'c' }, alice)).error.message).toBe('Title cannot be empty.');
    expect((await fails(t, EDIT, { id }, alice)).error.extensions?.code).toBe('BAD_REQUEST');
    expect((await ok(t, SNIPPETS, {}, alice)).savedSnippets).toMatchObject([{ id, title: 'Mine', content: 'Mine' }]);
  });
});

const REGISTER_PUSH = `mutation($d: String!, $kid: String, $k: String, $kind: String, $tid: String, $b: String, $e: String) {
  registerPushDevice(deviceId: $d, pushKeyId: $kid, pushKey: $k, tokenKind: $kind, tokenId: $tid, bouncerPublicKey: $b, encryptedPushRegistration: $e) }`;
const PUSH_DEVICES = '{ pushDevices { deviceId pushKeyId tokenKind tokenId } }';
const key = () => ({ kid: '4294967295', k: Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64') });
const token = () => ({ kind: 'ios_push', tid: randomBytes(8).toString('base64'), b: BOUNCER_KEY, e: randomBytes(40).toString('base64') });

describe('push registration', () => {
  it('registers, rotates the key, rotates the token; lists only the viewer\'s devices', async () => {
    const erin = await makeUser(t);
    const first = token();
    await ok(t, REGISTER_PUSH, { d: '9007199254740993', ...key(), ...first }, erin);
    await ok(t, REGISTER_PUSH, { d: '9007199254740993', kid: '7', k: key().k }, erin);
    expect((await ok(t, PUSH_DEVICES, {}, erin)).pushDevices).toEqual([
      { deviceId: '9007199254740993', pushKeyId: '7', tokenKind: 'ios_push', tokenId: first.tid },
    ]);
    const second = token();
    await ok(t, REGISTER_PUSH, { d: '9007199254740993', ...second }, erin);
    expect((await ok(t, PUSH_DEVICES, {}, erin)).pushDevices).toEqual([
      { deviceId: '9007199254740993', pushKeyId: '7', tokenKind: 'ios_push', tokenId: second.tid },
    ]);
    expect((await ok(t, PUSH_DEVICES, {}, bob)).pushDevices).toEqual([]);
  });

  it('validates like REST', async () => {
    const unknown = await fails(t, REGISTER_PUSH, { d: '5', ...key() }, alice);
    expect(unknown.error.extensions?.code).toBe('BAD_REQUEST');
    expect((await fails(t, REGISTER_PUSH, { d: '5', ...key(), kid: '4294967296', ...token() }, alice)).error.message).toBe('Invalid push_key_id');
    expect((await fails(t, REGISTER_PUSH, { d: '5', ...key(), ...token(), b: randomBytes(32).toString('base64') }, alice)).error.message).toBe('Invalid bouncer_public_key');
    const half = await fails(t, REGISTER_PUSH, { d: '5', k: key().k, ...token() }, alice);
    expect(half.error.extensions).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
    expect((await ok(t, PUSH_DEVICES, {}, alice)).pushDevices).toEqual([]);
  });

  it('adds and removes legacy tokens', async () => {
    const ADD = 'mutation($k: String!, $t: String!, $a: String) { addLegacyPushToken(kind: $k, token: $t, appId: $a) }';
    const REMOVE = 'mutation($k: String!, $t: String!) { removeLegacyPushToken(kind: $k, token: $t) }';
    await ok(t, ADD, { k: 'fcm', t: 'gql-token' }, alice);
    expect((await fails(t, ADD, { k: 'apns', t: 'abcd' }, alice)).error.message).toBe("Missing 'appid' argument");
    expect((await fails(t, ADD, { k: 'gcm', t: 'abcd' }, alice)).error.message).toBe('Invalid kind');
    expect((await fails(t, REMOVE, { k: 'fcm', t: 'gql-token' }, bob)).error.message).toBe('Token does not exist');
    await ok(t, REMOVE, { k: 'fcm', t: 'gql-token' }, alice);
  });

  it('is refused on a server without a push service', async () => {
    const bare = await startTestServer();
    try {
      const res = await graphql(bare.baseUrl, REGISTER_PUSH, { d: '1', ...key(), ...token() }, bare.owner);
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'PUSH_SERVICE_NOT_CONFIGURED', httpStatus: 400 });
    } finally {
      await bare.close();
    }
  });
});

describe('video calls', () => {
  it('refuses without a token, then runs the OAuth flow and creates a meeting, announcing the token', async () => {
    const frank = await makeUser(t);
    const CREATE_CALL = 'mutation($v: Boolean) { createVideoCall(isVideoCall: $v) { url } }';
    const refused = await fails(t, CREATE_CALL, {}, frank);
    expect(refused.error.extensions).toMatchObject({ code: 'INVALID_ZOOM_TOKEN', httpStatus: 400 });
    expect(refused.error.message).toBe('Invalid Zoom access token');
    const q = await queue(frank, ['has_zoom_token', 'has_provider_token']);
    const url = new URL((await ok(t, 'mutation { startVideoCallAuthorization }', {}, frank)).startVideoCallAuthorization);
    // The callback needs no credentials: the state names the user.
    await ok(t, 'mutation($c: String!, $s: String!) { completeVideoCallAuthorization(code: $c, state: $s) }', { c: 'code', s: url.searchParams.get('state') });
    expect((await ok(t, CREATE_CALL, { v: false }, frank)).createVideoCall).toEqual({ url: 'https://meet.example.com/7' });
    expect((await fails(t, CREATE_CALL, {}, bob)).error.extensions?.code).toBe('INVALID_ZOOM_TOKEN');
    expect((await ok(t, 'mutation { revokeVideoCallAuthorization }', {}, frank)).revokeVideoCallAuthorization).toBe(true);
    expect((await ok(t, 'mutation { revokeVideoCallAuthorization(provider: "provider") }', {}, frank)).revokeVideoCallAuthorization).toBe(false);
    expect(await events(frank, q)).toEqual([
      { type: 'has_zoom_token', value: true }, { type: 'has_provider_token', value: true },
      { type: 'has_zoom_token', value: false }, { type: 'has_provider_token', value: false },
    ]);
    expect((await fails(t, 'mutation { createVideoCall(provider: "teams") { url } }', {}, frank)).error.message).toBe('Unknown video call provider: teams');
  });
});

describe('operator configuration from the environment', () => {
  it('reads the push service and the video-call provider', () => {
    const none = configFromEnv({});
    expect(none).toMatchObject({ pushNotificationsEnabled: false, pushBouncerPublicKeys: [], videoCalls: {} });
    const env = configFromEnv({
      PARLEY_PUSH_BOUNCER_URL: 'https://push.example.com', PARLEY_PUSH_BOUNCER_PUBLIC_KEYS: 'a2V5MQ==, a2V5Mg==',
      PARLEY_ZOOM_CLIENT_ID: 'cid', PARLEY_ZOOM_CLIENT_SECRET: 'cs', PARLEY_ZOOM_API_URL: 'https://zoom.internal/v2/',
    });
    expect(env).toMatchObject({
      pushNotificationsEnabled: true, pushBouncerUrl: 'https://push.example.com', pushBouncerPublicKeys: ['a2V5MQ==', 'a2V5Mg=='],
      videoCalls: { zoom: { clientId: 'cid', clientSecret: 'cs', authorizeUrl: 'https://zoom.us/oauth/authorize', tokenUrl: 'https://zoom.us/oauth/token', apiUrl: 'https://zoom.internal/v2' } },
    });
    expect(configFromEnv({ PARLEY_PUSH_NOTIFICATIONS: '1' }).pushNotificationsEnabled).toBe(true);
    // A client ID without its secret is no provider.
    expect(configFromEnv({ PARLEY_ZOOM_CLIENT_ID: 'cid' }).videoCalls).toEqual({});
  });
});
