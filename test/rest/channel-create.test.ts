// POST /channels/create (feature level 417): one channel, exactly the given subscribers, the same
// creation rules as subscribing; an existing name is CHANNEL_ALREADY_EXISTS. And
// GET /streams/{stream_id}/email_address, answered as a Zulip server without an email gateway.
import { describe, expect, it } from 'vitest';
import { makeChannel, makeChannelFolder } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { admin, alice, bob, guest } = useTeam(t, ['admin', 'alice', 'bob', 'guest']);

async function channel(c: ApiClient, id: number) {
  return (await c.get(`/streams/${id}`)).body.stream;
}
async function members(id: number): Promise<number[]> {
  return (await t.client(admin).get(`/streams/${id}/members`)).body.subscribers.sort((a: number, b: number) => a - b);
}

describe('POST /channels/create', () => {
  it('creates the channel with its description and subscribes exactly the given users, with events', async () => {
    const bobQueue = (await registerQueue(t.client(bob), { event_types: ['stream', 'subscription'] })).queue_id;
    const res = await t.client(alice).post('/channels/create', { name: 'music', description: 'All things **music**', subscribers: [bob.userId] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.id;
    expect(await channel(t.client(bob), id)).toMatchObject({ name: 'music', description: 'All things **music**', invite_only: false, creator_id: alice.userId });
    expect(await members(id)).toEqual([bob.userId]);
    const events = await allEvents(t.client(bob), bobQueue);
    expect(events.map((e: any) => `${e.type}/${e.op}`)).toEqual(expect.arrayContaining(['stream/create', 'subscription/add']));
  });

  it('takes the creation options: a private channel with protected history in a folder', async () => {
    const folder = await makeChannelFolder(t.client(admin), 'Hobbies');
    const res = await t.client(alice).post('/channels/create', {
      name: 'secret garden', subscribers: [alice.userId, bob.userId], invite_only: true, history_public_to_subscribers: false, folder_id: folder,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await channel(t.client(alice), res.body.id)).toMatchObject({ invite_only: true, history_public_to_subscribers: false, folder_id: folder });
    expect(await members(res.body.id)).toEqual([alice.userId, bob.userId].sort((a, b) => a - b));
    expect((await t.client(alice).post('/channels/create', { name: 'no such folder', subscribers: [], folder_id: 987654 })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel folder ID' });
  });

  it('may subscribe nobody at all', async () => {
    const res = await t.client(alice).post('/channels/create', { name: 'empty room', subscribers: [] });
    expect(res.status).toBe(200);
    expect(await members(res.body.id)).toEqual([]);
  });

  it('refuses an existing name, in any case, as CHANNEL_ALREADY_EXISTS', async () => {
    await makeChannel(t.client(alice), 'taken');
    const res = await t.client(bob).post('/channels/create', { name: 'TAKEN', subscribers: [bob.userId] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'CHANNEL_ALREADY_EXISTS', msg: "Channel 'TAKEN' already exists" });
  });

  it('creates one channel when the same name is created by parallel requests', async () => {
    // Several rounds: a losing request can pass the name check before the winner commits. Every
    // other round the channel is private, which the losers may not see, let alone join.
    for (let round = 0; round < 8; round++) {
      const creators = [alice, bob, admin, alice, bob, admin];
      const inviteOnly = round % 2 === 1;
      const results = await Promise.all(creators.map((u) => t.client(u).post('/channels/create', { name: `race track ${round}`, subscribers: [u.userId], invite_only: inviteOnly })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 200)) expect(r.body).toMatchObject({ code: 'CHANNEL_ALREADY_EXISTS' });
      const winner = creators[results.findIndex((r) => r.status === 200)]!;
      // The losers subscribed nobody to the winner's channel.
      expect(await members(results.find((r) => r.status === 200)!.body.id)).toEqual([winner.userId]);
    }
  });

  it('applies the creation permissions and validates its parameters, writing nothing on failure', async () => {
    expect((await t.client(guest).post('/channels/create', { name: 'guest room', subscribers: [] })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await t.client(alice).post('/channels/create', { name: 'default?', subscribers: [], is_default_stream: true })).body).toMatchObject({ msg: 'Insufficient permission' });
    expect((await t.client(alice).post('/channels/create', { name: '  ', subscribers: [] })).body).toMatchObject({ msg: "Channel name can't be empty." });
    expect((await t.client(alice).post('/channels/create', { name: 'bad users', subscribers: [987654] })).status).toBe(400);
    expect((await t.client(alice).post('/channels/create', { name: 'no list' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'subscribers' });
    const names = (await t.client(admin).get('/streams', { include_all: true })).body.streams.map((s: { name: string }) => s.name);
    for (const name of ['guest room', 'default?', 'bad users', 'no list']) expect(names).not.toContain(name);
  });

  it('administrators may create default channels', async () => {
    const res = await t.client(admin).post('/channels/create', { name: 'welcome', subscribers: [admin.userId], is_default_stream: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(alice).post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams).toContain(res.body.id);
  });

  it('through GraphQL: createChannel', async () => {
    const data = await ok(t, 'mutation($s: [Int!]!) { createChannel(name: "graph room", subscribers: $s, inviteOnly: true) }', { s: [alice.userId] }, alice);
    expect(await members(data.createChannel)).toEqual([alice.userId]);
    const { error } = await fails(t, 'mutation { createChannel(name: "graph room", subscribers: []) }', {}, alice);
    expect(error.extensions?.code).toBe('CHANNEL_ALREADY_EXISTS');
  });
});

describe('GET /streams/{stream_id}/email_address', () => {
  it('answers "" (no email gateway) for channels the user may read', async () => {
    const id = await makeChannel(t.client(alice), 'mailroom');
    const res = await t.client(bob).get(`/streams/${id}/email_address`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', email: '' });
    expect((await t.client(alice).get(`/streams/${id}/email_address`, { sender_id: alice.userId })).status).toBe(200);
  });

  it('refuses channels the user may not read, and senders who are not the user or their bots', async () => {
    const hidden = await makeChannel(t.client(alice), 'hidden mail', { invite_only: true });
    const id = await makeChannel(t.client(alice), 'open mail');
    expect((await t.client(bob).get(`/streams/${hidden}/email_address`)).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await t.client(bob).get('/streams/987654/email_address')).body).toMatchObject({ msg: 'Invalid channel ID' });
    expect((await t.client(bob).get(`/streams/${id}/email_address`, { sender_id: alice.userId })).body).toMatchObject({ msg: 'No such bot' });
    const { error } = await fails(t, 'query($id: Int!) { channelEmailAddress(channelId: $id) }', { id: hidden }, bob);
    expect(error.message).toBe('Invalid channel ID');
    expect((await ok(t, 'query($id: Int!) { channelEmailAddress(channelId: $id) }', { id }, bob)).channelEmailAddress).toBe('');
  });
});
