// The users and channels areas through /graphql: what GET /users, /users/me, POST /users, GET /streams,
// /get_stream_id and POST /users/me/subscriptions run, with the same permission rules.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from '../support/server.ts';
import { makeUser, deactivate, updateSettings } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { fails, login, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

// With Gravatar enabled, so that client_gravatar leaves default avatars to the client (test/rest/avatars.test.ts: without).
const t = useTestServer({ gravatarEnabled: true });
const { admin, moderator, alice, bob, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'guest']);

const gravatar = (email: string) => `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=1`;

const USER_FIELDS = 'userId email deliveryEmail fullName role isOwner isAdmin isGuest isBot isActive dateJoined timezone avatarVersion';
const CREATE_USER = 'mutation($e: String!, $p: String!, $n: String!) { createUser(email: $e, password: $p, fullName: $n) }';
const SUBSCRIBE = `mutation($subs: [SubscriptionSpec!]!, $inviteOnly: Boolean, $principals: JSON, $fatal: Boolean, $history: Boolean) {
  subscribe(subscriptions: $subs, inviteOnly: $inviteOnly, principals: $principals, authorizationErrorsFatal: $fatal, historyPublicToSubscribers: $history) {
    subscribed alreadySubscribed unauthorized } }`;
const CHANNELS = `query($includeAll: Boolean, $includePublic: Boolean, $includeSubscribed: Boolean) {
  channels(includeAll: $includeAll, includePublic: $includePublic, includeSubscribed: $includeSubscribed) { streamId name inviteOnly } }`;
const CHANNEL_ID = 'query($n: String!) { channelIdByName(name: $n) }';

const channelNames = async (as: Credentials, variables: Record<string, unknown> = {}) =>
  (await ok(t, CHANNELS, variables, as)).channels.map((c: { name: string }) => c.name);

describe('me', () => {
  it('is the authenticated user, with role flags', async () => {
    const data = await ok(t, `{ me { ${USER_FIELDS} } maxMessageId }`, {}, alice);
    expect(data.me).toMatchObject({
      userId: alice.userId, email: alice.email, deliveryEmail: alice.email, fullName: 'Alice Liddell',
      role: 400, isOwner: false, isAdmin: false, isGuest: false, isBot: false, isActive: true, avatarVersion: 1,
    });
    expect(new Date(data.me.dateJoined).toISOString()).toBe(data.me.dateJoined);
    expect(data.maxMessageId).toEqual(expect.any(Number));
  });

  it('reports the owner as owner and administrator', async () => {
    const data = await ok(t, '{ me { role isOwner isAdmin } }', {}, t.owner);
    expect(data.me).toEqual({ role: 100, isOwner: true, isAdmin: true });
  });

  it('leaves avatarUrl null with clientGravatar (the default) and gives the gravatar URL without it', async () => {
    const data = await ok(t, '{ me { withGravatar: avatarUrl(clientGravatar: true) byDefault: avatarUrl withoutGravatar: avatarUrl(clientGravatar: false) } }', {}, alice);
    expect(data.me.withGravatar).toBeNull();
    expect(data.me.byDefault).toBeNull();
    expect(data.me.withoutGravatar).toBe(gravatar(alice.email));
  });
});

