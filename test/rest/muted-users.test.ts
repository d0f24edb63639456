// Muted users (Zulip's /users/me/muted_users/{muted_user_id}): anyone one can see but oneself,
// bots and deactivated users included; `muted_users` events with the whole list to the muter;
// register's `muted_users`; and the effects: the muted user's messages, past and future, are read
// for the muter (so they are not unread in register either), and their typing is not shown.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBot, makeChannel, makeOtherRealmOwner, makeUser, sendDirect, sendToChannel } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let channel: number;
const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);

beforeAll(async () => {
  channel = await makeChannel(t.client(alice), 'muting');
  await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'muting' }] });
});

const client = (u: Credentials) => t.client(u);

const queue = async (c: ApiClient, eventTypes: string[], extra: Record<string, unknown> = {}) => (await registerQueue(c, { event_types: eventTypes, ...extra })).queue_id;
async function flagsOf(c: ApiClient, messageId: number): Promise<string[]> {
  const res = await c.get(`/messages/${messageId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message.flags;
}
async function muted(c: ApiClient): Promise<any[]> {
  const res = await c.post('/register', { fetch_event_types: ['muted_users'] });
  return res.body.muted_users;
}

describe('POST /users/me/muted_users/{muted_user_id}', () => {
  it('mutes a user; register lists them with the time', async () => {
    const carol = await makeUser(t);
    const before = Math.floor(Date.now() / 1000);
    const res = await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await muted(client(carol));
    expect(list).toEqual([{ id: alice.userId, timestamp: expect.any(Number) }]);
    expect(list[0].timestamp).toBeGreaterThanOrEqual(before - 1);
  });

  it('refuses oneself, users muted already, and unknown users', async () => {
    const carol = await makeUser(t);
    expect((await client(carol).post(`/users/me/muted_users/${carol.userId}`)).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Cannot mute self' });
    expect((await client(carol).post(`/users/me/muted_users/${bob.userId}`)).status).toBe(200);
    expect((await client(carol).post(`/users/me/muted_users/${bob.userId}`)).body).toMatchObject({ msg: 'User already muted' });
    expect((await client(carol).post('/users/me/muted_users/999999')).body).toMatchObject({ msg: 'No such user' });
    const boss = await makeOtherRealmOwner(t, 'muteother');
    expect((await client(carol).post(`/users/me/muted_users/${boss.userId}`)).body).toMatchObject({ msg: 'No such user' });
  });

  it('accepts bots and deactivated users', async () => {
    const carol = await makeUser(t);
    const gone = await makeUser(t);
    await t.client(t.owner).delete(`/users/${gone.userId}`);
    expect((await client(carol).post(`/users/me/muted_users/${gone.userId}`)).status).toBe(200);
    const bot = await makeBot(t, alice, { fullName: 'Muted Bot' });
    expect((await client(carol).post(`/users/me/muted_users/${bot.userId}`)).status).toBe(200);
  });

  it('keeps one mute when the same user is muted by parallel requests', async () => {
    const carol = await makeUser(t);
    const results = await Promise.all([1, 2, 3, 4].map(() => client(carol).post(`/users/me/muted_users/${bob.userId}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.msg).toBe('User already muted');
    expect(await muted(client(carol))).toHaveLength(1);
  });
});

describe('DELETE /users/me/muted_users/{muted_user_id}', () => {
  it('unmutes, and refuses users not muted', async () => {
    const carol = await makeUser(t);
    await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    expect((await client(carol).delete(`/users/me/muted_users/${alice.userId}`)).status).toBe(200);
    expect(await muted(client(carol))).toEqual([]);
    expect((await client(carol).delete(`/users/me/muted_users/${alice.userId}`)).body).toMatchObject({ msg: 'User is not muted' });
  });
});

describe('muted_users events', () => {
  it('carry the whole list, to the muter only', async () => {
    const carol = await makeUser(t);
    const carolQueue = await queue(client(carol), ['muted_users']);
    const aliceQueue = await queue(client(alice), ['muted_users']);
    await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    await client(carol).post(`/users/me/muted_users/${bob.userId}`);
    await client(carol).delete(`/users/me/muted_users/${alice.userId}`);
    const got = await allEvents(client(carol), carolQueue);
    expect(got.map((e) => e.muted_users.map((m: any) => m.id))).toEqual([[alice.userId], [alice.userId, bob.userId], [bob.userId]]);
    expect(await allEvents(client(alice), aliceQueue)).toEqual([]);
  });
});

