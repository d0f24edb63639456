// Several organizations on one server, through /graphql: the Host header picks the realm
// (`other.localhost` is realm "other", the root domain `localhost` is the first realm), and nothing
// of one realm is visible or reachable from another.
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import type { Credentials } from '../support/client.ts';
import { createRealm } from '../../resolvers/realm/create.ts';
import { graphql } from '../support/client.ts';
import { fails, login, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const ROOT = 'localhost';
const OTHER = 'other.localhost';
const BOSS_EMAIL = 'boss@other.example.com';
const BOSS_PASSWORD = 'pw12345678';

let boss: Credentials;
let general1: number;
let secret1: number;
let publicMessage1: number;
let directMessage1: number;
let general2: number;
let message2: number;
const t = useTestServer();
const { alice } = useTeam(t, ['alice']);

const SEND = `mutation($type: String!, $to: JSON!, $topic: String, $content: String!) {
  sendMessage(type: $type, to: $to, topic: $topic, content: $content) }`;
const MESSAGES = `query($narrow: [NarrowTermInput!]) {
  messages(anchor: "newest", numBefore: 1000, numAfter: 0, narrow: $narrow) { messages { id senderId streamId } } }`;
const ids = (rows: { id?: number; userId?: number; streamId?: number }[], key: 'id' | 'userId' | 'streamId' = 'id') => rows.map((r) => r[key]);

/** Runs an operation in realm 2 as its owner. */
const asBoss = (query: string, variables: Record<string, unknown> = {}) => ok(t, query, variables, boss, OTHER);
const bossFails = (query: string, variables: Record<string, unknown> = {}) => fails(t, query, variables, boss, OTHER);

beforeAll(async () => {
  // Realm 1: a public channel with a message, a private channel, a direct message.
  general1 = (await ok(t, '{ channelIdByName(name: "general") }', {}, t.owner, ROOT)).channelIdByName;
  await ok(t, 'mutation { subscribe(subscriptions: [{ name: "realm-one-secret" }], inviteOnly: true) { subscribed } }', {}, t.owner, ROOT);
  secret1 = (await ok(t, '{ channelIdByName(name: "realm-one-secret") }', {}, t.owner, ROOT)).channelIdByName;
  publicMessage1 = (await ok(t, SEND, { type: 'channel', to: 'general', topic: 'realm one', content: 'hello from realm one' }, alice, ROOT)).sendMessage;
  directMessage1 = (await ok(t, SEND, { type: 'direct', to: [t.owner.userId], content: 'dm in realm one' }, alice, ROOT)).sendMessage;

  // Realm 2, created the way the management command does, reached at other.localhost.
  await createRealm(t.db, { stringId: 'other', name: 'Other', ownerEmail: BOSS_EMAIL, ownerPassword: BOSS_PASSWORD });
  boss = await login(t, BOSS_EMAIL, BOSS_PASSWORD, OTHER);
  general2 = (await asBoss('{ channelIdByName(name: "general") }')).channelIdByName;
  message2 = (await asBoss(SEND, { type: 'channel', to: 'general', topic: 'realm two', content: 'hello from realm two' })).sendMessage;
});

describe('The Host header picks the organization', () => {
  it('serverSettings at other.localhost describes realm 2, at localhost realm 1', async () => {
    const other = await ok(t, '{ serverSettings { realmName realmUrl } }', {}, undefined, OTHER);
    expect(other.serverSettings.realmName).toBe('Other');
    expect(new URL(other.serverSettings.realmUrl).hostname).toBe('other.localhost');
    const root = await ok(t, '{ serverSettings { realmName realmUrl } }', {}, undefined, ROOT);
    expect(root.serverSettings.realmName).toBe('Test Org');
    expect(new URL(root.serverSettings.realmUrl).hostname).toBe('localhost');
  });

  it('fetchApiKey at other.localhost logs in realm 2\'s owner', async () => {
    const me = await asBoss('{ me { userId email role isOwner } }');
    expect(me.me).toEqual({ userId: boss.userId, email: BOSS_EMAIL, role: 100, isOwner: true });
    expect(boss.userId).not.toBe(t.owner.userId);
  });

  it('refuses realm 2\'s password login at realm 1\'s host, and realm 1\'s at realm 2\'s', async () => {
    const wrongHost = await fails(t, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey } }',
      { u: BOSS_EMAIL, p: BOSS_PASSWORD }, undefined, ROOT);
    expect(wrongHost.error.extensions?.code).toBe('AUTHENTICATION_FAILED');
    const reverse = await fails(t, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey } }',
      { u: ADMIN_EMAIL, p: ADMIN_PASSWORD }, undefined, OTHER);
    expect(reverse.error.extensions?.code).toBe('AUTHENTICATION_FAILED');
  });

  it('lets the same email belong to a different user in each realm', async () => {
    const userId = (await asBoss('mutation($e: String!) { createUser(email: $e, password: "second realm pw", fullName: "Alice Two") }',
      { e: alice.email })).createUser;
    expect(userId).not.toBe(alice.userId);
    const two = await login(t, alice.email, 'second realm pw', OTHER);
    expect(two.userId).toBe(userId);
    const one = await login(t, alice.email, 'pw-' + alice.email, ROOT);
    expect(one.userId).toBe(alice.userId);
    expect((await fails(t, '{ me { userId } }', {}, two, ROOT)).error.message).toBe('Account is not associated with this subdomain');
  });

  it('answers for an unknown subdomain that there is no organization there', async () => {
    const { error, res } = await fails(t, '{ serverSettings { realmName } }', {}, undefined, 'nowhere.localhost');
    expect(error.message).toBe('There is no organization hosted at this address.');
    expect(error.extensions?.httpStatus).toBe(404);
    expect(res.body.data ?? null).toBeNull();
  });
});