describe('users', () => {
  it('lists every user of the organization with their role', async () => {
    const data = await ok(t, `{ users { ${USER_FIELDS} } }`, {}, alice);
    const byId = new Map(data.users.map((u: { userId: number }) => [u.userId, u]));
    expect(byId.get(t.owner.userId)).toMatchObject({ email: ADMIN_EMAIL, role: 100, isOwner: true, isAdmin: true });
    expect(byId.get(admin.userId)).toMatchObject({ role: 200, isOwner: false, isAdmin: true, isGuest: false });
    expect(byId.get(moderator.userId)).toMatchObject({ role: 300, isAdmin: false });
    expect(byId.get(alice.userId)).toMatchObject({ role: 400, isAdmin: false, fullName: 'Alice Liddell' });
    expect(byId.get(guest.userId)).toMatchObject({ role: 600, isAdmin: false, isGuest: true });
    const ids = data.users.map((u: { userId: number }) => u.userId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('includes deactivated users, marked inactive', async () => {
    const gone = await makeUser(t);
    await deactivate(t, gone.userId);
    const data = await ok(t, '{ users { userId isActive } }', {}, alice);
    expect(data.users).toContainEqual({ userId: gone.userId, isActive: false });
  });

  it('computes avatarUrl per clientGravatar', async () => {
    const data = await ok(t, '{ users { userId a: avatarUrl(clientGravatar: true) b: avatarUrl(clientGravatar: false) } }', {}, alice);
    const bobRow = data.users.find((u: { userId: number }) => u.userId === bob.userId);
    expect(bobRow).toEqual({ userId: bob.userId, a: null, b: gravatar(bob.email) });
  });

  it('hides a delivery email its owner keeps private, except from administrators, and then sends the avatar URL', async () => {
    const shy = await makeUser(t, { fullName: 'Shy Person' });
    await updateSettings(t, shy, { email_address_visibility: 3 });
    const query = 'query($id: Int!) { user(userId: $id) { deliveryEmail avatarUrl(clientGravatar: true) } }';
    const asMember = await ok(t, query, { id: shy.userId }, alice);
    expect(asMember.user).toEqual({ deliveryEmail: null, avatarUrl: gravatar(shy.email) });
    const asAdmin = await ok(t, query, { id: shy.userId }, admin);
    expect(asAdmin.user).toEqual({ deliveryEmail: shy.email, avatarUrl: null });
    const asSelf = await ok(t, query, { id: shy.userId }, shy);
    expect(asSelf.user.deliveryEmail).toBe(shy.email);
  });
});

describe('user / userByEmail', () => {
  it('finds a user by ID and by email (case-insensitively)', async () => {
    const byId = await ok(t, 'query($id: Int!) { user(userId: $id) { userId fullName } }', { id: bob.userId }, alice);
    expect(byId.user).toEqual({ userId: bob.userId, fullName: 'Bob Builder' });
    const byEmail = await ok(t, 'query($e: String!) { userByEmail(email: $e) { userId } }', { e: bob.email.toUpperCase() }, alice);
    expect(byEmail.userByEmail.userId).toBe(bob.userId);
  });

  it('refuses an unknown user with "No such user"', async () => {
    const byId = await fails(t, 'query($id: Int!) { user(userId: $id) { userId } }', { id: 999999 }, alice);
    expect(byId.error.message).toBe('No such user');
    expect(byId.error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    const byEmail = await fails(t, 'query($e: String!) { userByEmail(email: $e) { userId } }', { e: 'ghost@example.com' }, alice);
    expect(byEmail.error.message).toBe('No such user');
  });
});

describe('createUser', () => {
  it('as the owner creates a user who can log in and is subscribed to the default channels', async () => {
    const email = `new-${Date.now()}@example.com`;
    const data = await ok(t, CREATE_USER, { e: email, p: 'a fine password', n: 'New Person' }, t.owner);
    expect(data.createUser).toEqual(expect.any(Number));
    const creds = await login(t, email, 'a fine password');
    expect(creds.userId).toBe(data.createUser);
    const me = await ok(t, '{ me { fullName role } subscriptions { channel { name } } }', {}, creds);
    expect(me.me).toEqual({ fullName: 'New Person', role: 400 });
    expect(me.subscriptions.map((s: { channel: { name: string } }) => s.channel.name)).toEqual(['general']);
  });

  it('as an administrator works too', async () => {
    const data = await ok(t, CREATE_USER, { e: `by-admin-${Date.now()}@example.com`, p: 'pw', n: 'By Admin' }, admin);
    expect(data.createUser).toEqual(expect.any(Number));
  });

  it('as a plain member (or moderator) is refused with UNAUTHORIZED_PRINCIPAL', async () => {
    for (const actor of [alice, moderator]) {
      const { error } = await fails(t, CREATE_USER, { e: `nope-${actor.userId}@example.com`, p: 'pw', n: 'Nope' }, actor);
      expect(error.message).toBe('Must be an organization administrator');
      expect(error.extensions).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', httpStatus: 400 });
    }
    const data = await ok(t, '{ users { email } }', {}, alice);
    expect(data.users.map((u: { email: string }) => u.email)).not.toContain(`nope-${alice.userId}@example.com`);
  });

  it('refuses an email already in use, an invalid email and an empty name', async () => {
    const taken = await fails(t, CREATE_USER, { e: alice.email.toUpperCase(), p: 'pw', n: 'Dup' }, t.owner);
    expect(taken.error.message).toBe(`Email '${alice.email.toUpperCase()}' already in use`);
    const invalid = await fails(t, CREATE_USER, { e: 'not-an-email', p: 'pw', n: 'X' }, t.owner);
    expect(invalid.error.message).toBe('Invalid address: not-an-email');
    const noName = await fails(t, CREATE_USER, { e: `noname-${Date.now()}@example.com`, p: 'pw', n: '  ' }, t.owner);
    expect(noName.error.message).toBe('Name too short!');
  });

  it('requires authentication', async () => {
    const { error, res } = await fails(t, CREATE_USER, { e: 'anon@example.com', p: 'pw', n: 'Anon' });
    expect(error.extensions?.code).toBe('UNAUTHORIZED');
    expect(res.status).toBe(401);
  });
});

describe('subscribe', () => {
  it('creates a private channel with inviteOnly, subscribing its creator', async () => {
    const data = await ok(t, SUBSCRIBE, { subs: [{ name: 'alice-private', description: 'Alice\'s *own*' }], inviteOnly: true }, alice);
    expect(data.subscribe).toEqual({ subscribed: { [alice.userId]: ['alice-private'] }, alreadySubscribed: {}, unauthorized: [] });
    const id = (await ok(t, CHANNEL_ID, { n: 'alice-private' }, alice)).channelIdByName;
    const channel = await ok(t, `query($id: Int!) { channel(channelId: $id) {
      name description inviteOnly historyPublicToSubscribers creatorId subscriberCount } }`, { id }, alice);
    expect(channel.channel).toEqual({
      name: 'alice-private', description: 'Alice\'s *own*', inviteOnly: true, historyPublicToSubscribers: false,
      creatorId: alice.userId, subscriberCount: 1,
    });
    const subs = await ok(t, '{ subscriptions { channel { name } subscribers } }', {}, alice);
    expect(subs.subscriptions).toContainEqual({ channel: { name: 'alice-private' }, subscribers: [alice.userId] });
  });

  it('creates a public channel by default and reports already-subscribed users', async () => {
    await ok(t, SUBSCRIBE, { subs: [{ name: 'open-plan' }] }, alice);
    const again = await ok(t, SUBSCRIBE, { subs: [{ name: 'open-plan' }] }, alice);
    expect(again.subscribe).toEqual({ subscribed: {}, alreadySubscribed: { [alice.userId]: ['open-plan'] }, unauthorized: [] });
    const joined = await ok(t, SUBSCRIBE, { subs: [{ name: 'open-plan' }] }, bob);
    expect(joined.subscribe.subscribed).toEqual({ [bob.userId]: ['open-plan'] });
  });

  it('subscribes other users given as principals', async () => {
    await ok(t, SUBSCRIBE, { subs: [{ name: 'with-bob' }], inviteOnly: true, principals: [alice.userId, bob.email] }, alice);
    const subs = await ok(t, '{ subscriptions { channel { name inviteOnly } } }', {}, bob);
    expect(subs.subscriptions).toContainEqual({ channel: { name: 'with-bob', inviteOnly: true } });
  });

  it('refuses to let an outsider join a private channel', async () => {
    const { error } = await fails(t, SUBSCRIBE, { subs: [{ name: 'alice-private' }] }, bob);
    expect(error.message).toBe('Unable to access channel (alice-private).');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    const lenient = await ok(t, SUBSCRIBE, { subs: [{ name: 'alice-private' }], fatal: false }, bob);
    expect(lenient.subscribe).toEqual({ subscribed: {}, alreadySubscribed: {}, unauthorized: ['alice-private'] });
  });

  it('refuses unknown and malformed principals', async () => {
    expect((await fails(t, SUBSCRIBE, { subs: [{ name: 'open-plan' }], principals: [999999] }, alice)).error.message).toBe('No such user');
    expect((await fails(t, SUBSCRIBE, { subs: [{ name: 'open-plan' }], principals: { not: 'a list' } }, alice)).error.message).toBe('Invalid principals');
  });

  it('refuses an empty channel name', async () => {
    const { error } = await fails(t, SUBSCRIBE, { subs: [{ name: '   ' }] }, alice);
    expect(error.message).toBe("Channel name can't be empty.");
  });
});

describe('channels', () => {
  beforeAll(async () => {
    await ok(t, SUBSCRIBE, { subs: [{ name: 'hidden-room' }], inviteOnly: true, principals: [alice.userId] }, alice);
    await ok(t, SUBSCRIBE, { subs: [{ name: 'town-square' }] }, alice);
  });

  it('lists public channels and the viewer\'s subscriptions', async () => {
    const names = await channelNames(alice);
    expect(names).toEqual(expect.arrayContaining(['general', 'town-square', 'hidden-room']));
  });

  it('does not list a private channel to a non-subscriber', async () => {
    const names = await channelNames(bob);
    expect(names).toContain('town-square');
    expect(names).not.toContain('hidden-room');
    expect(await channelNames(bob, { includeAll: true })).not.toContain('hidden-room');
  });

  it('lists a private channel to its subscribers', async () => {
    await ok(t, SUBSCRIBE, { subs: [{ name: 'hidden-room' }], principals: [bob.userId] }, alice);
    const channels = (await ok(t, CHANNELS, {}, bob)).channels;
    expect(channels).toContainEqual({ streamId: expect.any(Number), name: 'hidden-room', inviteOnly: true });
  });

  it('lists private channels to administrators only with includeAll', async () => {
    expect(await channelNames(admin)).not.toContain('hidden-room');
    expect(await channelNames(admin, { includeAll: true })).toContain('hidden-room');
  });

  it('does not list unsubscribed public channels to guests', async () => {
    const names = await channelNames(guest);
    expect(names).toContain('general');
    expect(names).not.toContain('town-square');
  });

  it('lists only subscriptions with includePublic false', async () => {
    const names = await channelNames(moderator, { includePublic: false });
    expect(names).toEqual(['general']);
  });
});

describe('channelIdByName', () => {
  beforeAll(async () => {
    await ok(t, SUBSCRIBE, { subs: [{ name: 'vault' }], inviteOnly: true }, admin);
  });

  it('gives the ID of a public channel, by name case-insensitively', async () => {
    const id = (await ok(t, CHANNEL_ID, { n: 'general' }, alice)).channelIdByName;
    expect((await ok(t, CHANNEL_ID, { n: 'GENERAL' }, alice)).channelIdByName).toBe(id);
    const channel = await ok(t, 'query($id: Int!) { channel(channelId: $id) { name } }', { id }, alice);
    expect(channel.channel.name).toBe('general');
  });

  it('gives the ID of a private channel to its subscribers', async () => {
    expect((await ok(t, CHANNEL_ID, { n: 'vault' }, admin)).channelIdByName).toEqual(expect.any(Number));
  });

  it('reports a private channel to an outsider like an unknown name (Zulip\'s access_stream_by_name)', async () => {
    const privateOne = await fails(t, CHANNEL_ID, { n: 'vault' }, alice);
    expect(privateOne.error.message).toBe("Invalid channel name 'vault'");
    expect(privateOne.error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    const missing = await fails(t, CHANNEL_ID, { n: 'no-such-channel' }, alice);
    expect(missing.error.message).toBe("Invalid channel name 'no-such-channel'");
    expect(missing.error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('hides the private channel from `channel(channelId)` too', async () => {
    const id = (await ok(t, CHANNEL_ID, { n: 'vault' }, admin)).channelIdByName;
    const { error } = await fails(t, 'query($id: Int!) { channel(channelId: $id) { name } }', { id }, alice);
    expect(error.message).toBe('Invalid channel ID');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });
});
