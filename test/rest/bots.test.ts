// Bots (Zulip's /bots): creating every type, who may create them (can_create_bots_group,
// can_create_write_only_bots_group), listing, changing, handing over, deactivating and regenerating
// keys, with `realm_bot` events to the owner and administrators, `realm_user` events to everyone,
// register's `realm_bots`, and the bots' keys working (incoming webhooks for sending only).
import { describe, expect, it } from 'vitest';
import { makeUser, updateRealm } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let n = 0;
const t = useTestServer();
const { admin, alice, bob, guest } = useTeam(t, ['admin', 'alice', 'bob', 'guest'], { admin: { fullName: 'Admin', role: 200 }, alice: { fullName: 'Alice' }, bob: { fullName: 'Bob' } });

const queue = async (c: ApiClient, types = ['realm_bot', 'realm_user']) => (await registerQueue(c, { event_types: types })).queue_id;
async function newBot(c: ApiClient, params: Record<string, unknown> = {}): Promise<{ id: number; credentials: Credentials; name: string }> {
  n += 1;
  const name = `Bot ${n} ${Date.now()}`;
  const res = await c.post('/bots', { full_name: name, short_name: `b${n}x${Date.now()}`, ...params });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const record = (await c.get(`/users/${res.body.user_id}`)).body.user;
  return { id: res.body.user_id, credentials: { email: record.email, apiKey: res.body.api_key, userId: res.body.user_id }, name };
}
async function setRealmGroup(setting: 'can_create_bots_group' | 'can_create_write_only_bots_group', groupName: string): Promise<void> {
  const db = t.db;
  const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
  const group = await db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: groupName } });
  await updateRealm(t, { [setting]: { new: group.id } });
}

