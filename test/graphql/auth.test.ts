// Authentication and the schema itself, through /graphql: the same rules and error codes as the
// REST endpoints /server_settings, /fetch_api_key and HTTP Basic authentication.
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import { graphql, rawRequest } from '../support/client.ts';
import { makeUser, deactivate } from '../support/factories.ts';
import { fails, ok } from './helpers.ts';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

const FETCH_API_KEY = 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey email userId } }';
const ME = '{ me { userId email } }';

describe('serverSettings', () => {
  it('answers without authentication with the feature level, realm and login methods', async () => {
    const data = await ok(t, `{ serverSettings {
      zulipVersion zulipFeatureLevel realmName realmUrl pushNotificationsEnabled isIncompatible
      authenticationMethods { password dev email openidConnect } } }`);
    expect(data.serverSettings).toMatchObject({
      zulipFeatureLevel: 496,
      realmName: 'Test Org',
      pushNotificationsEnabled: false,
      isIncompatible: false,
      authenticationMethods: { password: true, dev: false, email: true, openidConnect: false },
    });
    expect(data.serverSettings.zulipVersion).toMatch(/parley/);
  });

  it('answers the same with credentials', async () => {
    const data = await ok(t, '{ serverSettings { realmName zulipFeatureLevel } }', {}, t.owner);
    expect(data.serverSettings).toEqual({ realmName: 'Test Org', zulipFeatureLevel: 496 });
  });
});