describe('Credentials are bound to their realm', () => {
  it('realm 1 credentials are refused at realm 2\'s host', async () => {
    for (const creds of [t.owner, alice]) {
      const { error, res } = await fails(t, '{ me { userId } }', {}, creds, OTHER);
      expect(error.message).toBe('Account is not associated with this subdomain');
      expect(error.extensions?.code).toBe('BAD_REQUEST');
      expect(res.body.data ?? null).toBeNull();
    }
  });

  it('realm 1 credentials do not reach realm 2 even for public fields or mutations', async () => {
    // serverSettings ignores credentials (as Zulip's server_settings): realm 2's public settings only.
    const settings = await ok(t, '{ serverSettings { realmName } }', {}, t.owner, OTHER);
    expect(settings.serverSettings.realmName).toBe((await asBoss('{ serverSettings { realmName } }')).serverSettings.realmName);
    expect(settings.serverSettings.realmName).not.toBe((await ok(t, '{ serverSettings { realmName } }', {}, t.owner)).serverSettings.realmName);
    const mine = await fails(t, '{ serverSettings { realmName } me { userId } }', {}, t.owner, OTHER);
    expect(mine.error.message).toBe('Account is not associated with this subdomain');
    const send = await fails(t, SEND, { type: 'channel', to: 'general', topic: 'intruder', content: 'x' }, alice, OTHER);
    expect(send.error.message).toBe('Account is not associated with this subdomain');
    const window = await asBoss(MESSAGES, { narrow: [{ operator: 'channel', operand: 'general' }] });
    expect(window.messages.messages.map((m: { senderId: number }) => m.senderId)).not.toContain(alice.userId);
  });

  it('realm 2 credentials are refused at realm 1\'s host', async () => {
    const { error } = await fails(t, '{ me { userId } }', {}, boss, ROOT);
    expect(error.message).toBe('Account is not associated with this subdomain');
  });
});

// Errors found while resolving the realm or the credentials carry their HTTP status, as on REST.
describe('Host and credential errors are client errors, not server errors', () => {
  it('an unknown subdomain is not answered with HTTP 500 (REST: 404)', async () => {
    const res = await graphql(t.baseUrl, '{ serverSettings { realmName } }', {}, undefined, 'nowhere.localhost');
    expect(res.body.errors?.[0]?.message).toBe('There is no organization hosted at this address.');
    expect(res.status).toBeLessThan(500);
  });

  it('credentials of another realm are not answered with HTTP 500 (REST: 400)', async () => {
    const res = await graphql(t.baseUrl, '{ me { userId } }', {}, t.owner, OTHER);
    expect(res.body.errors?.[0]?.message).toBe('Account is not associated with this subdomain');
    expect(res.status).toBeLessThan(500);
  });
});