describe('Messages from muted users', () => {
  it('already sent become read when muting, with an update_message_flags event', async () => {
    const carol = await makeUser(t);
    await client(carol).post('/users/me/subscriptions', { subscriptions: [{ name: 'muting' }] });
    const m1 = await sendToChannel(client(alice), channel, 'old', 'before muting');
    const m2 = await sendDirect(client(alice), [carol.userId], 'a direct one');
    const other = await sendToChannel(client(bob), channel, 'old', 'from bob');
    const q = await queue(client(carol), ['update_message_flags']);
    await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    expect(await flagsOf(client(carol), m1)).toContain('read');
    expect(await flagsOf(client(carol), m2)).toContain('read');
    expect(await flagsOf(client(carol), other)).not.toContain('read');
    const got = await allEvents(client(carol), q);
    expect(got).toEqual([{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [m1, m2].sort((a, b) => a - b), all: false, id: 0 }]);
  });

  it('arrive read, in the message event too, and do not count as unread', async () => {
    const carol = await makeUser(t);
    await client(carol).post('/users/me/subscriptions', { subscriptions: [{ name: 'muting' }] });
    await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    const q = await queue(client(carol), ['message']);
    const fromAlice = await sendToChannel(client(alice), channel, 'new', `hi @**${'Carol'}**`);
    const dm = await sendDirect(client(alice), [carol.userId], 'psst');
    const fromBob = await sendToChannel(client(bob), channel, 'new', 'hello');
    expect(await flagsOf(client(carol), fromAlice)).toContain('read');
    expect(await flagsOf(client(carol), dm)).toContain('read');
    expect(await flagsOf(client(alice), fromAlice)).toContain('read');
    // Other recipients are not affected.
    expect(await flagsOf(client(bob), fromAlice)).not.toContain('read');
    const got = await allEvents(client(carol), q);
    expect(got.find((e) => e.message.id === fromAlice).flags).toContain('read');
    expect(got.find((e) => e.message.id === fromBob).flags).not.toContain('read');
    const reg = await client(carol).post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    const unreadIds = [...reg.body.unread_msgs.streams.flatMap((s: any) => s.unread_message_ids), ...reg.body.unread_msgs.pms.flatMap((p: any) => p.unread_message_ids)];
    expect(unreadIds).toContain(fromBob);
    expect(unreadIds).not.toContain(fromAlice);
    expect(unreadIds).not.toContain(dm);
  });

  it('after unmuting, arrive unread again', async () => {
    const carol = await makeUser(t);
    await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    await client(carol).delete(`/users/me/muted_users/${alice.userId}`);
    const dm = await sendDirect(client(alice), [carol.userId], 'again');
    expect(await flagsOf(client(carol), dm)).not.toContain('read');
  });
});

describe('Typing from muted users', () => {
  it('is not delivered to the muter', async () => {
    const carol = await makeUser(t);
    const dave = await makeUser(t);
    await client(carol).post(`/users/me/muted_users/${alice.userId}`);
    const carolQueue = await queue(client(carol), ['typing']);
    const daveQueue = await queue(client(dave), ['typing']);
    expect((await client(alice).post('/typing', { op: 'start', to: [carol.userId, dave.userId] })).status).toBe(200);
    expect(await allEvents(client(carol), carolQueue)).toEqual([]);
    expect((await allEvents(client(dave), daveQueue)).map((e) => e.sender.user_id)).toEqual([alice.userId]);
  });
});

describe('Muted users through GraphQL', () => {
  it('mute, list and unmute with the same rules', async () => {
    const carol = await makeUser(t);
    await ok(t, 'mutation($id: Int!) { muteUser(mutedUserId: $id) }', { id: bob.userId }, carol);
    const listed = (await ok(t, '{ mutedUsers { id timestamp } }', {}, carol)).mutedUsers;
    expect(listed).toEqual([{ id: bob.userId, timestamp: expect.any(Number) }]);
    const { error } = await fails(t, 'mutation($id: Int!) { muteUser(mutedUserId: $id) }', { id: carol.userId }, carol);
    expect(error.message).toBe('Cannot mute self');
    await ok(t, 'mutation($id: Int!) { unmuteUser(mutedUserId: $id) }', { id: bob.userId }, carol);
    expect((await ok(t, '{ mutedUsers { id } }', {}, carol)).mutedUsers).toEqual([]);
  });
});