describe('POST /bots', () => {
  it('creates a generic bot owned by the caller, whose key works, announced to its administrators and to everyone', async () => {
    const aliceClient = t.client(alice);
    const [aliceQueue, adminQueue, bobQueue] = await Promise.all([queue(aliceClient), queue(t.client(admin)), queue(t.client(bob))]);
    const res = await aliceClient.post('/bots', { full_name: 'Helper Bot', short_name: 'helper' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false });
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(typeof res.body.avatar_url).toBe('string');
    const botId = res.body.user_id;

    const me = await t.client({ email: 'helper-bot@localhost', apiKey: res.body.api_key, userId: botId }).get('/users/me');
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ user_id: botId, email: 'helper-bot@localhost', is_bot: true, full_name: 'Helper Bot' });

    const added = (await allEvents(aliceClient, aliceQueue)).find((e) => e.type === 'realm_bot');
    expect(added).toMatchObject({
      op: 'add',
      bot: { user_id: botId, email: 'helper-bot@localhost', full_name: 'Helper Bot', bot_type: 1, is_active: true, api_key: res.body.api_key, owner_id: alice.userId, services: [] },
    });
    expect((await allEvents(t.client(admin), adminQueue)).some((e) => e.type === 'realm_bot' && e.op === 'add' && e.bot.user_id === botId)).toBe(true);
    const bobEvents = await allEvents(t.client(bob), bobQueue);
    expect(bobEvents.some((e) => e.type === 'realm_bot')).toBe(false);
    expect(bobEvents.find((e) => e.type === 'realm_user')).toMatchObject({ op: 'add', person: { user_id: botId, is_bot: true, bot_type: 1, bot_owner_id: alice.userId } });
  });

  it('creates outgoing-webhook bots with their service, and embedded bots with a known handler', async () => {
    const c = t.client(alice);
    const q = await queue(c, ['realm_bot']);
    const res = await c.post('/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 3, payload_url: JSON.stringify('http://127.0.0.1:9/hook'), interface_type: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const added = (await allEvents(c, q)).find((e) => e.type === 'realm_bot');
    expect(added.bot).toMatchObject({ bot_type: 3, services: [{ base_url: 'http://127.0.0.1:9/hook', interface: 2 }] });
    expect(added.bot.services[0].token).toMatch(/^[A-Za-z0-9]{32}$/);

    const embedded = await c.post('/bots', { full_name: 'Hello', short_name: 'hello', bot_type: 4, service_name: 'helloworld' });
    expect(embedded.status, JSON.stringify(embedded.body)).toBe(200);
    const unknown = await c.post('/bots', { full_name: 'Nope', short_name: 'nope', bot_type: 4, service_name: 'giphy' });
    expect(unknown.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid embedded bot name.' });
  });

  it('lists in register\'s realm_embedded_bots exactly the services an embedded bot may be made with', async () => {
    const { realm_embedded_bots: services } = await registerQueue<{ realm_embedded_bots: { name: string; config: object }[] }>(t.client(alice), { fetch_event_types: ['realm_embedded_bots'] });
    expect(services.map((s) => s.name).sort()).toEqual(['encrypt', 'helloworld']);
    for (const { name, config } of services) {
      expect(config).toEqual({});
      const res = await t.client(alice).post('/bots', { full_name: `Service ${name}`, short_name: `service-${name}`, bot_type: 4, service_name: name });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('answers Zulip\'s errors and writes nothing', async () => {
    const c = t.client(alice);
    const before = await t.db.user.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ full_name: 'X', short_name: '  ' }, 'Bad name or username'],
      [{ full_name: '  ', short_name: 'blank' }, 'Name must not be empty!'],
      [{ full_name: 'Helper Bot', short_name: 'other' }, 'Name is already in use.'],
      [{ full_name: 'Alice', short_name: 'other2' }, 'Name is already in use.'],
      [{ full_name: 'New name', short_name: 'helper' }, 'Username already in use'],
      [{ full_name: 'Typed', short_name: 'typed', bot_type: 7 }, 'Invalid bot type'],
      [{ full_name: 'Iface', short_name: 'iface', bot_type: 3, payload_url: '"http://x.example/"', interface_type: 5 }, 'Invalid interface type'],
      [{ full_name: 'Url', short_name: 'url', bot_type: 3, payload_url: '"not a url"' }, 'payload_url is not a URL'],
      [{ full_name: 'Chan', short_name: 'chan', default_sending_stream: 'no such channel' }, "Invalid channel name 'no such channel'"],
    ];
    for (const [params, msg] of cases) {
      const res = await c.post('/bots', params);
      expect(res.body, JSON.stringify(params)).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect((await c.post('/bots', { full_name: 'No short' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'short_name' });
    expect(await t.db.user.count()).toBe(before);
  });

  it('is for members: guests and bots are refused', async () => {
    expect((await t.client(guest).post('/bots', { full_name: 'G', short_name: 'g' })).body).toMatchObject({ msg: 'Not allowed for guest users' });
    const bot = await newBot(t.client(alice));
    expect((await t.client(bot.credentials).post('/bots', { full_name: 'B', short_name: 'bb' })).body).toMatchObject({ msg: 'This endpoint does not accept bot requests.' });
  });

  it('follows can_create_bots_group, and can_create_write_only_bots_group for incoming webhooks', async () => {
    await setRealmGroup('can_create_bots_group', 'role:administrators');
    await setRealmGroup('can_create_write_only_bots_group', 'role:nobody');
    try {
      const c = t.client(bob);
      expect((await c.post('/bots', { full_name: 'Perm', short_name: 'perm' })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect((await c.post('/bots', { full_name: 'Perm', short_name: 'perm', bot_type: 2 })).body).toMatchObject({ msg: 'Insufficient permission' });
      await setRealmGroup('can_create_write_only_bots_group', 'role:members');
      expect((await c.post('/bots', { full_name: 'Perm', short_name: 'perm', bot_type: 3, payload_url: '"http://x.example/"' })).body).toMatchObject({ msg: 'Insufficient permission' });
      expect((await c.post('/bots', { full_name: 'Perm', short_name: 'perm', bot_type: 2 })).status).toBe(200);
      expect((await t.client(admin).post('/bots', { full_name: 'Admin bot', short_name: 'adminbot' })).status).toBe(200);
    } finally {
      await setRealmGroup('can_create_bots_group', 'role:members');
      await setRealmGroup('can_create_write_only_bots_group', 'role:members');
    }
  });
});

describe('incoming webhook bots', () => {
  it('may send messages and nothing else', async () => {
    const bot = await newBot(t.client(alice), { bot_type: 2 });
    const c = t.client(bot.credentials);
    const sent = await c.post('/messages', { type: 'channel', to: 'general', topic: 'hooks', content: 'from a webhook' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    for (const res of [await c.get('/users/me'), await c.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }), await c.post('/register', {})]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'This API is not available to incoming webhook bots.' });
    }
    const { error } = await fails(t, '{ me { userId } }', {}, bot.credentials);
    expect(error.message).toBe('This API is not available to incoming webhook bots.');
  });
});

describe('GET /bots', () => {
  it('lists the caller\'s own active bots only', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    const one = await newBot(c);
    const two = await newBot(c);
    await newBot(t.client(bob));
    expect((await c.delete(`/bots/${two.id}`)).status).toBe(200);
    const res = await c.get('/bots');
    expect(res.status).toBe(200);
    expect(res.body.bots).toEqual([{
      username: one.credentials.email, user_id: one.id, full_name: one.name, api_key: one.credentials.apiKey, avatar_url: expect.any(String),
      default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false,
    }]);
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('renames, with realm_bot and realm_user updates; refuses taken names', async () => {
    const c = t.client(alice);
    const bot = await newBot(c);
    const [q, bobQ] = await Promise.all([queue(c), queue(t.client(bob))]);
    const res = await c.patch(`/bots/${bot.id}`, { full_name: 'Renamed bot' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ full_name: 'Renamed bot', bot_owner: alice.email, default_sending_stream: null });
    const got = await allEvents(c, q);
    expect(got).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, full_name: 'Renamed bot' } }),
      expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: 'Renamed bot' } }),
    ]));
    expect((await allEvents(t.client(bob), bobQ)).some((e) => e.type === 'realm_bot')).toBe(false);
    expect((await c.patch(`/bots/${bot.id}`, { full_name: 'Bob' })).body).toMatchObject({ msg: 'Name is already in use.' });
  });

  it('is for the bot\'s owner and administrators; not for humans', async () => {
    const bot = await newBot(t.client(alice));
    expect((await t.client(bob).patch(`/bots/${bot.id}`, { full_name: 'Mine now' })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await t.client(admin).patch(`/bots/${bot.id}`, { full_name: 'Admin renamed' })).status).toBe(200);
    expect((await t.client(alice).patch(`/bots/${bob.userId}`, { full_name: 'X' })).body).toMatchObject({ msg: 'No such bot' });
    expect((await t.client(alice).patch('/bots/999999', { full_name: 'X' })).body).toMatchObject({ msg: 'No such bot' });
    // Role changes need an administrator.
    expect((await t.client(alice).patch(`/bots/${bot.id}`, { role: 300 })).body).toMatchObject({ msg: 'Must be an organization administrator' });
    expect((await t.client(admin).patch(`/bots/${bot.id}`, { role: 300 })).status).toBe(200);
    expect((await t.client(admin).get(`/users/${bot.id}`)).body.user.role).toBe(300);
  });

  it('hands a bot over: the previous owner hears it go, the new owner hears it come', async () => {
    const carol = await makeUser(t);
    const bot = await newBot(t.client(carol));
    const dave = await makeUser(t);
    const [carolQ, daveQ, adminQ] = await Promise.all([queue(t.client(carol)), queue(t.client(dave)), queue(t.client(admin))]);
    const res = await t.client(carol).patch(`/bots/${bot.id}`, { bot_owner_id: dave.userId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.bot_owner).toBe(dave.email);
    expect((await allEvents(t.client(carol), carolQ)).filter((e) => e.type === 'realm_bot')).toEqual([expect.objectContaining({ op: 'delete', bot: { user_id: bot.id } })]);
    expect((await allEvents(t.client(dave), daveQ)).filter((e) => e.type === 'realm_bot')).toEqual([expect.objectContaining({ op: 'add', bot: expect.objectContaining({ user_id: bot.id, owner_id: dave.userId }) })]);
    const adminEvents = await allEvents(t.client(admin), adminQ);
    expect(adminEvents).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: dave.userId } }),
      expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: dave.userId } }),
    ]));
    // Carol no longer administers it.
    expect((await t.client(carol).patch(`/bots/${bot.id}`, { full_name: 'Back' })).body).toMatchObject({ msg: 'Insufficient permission' });
    expect((await t.client(dave).patch(`/bots/${bot.id}`, { bot_owner_id: bot.id })).body).toMatchObject({ msg: "Failed to change owner, bots can't own other bots" });
    expect((await t.client(dave).patch(`/bots/${bot.id}`, { bot_owner_id: 999999 })).body).toMatchObject({ msg: 'Failed to change owner, no such user' });
  });

  it('changes an outgoing webhook\'s URL and interface, and the default channels', async () => {
    const c = t.client(alice);
    const bot = await newBot(c, { bot_type: 3, payload_url: '"http://127.0.0.1:9/a"' });
    const q = await queue(c, ['realm_bot']);
    const res = await c.patch(`/bots/${bot.id}`, { service_payload_url: '"http://127.0.0.1:9/b"', service_interface: 2, default_sending_stream: 'general' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ service_payload_url: 'http://127.0.0.1:9/b', service_interface: 2, default_sending_stream: 'general' });
    const updates = (await allEvents(c, q)).filter((e) => e.type === 'realm_bot').map((e) => e.bot);
    expect(updates).toEqual(expect.arrayContaining([
      { user_id: bot.id, default_sending_stream: 'general' },
      { user_id: bot.id, services: [{ base_url: 'http://127.0.0.1:9/b', interface: 2, token: expect.any(String) }] },
    ]));
    expect((await c.patch(`/bots/${bot.id}`, { default_sending_stream: '' })).body.default_sending_stream).toBeNull();
  });
});