describe('fetchApiKey', () => {
  it('returns the API key, email and user ID for the right password', async () => {
    const data = await ok(t, FETCH_API_KEY, { u: ADMIN_EMAIL, p: ADMIN_PASSWORD });
    expect(data.fetchApiKey).toEqual({ apiKey: t.owner.apiKey, email: ADMIN_EMAIL, userId: t.owner.userId });
    expect(data.fetchApiKey.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('matches the email case-insensitively', async () => {
    const data = await ok(t, FETCH_API_KEY, { u: ADMIN_EMAIL.toUpperCase(), p: ADMIN_PASSWORD });
    expect(data.fetchApiKey.userId).toBe(t.owner.userId);
  });

  it('gives credentials that authenticate later requests', async () => {
    const data = await ok(t, FETCH_API_KEY, { u: ADMIN_EMAIL, p: ADMIN_PASSWORD });
    const creds = { email: data.fetchApiKey.email, apiKey: data.fetchApiKey.apiKey, userId: data.fetchApiKey.userId };
    const me = await ok(t, ME, {}, creds);
    expect(me.me).toEqual({ userId: t.owner.userId, email: ADMIN_EMAIL });
  });

  it('refuses a wrong password with AUTHENTICATION_FAILED and HTTP 401', async () => {
    const { error, res } = await fails(t, FETCH_API_KEY, { u: ADMIN_EMAIL, p: 'wrong' });
    expect(error.extensions).toMatchObject({ code: 'AUTHENTICATION_FAILED', httpStatus: 401 });
    expect(error.message).toBe('Your username or password is incorrect');
    expect(error.path).toEqual(['fetchApiKey']);
    expect(res.status).toBe(401);
    expect(res.body.data).toBeNull();
  });

  it('refuses an unknown email exactly like a wrong password', async () => {
    const { error } = await fails(t, FETCH_API_KEY, { u: 'nobody@example.com', p: 'x' });
    expect(error.extensions?.code).toBe('AUTHENTICATION_FAILED');
    expect(error.message).toBe('Your username or password is incorrect');
  });

  it('refuses a deactivated user with USER_DEACTIVATED', async () => {
    const user = await makeUser(t);
    await deactivate(t, user.userId);
    const { error } = await fails(t, FETCH_API_KEY, { u: user.email, p: 'pw-' + user.email });
    expect(error.extensions).toMatchObject({ code: 'USER_DEACTIVATED', httpStatus: 401 });
  });

  it('requires both arguments (a GraphQL validation error)', async () => {
    const res = await graphql(t.baseUrl, 'mutation { fetchApiKey(username: "x") { apiKey } }');
    expect(res.body.errors?.[0]?.message).toMatch(/password/);
    expect(res.body.data).toBeUndefined();
  });
});

describe('devFetchApiKey', () => {
  it('is refused unless development mode is on', async () => {
    const { error } = await fails(t, 'mutation($u: String!) { devFetchApiKey(username: $u) { apiKey } }', { u: ADMIN_EMAIL });
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 404 });
  });
});

describe('HTTP Basic authentication on /graphql', () => {
  it('is required for `me`: UNAUTHORIZED, HTTP 401 and WWW-Authenticate', async () => {
    const { error, res } = await fails(t, ME);
    expect(error.message).toBe('Not logged in: API authentication or user session required');
    expect(error.extensions).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401 });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.body.data).toBeNull();
  });

  it('is required for every viewer-dependent field, not only `me`', async () => {
    for (const query of ['{ users { userId } }', '{ channels { streamId } }', '{ subscriptions { color } }', '{ maxMessageId }',
      '{ messages(anchor: "newest", numBefore: 1, numAfter: 0) { foundNewest } }']) {
      const { error, res } = await fails(t, query);
      expect(error.extensions?.code, query).toBe('UNAUTHORIZED');
      expect(res.status, query).toBe(401);
    }
  });

  it('refuses a wrong API key with INVALID_API_KEY and HTTP 401', async () => {
    const { error, res } = await fails(t, ME, {}, { ...t.owner, apiKey: 'x'.repeat(32) });
    expect(error.message).toBe('Invalid API key');
    expect(error.extensions).toMatchObject({ code: 'INVALID_API_KEY', httpStatus: 401 });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('answers serverSettings whatever the key (Zulip never reads credentials there), and nothing beside it', async () => {
    const wrong = { ...t.owner, apiKey: 'x'.repeat(32) };
    expect((await ok(t, '{ serverSettings { realmName } }', {}, wrong)).serverSettings.realmName).toEqual(expect.any(String));
    const { error, res } = await fails(t, '{ serverSettings { realmName } me { userId } }', {}, wrong);
    expect(error.extensions?.code).toBe('INVALID_API_KEY');
    expect(res.status).toBe(401);
  });

  it('refuses a right key with another user\'s email', async () => {
    const other = await makeUser(t);
    const { error } = await fails(t, ME, {}, { ...t.owner, email: other.email });
    expect(error.extensions?.code).toBe('INVALID_API_KEY');
  });

  it('refuses a malformed Authorization header', async () => {
    const res = await rawRequest('POST', `${t.baseUrl}/graphql`,
      { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer nonsense' },
      JSON.stringify({ query: ME }));
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('refuses a deactivated user with USER_DEACTIVATED', async () => {
    const user = await makeUser(t);
    await deactivate(t, user.userId);
    const { error, res } = await fails(t, ME, {}, user);
    expect(error.extensions?.code).toBe('USER_DEACTIVATED');
    expect(res.status).toBe(401);
  });

  it('refuses users of a deactivated organization with REALM_DEACTIVATED', async () => {
    const user = await makeUser(t);
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
    // Written directly: only a server administrator reactivates an organization, so the API could not undo it.
    await db.realm.update({ where: { id: realm.id }, data: { deactivated: true } });
    try {
      const { error, res } = await fails(t, ME, {}, user);
      expect(error.extensions?.code).toBe('REALM_DEACTIVATED');
      expect(res.status).toBe(401);
    } finally {
      await db.realm.update({ where: { id: realm.id }, data: { deactivated: false } });
    }
  });

  it('accepts the owner\'s credentials', async () => {
    const data = await ok(t, '{ me { userId email fullName role isOwner } }', {}, t.owner);
    expect(data.me).toEqual({ userId: t.owner.userId, email: ADMIN_EMAIL, fullName: 'Administrator', role: 100, isOwner: true });
  });
});

describe('Other errors keep HTTP 200', () => {
  it('a domain error that is not about authentication is a GraphQL error in a 200 response', async () => {
    const { error, res } = await fails(t, '{ user(userId: 999999) { userId } }', {}, t.owner);
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(error.message).toBe('No such user');
    expect(res.status).toBe(200);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

describe('Introspection', () => {
  it('is enabled and describes the Message type and its fields', async () => {
    const data = await ok(t, `{ __type(name: "Message") { kind description fields { name description } } }`);
    expect(data.__type.kind).toBe('OBJECT');
    expect(data.__type.description).toMatch(/message/i);
    const fields = Object.fromEntries(data.__type.fields.map((f: { name: string; description: string | null }) => [f.name, f.description]));
    expect(fields.content).toMatch(/HTML/);
    expect(fields.topic).toBeTruthy();
    expect(fields.flags).toBeTruthy();
  });

  it('describes the `messages` query field and its arguments', async () => {
    const data = await ok(t, `{ __schema { queryType { name description fields { name description args { name description } } } } }`);
    expect(data.__schema.queryType.name).toBe('Query');
    expect(data.__schema.queryType.description).toBeTruthy();
    const messages = data.__schema.queryType.fields.find((f: { name: string }) => f.name === 'messages');
    expect(messages.description).toMatch(/narrow/i);
    const anchor = messages.args.find((a: { name: string }) => a.name === 'anchor');
    expect(anchor.description).toMatch(/newest/);
  });

  it('describes every query field', async () => {
    const data = await ok(t, `{ __schema { queryType { fields { name description } } } }`);
    const undocumented = data.__schema.queryType.fields.filter((f: { description: string | null }) => !f.description).map((f: { name: string }) => f.name);
    expect(undocumented).toEqual([]);
  });

  it('lists the mutations the REST API runs', async () => {
    const data = await ok(t, `{ __schema { mutationType { fields { name } } } }`);
    const names = data.__schema.mutationType.fields.map((f: { name: string }) => f.name);
    expect(names).toEqual(expect.arrayContaining([
      'fetchApiKey', 'devFetchApiKey', 'createUser', 'subscribe', 'postMessage', 'updateMessage', 'deleteMessage',
      'addReaction', 'removeReaction', 'updateMessageFlags',
    ]));
  });
});

// The Prisma model `Subscription` (a user's channel subscription) is exposed as ChannelSubscription:
// a GraphQL type named `Subscription` would become the schema's subscription root.
describe('The subscription root', () => {
  it('the channel-subscription object type is ChannelSubscription', async () => {
    const data = await ok(t, '{ __type(name: "ChannelSubscription") { kind fields { name } } }');
    expect(data.__type.kind).toBe('OBJECT');
    expect(data.__type.fields.map((f: { name: string }) => f.name)).toContain('color');
  });

  it('is not the channel-subscription type: its fields are not offered as subscription operations', async () => {
    const data = await ok(t, '{ __schema { subscriptionType { name fields { name } } } }');
    const fields = (data.__schema.subscriptionType?.fields ?? []).map((f: { name: string }) => f.name);
    expect(fields).not.toContain('color');
  });

  it('a `subscription { color }` operation is refused by validation, not run into an internal error', async () => {
    const res = await graphql(t.baseUrl, 'subscription { color }', {}, t.owner);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
    expect(res.body.data ?? null).toBeNull();
  });
});

// /graphql asks browsers for Basic credentials, which they then attach to every request, so no
// other site may call it from a browser: no CORS grant, and no form-encoded (preflight-free) posts.
describe('Cross-site requests', () => {
  it('do not get credentialed CORS for an arbitrary origin', async () => {
    const res = await rawRequest('OPTIONS', `${t.baseUrl}/graphql`, {
      origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type',
    });
    const grants = res.headers['access-control-allow-origin'] === 'https://evil.example' && res.headers['access-control-allow-credentials'] === 'true';
    expect(grants).toBe(false);
  });

  it('cannot run a mutation as an HTML form post (application/x-www-form-urlencoded)', async () => {
    const auth = 'Basic ' + Buffer.from(`${t.owner.email}:${t.owner.apiKey}`).toString('base64');
    const query = 'mutation { sendMessage(type: "stream", to: "general", topic: "csrf", content: "from a form") }';
    const res = await rawRequest('POST', `${t.baseUrl}/graphql`,
      { 'content-type': 'application/x-www-form-urlencoded', authorization: auth, origin: 'https://evil.example' },
      'query=' + encodeURIComponent(query));
    expect(res.body?.data?.sendMessage).toBeUndefined();
  });
});

describe('GraphiQL', () => {
  it('is served for GET /graphql from a browser (Accept: text/html)', async () => {
    const res = await rawRequest('GET', `${t.baseUrl}/graphql`, { accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(String(res.body).toLowerCase()).toContain('graphiql');
    expect(String(res.body)).toContain('Parley GraphiQL');
  });

  it('loads every script, style sheet and worker from this server', async () => {
    const page = String((await rawRequest('GET', `${t.baseUrl}/graphql`, { accept: 'text/html' })).body);
    const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls.sort()).toEqual([
      '/graphiql/graphiql.css', '/graphiql/graphql-ws.js', '/graphiql/parley-graphiql.css',
      '/graphiql/parley-graphiql.js', '/graphiql/yoga-graphiql.js',
    ]);
    // Monaco's workers, by the labels the page maps to URLs.
    const workers = ['editorWorkerService', 'json', 'graphql'].map((label) => `/graphiql/${label}.worker.js`);
    for (const url of [...urls, ...workers]) {
      const res = await rawRequest('GET', `${t.baseUrl}${url}`, {});
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(String(res.body).length, url).toBeGreaterThan(100);
    }
    expect((await rawRequest('GET', `${t.baseUrl}/graphiql/nothing.js`, {})).status).toBe(404);
  });

  it('challenges (WWW-Authenticate) API clients and address-bar requests, never a browser script', async () => {
    const body = JSON.stringify({ query: '{ me { email } }' });
    const fromScript = await rawRequest('POST', `${t.baseUrl}/graphql`, { 'content-type': 'application/json', 'sec-fetch-mode': 'cors' }, body);
    expect(fromScript.status).toBe(401);
    expect(fromScript.headers['www-authenticate']).toBeUndefined();
    expect(fromScript.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const fromClient = await rawRequest('POST', `${t.baseUrl}/graphql`, { 'content-type': 'application/json' }, body);
    expect(fromClient.headers['www-authenticate']).toBe('Basic realm="parley"');
    const query = encodeURIComponent('{ me { email } }');
    const navigated = await rawRequest('GET', `${t.baseUrl}/graphql?query=${query}`, { accept: 'application/json', 'sec-fetch-mode': 'navigate' });
    expect(navigated.headers['www-authenticate']).toBe('Basic realm="parley"');
  });

  it('is linked from a page at / for browsers; API clients get JSON there', async () => {
    const html = await rawRequest('GET', `${t.baseUrl}/`, { accept: 'text/html,application/xhtml+xml' });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(String(html.body)).toContain('<h1>Test Org</h1>');
    expect(String(html.body)).toContain('<a href="/graphql">GraphiQL</a>');
    const json = await rawRequest('GET', `${t.baseUrl}/`, { accept: 'application/json' });
    expect(json.body).toMatchObject({ result: 'success', server: 'parley', graphql: '/graphql', api: '/api/v1' });
  });

  it('is not served to API clients: a GET query with Accept: application/json runs the query', async () => {
    const res = await rawRequest('GET', `${t.baseUrl}/graphql?query=${encodeURIComponent('{ serverSettings { realmName } }')}`, { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { serverSettings: { realmName: 'Test Org' } } });
  });
});