describe('Users of realm 2 cannot see realm 1\'s users', () => {
  it('`users` lists only realm 2', async () => {
    const data = await asBoss('{ users { userId email } }');
    const emails = data.users.map((u: { email: string }) => u.email);
    expect(emails).toContain(BOSS_EMAIL);
    expect(emails).not.toContain(ADMIN_EMAIL);
    expect(ids(data.users, 'userId')).not.toContain(t.owner.userId);
    expect(ids(data.users, 'userId')).not.toContain(alice.userId);
    const realm1 = await ok(t, '{ users { email } }', {}, t.owner, ROOT);
    expect(realm1.users.map((u: { email: string }) => u.email)).not.toContain(BOSS_EMAIL);
  });

  it('`user` and `userByEmail` do not find realm 1 users', async () => {
    expect((await bossFails('query($id: Int!) { user(userId: $id) { email } }', { id: t.owner.userId })).error.message).toBe('No such user');
    expect((await bossFails('query($e: String!) { userByEmail(email: $e) { userId } }', { e: ADMIN_EMAIL })).error.message).toBe('No such user');
  });

  it('direct messages to realm 1 users are refused', async () => {
    expect((await bossFails(SEND, { type: 'direct', to: [t.owner.userId], content: 'x' })).error.message).toBe(`Invalid user ID ${t.owner.userId}`);
    expect((await bossFails(SEND, { type: 'direct', to: [ADMIN_EMAIL], content: 'x' })).error.message).toBe(`Invalid email '${ADMIN_EMAIL}'`);
  });

  it('realm 1 users cannot be subscribed or used in narrows', async () => {
    const sub = await bossFails('mutation($p: JSON) { subscribe(subscriptions: [{ name: "general" }], principals: $p) { subscribed } }', { p: [alice.userId] });
    expect(sub.error.message).toBe('No such user');
    const narrow = await bossFails(MESSAGES, { narrow: [{ operator: 'sender', operand: alice.userId }] });
    expect(narrow.error.message).toBe("Invalid narrow operator: unknown user in 'sender'");
  });
});

describe('Users of realm 2 cannot see realm 1\'s channels', () => {
  it('`channels` lists only realm 2\'s channels, even with includeAll', async () => {
    const data = await asBoss('{ channels(includeAll: true) { streamId name } }');
    expect(data.channels).toEqual([{ streamId: general2, name: 'general' }]);
    expect(general2).not.toBe(general1);
  });

  it('`channelIdByName` answers with realm 2\'s channel, and not at all for realm 1\'s names', async () => {
    expect((await asBoss('{ channelIdByName(name: "general") }')).channelIdByName).toBe(general2);
    const { error } = await bossFails('{ channelIdByName(name: "realm-one-secret") }');
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST' });
    expect(error.message).toBe("Invalid channel name 'realm-one-secret'");
  });

  it('`channel` refuses realm 1 channel IDs, public or private', async () => {
    for (const id of [general1, secret1]) {
      const { error } = await bossFails('query($id: Int!) { channel(channelId: $id) { name } }', { id });
      expect(error.message).toBe('Invalid channel ID');
    }
  });

  it('sending to a realm 1 channel ID is STREAM_DOES_NOT_EXIST; a name means realm 2\'s channel', async () => {
    const { error } = await bossFails(SEND, { type: 'channel', to: general1, topic: 't', content: 'x' });
    expect(error.extensions).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', zulip: { stream_id: general1 } });
    const byName = (await asBoss(SEND, { type: 'channel', to: 'general', topic: 't', content: 'realm two general' })).sendMessage;
    expect((await asBoss('query($id: Int!) { message(messageId: $id) { streamId } }', { id: byName })).message.streamId).toBe(general2);
  });

  it('subscribing by a realm 1 channel name creates a new realm 2 channel', async () => {
    await asBoss('mutation { subscribe(subscriptions: [{ name: "realm-one-secret" }]) { subscribed } }');
    const id = (await asBoss('{ channelIdByName(name: "realm-one-secret") }')).channelIdByName;
    expect(id).not.toBe(secret1);
    const realm1 = await ok(t, '{ channel(channelId: ' + secret1 + ') { name inviteOnly subscriberCount } }', {}, t.owner, ROOT);
    expect(realm1.channel).toEqual({ name: 'realm-one-secret', inviteOnly: true, subscriberCount: 1 });
  });

  it('narrowing to a realm 1 channel ID is an unknown channel', async () => {
    const { error } = await bossFails(MESSAGES, { narrow: [{ operator: 'channel', operand: general1 }] });
    expect(error.message).toBe(`Invalid narrow operator: unknown channel ${general1}`);
  });
});