describe('POST /bots/{bot_id}/api_key/regenerate', () => {
  it('replaces the key: the old one stops working, administrators hear the new one', async () => {
    const c = t.client(alice);
    const bot = await newBot(c);
    const q = await queue(c, ['realm_bot']);
    const res = await c.post(`/bots/${bot.id}/api_key/regenerate`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.api_key).not.toBe(bot.credentials.apiKey);
    expect((await t.client(bot.credentials).get('/users/me')).status).toBe(401);
    expect((await t.client({ ...bot.credentials, apiKey: res.body.api_key }).get('/users/me')).status).toBe(200);
    expect((await allEvents(c, q)).find((e) => e.type === 'realm_bot')).toMatchObject({ op: 'update', bot: { user_id: bot.id, api_key: res.body.api_key } });
    expect((await t.client(bob).post(`/bots/${bot.id}/api_key/regenerate`)).body).toMatchObject({ msg: 'Insufficient permission' });
  });
});

describe('DELETE /bots/{bot_id}', () => {
  it('deactivates the bot: its key is refused; realm_bot and realm_user updates', async () => {
    const c = t.client(alice);
    const bot = await newBot(c);
    const [q, bobQ] = await Promise.all([queue(c), queue(t.client(bob))]);
    expect((await t.client(bob).delete(`/bots/${bot.id}`)).body).toMatchObject({ msg: 'Insufficient permission' });
    const res = await c.delete(`/bots/${bot.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(bot.credentials).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
    expect(await allEvents(c, q)).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: false } }),
      expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, is_active: false } }),
    ]));
    expect((await allEvents(t.client(bob), bobQ)).some((e) => e.type === 'realm_bot')).toBe(false);
    expect((await c.delete(`/bots/${bot.id}`)).body).toMatchObject({ msg: 'User is deactivated' });
  });

  it('is not DELETE /users/{id}, which refuses bots', async () => {
    const bot = await newBot(t.client(alice));
    expect((await t.client(admin).delete(`/users/${bot.id}`)).body).toMatchObject({ msg: 'No such user' });
    expect((await t.client(admin).delete(`/bots/${alice.userId}`)).body).toMatchObject({ msg: 'No such bot' });
  });
});

describe('register realm_bots', () => {
  it('holds every bot for administrators and one\'s own bots for members', async () => {
    const carol = await makeUser(t);
    const bot = await newBot(t.client(carol), { bot_type: 3, payload_url: '"http://127.0.0.1:9/r"' });
    const mine = await t.client(carol).post('/register', { fetch_event_types: ['realm_bot'] });
    expect(mine.body.realm_bots.map((b: any) => b.user_id)).toEqual([bot.id]);
    expect(mine.body.realm_bots[0]).toMatchObject({ owner_id: carol.userId, bot_type: 3, services: [{ base_url: 'http://127.0.0.1:9/r', interface: 1 }] });
    const admins = await t.client(admin).post('/register', { fetch_event_types: ['realm_bot'] });
    expect(admins.body.realm_bots.map((b: any) => b.user_id)).toContain(bot.id);
    const bobs = await t.client(bob).post('/register', { fetch_event_types: ['realm_bot'] });
    expect(bobs.body.realm_bots.map((b: any) => b.user_id)).not.toContain(bot.id);
  });
});

describe('GraphQL', () => {
  it('createBot, ownBots, updateBot, regenerateBotApiKey, deactivateBot', async () => {
    const carol = await makeUser(t);
    const created = await ok(t, 'mutation { createBot(fullName: "GraphQL bot", shortName: "gql") { userId email apiKey botType ownerId services { baseUrl } } }', {}, carol);
    expect(created.createBot).toMatchObject({ email: 'gql-bot@localhost', botType: 1, ownerId: carol.userId, services: [] });
    const id = created.createBot.userId;
    expect((await ok(t, '{ ownBots { userId fullName } }', {}, carol)).ownBots).toEqual([{ userId: id, fullName: 'GraphQL bot' }]);
    expect((await ok(t, `mutation { updateBot(botId: ${id}, fullName: "GraphQL bot 2") { fullName ownerEmail } }`, {}, carol)).updateBot).toEqual({ fullName: 'GraphQL bot 2', ownerEmail: carol.email });
    const key = (await ok(t, `mutation { regenerateBotApiKey(botId: ${id}) }`, {}, carol)).regenerateBotApiKey;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await fails(t, `mutation { deactivateBot(botId: ${id}) }`, {}, bob)).error.message).toBe('Insufficient permission');
    expect((await ok(t, `mutation { deactivateBot(botId: ${id}) }`, {}, carol)).deactivateBot).toBe(true);
    expect((await ok(t, '{ ownBots { userId } }', {}, carol)).ownBots).toEqual([]);
    expect((await ok(t, '{ administeredBots { userId isActive } }', {}, carol)).administeredBots).toEqual([{ userId: id, isActive: false }]);
  });
});

describe('/bot_storage', () => {
  it('keeps each account\'s own string entries: put, get (some or all), delete; missing keys are errors', async () => {
    const bot = await newBot(t.client(alice));
    const c = t.client(bot.credentials);
    expect((await c.request('PUT', '/bot_storage', { storage: JSON.stringify({ marco: 'polo', income: 'cash' }) })).status).toBe(200);
    expect((await c.request('PUT', '/bot_storage', { storage: JSON.stringify({ marco: 'polo!' }) })).status).toBe(200);
    expect((await c.get('/bot_storage', { keys: JSON.stringify(['marco']) })).body).toMatchObject({ storage: { marco: 'polo!' } });
    expect((await c.get('/bot_storage')).body.storage).toEqual({ income: 'cash', marco: 'polo!' });
    expect((await c.get('/bot_storage', { keys: JSON.stringify(['nope']) })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Key does not exist.' });
    // Another account sees none of it.
    expect((await t.client(alice).get('/bot_storage')).body.storage).toEqual({});
    expect((await c.request('PUT', '/bot_storage', { storage: JSON.stringify({ n: 1 }) })).body).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await c.delete('/bot_storage', { keys: JSON.stringify(['marco', 'nope']) })).body).toMatchObject({ msg: 'Key does not exist.' });
    expect((await c.get('/bot_storage')).body.storage).toEqual({ income: 'cash', marco: 'polo!' });
    expect((await c.delete('/bot_storage', { keys: JSON.stringify(['marco']) })).status).toBe(200);
    expect((await c.get('/bot_storage')).body.storage).toEqual({ income: 'cash' });
    expect((await c.delete('/bot_storage')).status).toBe(200);
    expect((await c.get('/bot_storage')).body.storage).toEqual({});
  });

  it('refuses what would exceed the size limit, writing nothing', async () => {
    const c = t.client(await makeUser(t));
    const big = 'x'.repeat(2_000_000);
    const entries = Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`k${i}`, big]));
    const res = await c.request('PUT', '/bot_storage', { storage: JSON.stringify(entries) }, 'json');
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Request exceeds storage limit by 10 characters. The limit is 10000000 characters.' });
    expect((await c.get('/bot_storage')).body.storage).toEqual({});
  });
});

describe('POST /users/{bot_id}/reactivate', () => {
  it('needs the name free among active users and the permission to create such a bot', async () => {
    const bot = await newBot(t.client(alice));
    expect((await t.client(alice).delete(`/bots/${bot.id}`)).status).toBe(200);
    const other = await newBot(t.client(alice));
    expect((await t.client(alice).patch(`/bots/${other.id}`, { full_name: bot.name })).status).toBe(200);
    const refused = await t.client(admin).post(`/users/${bot.id}/reactivate`);
    expect(refused.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: `There is already an active bot named "${bot.name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    });
    expect((await t.client(alice).delete(`/bots/${other.id}`)).status).toBe(200);
    await setRealmGroup('can_create_bots_group', 'role:owners');
    try {
      expect((await t.client(admin).post(`/users/${bot.id}/reactivate`)).body).toMatchObject({ msg: 'Insufficient permission' });
    } finally {
      await setRealmGroup('can_create_bots_group', 'role:members');
    }
    expect((await t.client(admin).post(`/users/${bot.id}/reactivate`)).status).toBe(200);
    expect((await t.client(bot.credentials).get('/users/me')).status).toBe(200);
  });
});