describe('Users of realm 2 cannot see or touch realm 1\'s messages', () => {
  it('`messages` returns only realm 2 messages, with or without a narrow', async () => {
    for (const narrow of [[], [{ operator: 'channel', operand: 'general' }], [{ operator: 'channels', operand: 'public' }]]) {
      const data = await asBoss(MESSAGES, { narrow });
      const got = ids(data.messages.messages);
      expect(got).toContain(message2);
      expect(got).not.toContain(publicMessage1);
      expect(got).not.toContain(directMessage1);
    }
    const realm1 = await ok(t, MESSAGES, { narrow: [{ operator: 'channels', operand: 'public' }] }, t.owner, ROOT);
    expect(ids(realm1.messages.messages)).toContain(publicMessage1);
    expect(ids(realm1.messages.messages)).not.toContain(message2);
  });

  it('`messages` with messageIds drops realm 1 messages', async () => {
    const data = await asBoss('query($ids: [Int!]) { messages(messageIds: $ids) { messages { id } } }', { ids: [publicMessage1, directMessage1, message2] });
    expect(ids(data.messages.messages)).toEqual([message2]);
  });

  it('`message` refuses realm 1 messages with "Invalid message(s)"', async () => {
    for (const id of [publicMessage1, directMessage1]) {
      const { error } = await bossFails('query($id: Int!) { message(messageId: $id) { id } }', { id });
      expect(error.message).toBe('Invalid message(s)');
    }
  });

  it('realm 2\'s owner cannot edit, delete, react to or flag realm 1 messages', async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ['mutation($id: Int!) { updateMessage(messageId: $id, topic: "hijacked") { detachedUploads { id } } }', { id: publicMessage1 }],
      ['mutation($id: Int!) { updateMessage(messageId: $id, content: "hijacked") { detachedUploads { id } } }', { id: publicMessage1 }],
      ['mutation($id: Int!) { deleteMessage(messageId: $id) }', { id: publicMessage1 }],
      ['mutation($id: Int!) { addReaction(messageId: $id, reaction: { emojiName: "smile" }) }', { id: publicMessage1 }],
      ['mutation($id: Int!) { removeReaction(messageId: $id, reaction: { emojiName: "smile" }) }', { id: publicMessage1 }],
      ['mutation($ids: [Int!]!) { updateMessageFlags(messages: $ids, op: "add", flag: "starred") }', { ids: [publicMessage1] }],
    ];
    for (const [query, variables] of attempts) {
      const { error } = await bossFails(query, variables);
      expect(error.message, query).toBe('Invalid message(s)');
      expect(error.extensions?.code, query).toBe('BAD_REQUEST');
    }
    // Marking read a message one never received asks nothing of it, as Zulip's
    // do_update_message_flags (its read+historical default already has the flag): no row is made.
    await asBoss('mutation($ids: [Int!]!) { updateMessageFlags(messages: $ids, op: "add", flag: "read") }', { ids: [directMessage1] });
    expect(await t.db.userMessage.count({ where: { userId: boss.userId, messageId: directMessage1 } })).toBe(0);
    const untouched = await ok(t, 'query($id: Int!) { message(messageId: $id) { topic rawContent reactions { userId } editHistory } }', { id: publicMessage1 }, alice, ROOT);
    expect(untouched.message).toEqual({ topic: 'realm one', rawContent: 'hello from realm one', reactions: [], editHistory: null });
  });

  it('realm 1 users cannot read realm 2 messages either', async () => {
    const { error } = await fails(t, 'query($id: Int!) { message(messageId: $id) { id } }', { id: message2 }, t.owner, ROOT);
    expect(error.message).toBe('Invalid message(s)');
  });

  it('realm 2\'s owner cannot move a realm 2 message into a realm 1 channel', async () => {
    const { error } = await bossFails('mutation($id: Int!, $s: Int!) { updateMessage(messageId: $id, streamId: $s) { detachedUploads { id } } }', { id: message2, s: general1 });
    // Zulip's check_update_message: access_stream_by_id's "Invalid channel ID", as for any channel the mover cannot reach.
    expect(error.message).toBe('Invalid channel ID');
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
