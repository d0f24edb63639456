// Who may read a channel's messages beyond those they received: Zulip's can_access_stream_history
// (channel narrows, topic lists) and has_message_access (a message by ID: fetching it, reacting,
// flags, edit history, read receipts), with the content access of Zulip 10 (feature levels 349,
// 357): members of a private channel's can_subscribe_group or can_add_subscribers_group read it
// without subscribing; guests never do, and read only web-public history they did not receive.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel, updateRealm, type MadeUser, makeGroupThroughSubgroup } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';
import { getEvents, registerQueue } from '../support/events.ts';

const t = useTestServer();
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);
const boss = useOtherRealmOwner(t, 'elsewhere');
type ChannelName = 'plaza' | 'lodge' | 'den' | 'club' | 'crypt' | 'attic' | 'porch';
// One channel and one message in each, by the channel's name; filled in by beforeAll.
const ids = {} as Record<ChannelName, number>;
const channels = {} as Record<ChannelName, number>;

const NARROW = 'query($narrow: [NarrowTermInput!]) { messages(anchor: "newest", numBefore: 20, numAfter: 0, narrow: $narrow) { messages { id } } }';
const MESSAGE = 'query($id: Int!) { message(messageId: $id) { id } }';
const TOPICS = 'query($channelId: Int!) { channelTopics(channelId: $channelId) { name } }';

const idsOf = (res: { body: { messages: { id: number }[] } }) => res.body.messages.map((m) => m.id);
const narrowRest = async (who: MadeUser, narrow: object[], host?: string) => {
  const res = await t.client(who, host).get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return idsOf(res);
};
const narrowGraphql = async (who: MadeUser, narrow: object[]) =>
  (await ok(t, NARROW, { narrow }, who)).messages.messages.map((m: { id: number }) => m.id);
const inChannel = (name: string) => [{ operator: 'channel', operand: name }];
const topicsRest = (who: MadeUser, channel: ChannelName) => t.client(who).get(`/users/me/${channels[channel]}/topics`);

/**
 * The by-ID reads of the message, their statuses (400 is "Invalid message(s)"). The last, a flag,
 * checks access only for a message the user never received, as Zulip's do_update_message_flags.
 */
async function byIdReads(who: MadeUser, id: number): Promise<number[]> {
  const c = t.client(who);
  return [
    (await c.get(`/messages/${id}`)).status,
    (await c.get(`/messages/${id}/history`)).status,
    (await c.get(`/messages/${id}/read_receipts`)).status,
    (await c.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' })).status,
    (await c.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' })).status,
  ];
}

beforeAll(async () => {
  const owner = t.ownerClient;
  await updateRealm(t, { enable_spectator_access: true });
  const group = await makeGroupThroughSubgroup(owner, 'insiders', [carol.userId, guest.userId]);

  channels.plaza = await makeChannel(owner, 'plaza', { is_web_public: true, principals: [alice.userId] });
  channels.lodge = await makeChannel(owner, 'lodge', { principals: [alice.userId] });
  // Shared history, one channel per group setting; protected history; no group at all.
  channels.den = await makeChannel(owner, 'den', { invite_only: true, history_public_to_subscribers: true, can_subscribe_group: group, principals: [alice.userId] });
  channels.club = await makeChannel(owner, 'club', { invite_only: true, history_public_to_subscribers: true, can_add_subscribers_group: group, principals: [alice.userId] });
  channels.crypt = await makeChannel(owner, 'crypt', { invite_only: true, history_public_to_subscribers: false, can_subscribe_group: group, principals: [alice.userId] });
  channels.attic = await makeChannel(owner, 'attic', { invite_only: true, history_public_to_subscribers: true, principals: [alice.userId, bob.userId] });
  channels.porch = await makeChannel(owner, 'porch', { principals: [alice.userId, guest.userId] });

  ids.plaza = await sendToChannel(t.client(alice), 'plaza', 'welcome', 'hello, world');
  ids.lodge = await sendToChannel(t.client(alice), 'lodge', 'fire', 'members only');
  ids.den = await sendToChannel(t.client(alice), 'den', 'plans', 'shared with the group');
  ids.club = await sendToChannel(t.client(alice), 'club', 'roster', 'shared with those who add');
  ids.crypt = await sendToChannel(t.client(alice), 'crypt', 'bones', 'protected history');
  ids.attic = await sendToChannel(t.client(alice), 'attic', 'boxes', 'bob received this');
  ids.porch = await sendToChannel(t.client(alice), 'porch', 'chairs', 'the guest received this');
  expect((await t.client(bob).delete('/users/me/subscriptions', { subscriptions: ['attic'] })).status).toBe(200);
  expect((await t.client(guest).delete('/users/me/subscriptions', { subscriptions: ['porch'] })).status).toBe(200);
});

describe('a web-public channel\'s history is open to guests', () => {
  it('a guest narrowing to an unsubscribed web-public channel gets its history (REST and GraphQL)', async () => {
    expect(await narrowRest(guest, inChannel('plaza'))).toEqual([ids.plaza]);
    expect(await narrowGraphql(guest, [{ operator: 'channel', operand: channels.plaza }])).toEqual([ids.plaza]);
    // Only through the channel term: the guest's own history and channels:public stay theirs.
    expect(await narrowRest(guest, [])).not.toContain(ids.plaza);
    expect(await narrowRest(guest, [{ operator: 'channels', operand: 'public' }])).toEqual([ids.porch]);
    // A public channel that is not web-public stays closed; so does another organization.
    expect(await narrowRest(guest, inChannel('lodge'))).toEqual([]);
    expect(await narrowGraphql(guest, inChannel('lodge'))).toEqual([]);
    const foreign = await t.client(boss, boss.host).get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: channels.plaza }] });
    expect(foreign.body).toMatchObject({ code: 'BAD_NARROW' });
  });

  it('a guest lists a web-public channel\'s topics, not a public one\'s (REST and GraphQL)', async () => {
    const res = await topicsRest(guest, 'plaza');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.topics.map((x: { name: string }) => x.name)).toEqual(['welcome']);
    expect((await ok(t, TOPICS, { channelId: channels.plaza }, guest)).channelTopics).toEqual([{ name: 'welcome' }]);
    expect((await topicsRest(guest, 'lodge')).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await fails(t, TOPICS, { channelId: channels.lodge }, guest)).error.message).toBe('Invalid channel ID');
    expect((await t.client(boss, boss.host).get(`/users/me/${channels.plaza}/topics`)).body.msg).toBe('Invalid channel ID');
  });

  it('by ID a guest still needs a subscription, as Zulip\'s has_message_access; a member does not', async () => {
    expect(await byIdReads(guest, ids.plaza)).toEqual([400, 400, 400, 400, 400]);
    expect((await fails(t, MESSAGE, { id: ids.plaza }, guest)).error.message).toBe('Invalid message(s)');
    expect(await byIdReads(bob, ids.plaza)).toEqual([200, 200, 200, 200, 200]);
    // A member narrowing to channels:web-public searches their own history, as in Zulip.
    expect(await narrowRest(carol, [{ operator: 'channels', operand: 'web-public' }])).toEqual([]);
    expect(await narrowRest(carol, inChannel('plaza'))).toEqual([ids.plaza]);
  });
});

describe('members of a private channel\'s can_subscribe_group or can_add_subscribers_group read it unsubscribed', () => {
  it('narrows reach the shared history of both channels, for members of a subgroup too (REST and GraphQL)', async () => {
    for (const name of ['den', 'club'] as const) {
      expect(await narrowRest(carol, inChannel(name))).toEqual([ids[name]]);
      expect(await narrowGraphql(carol, [{ operator: 'channel', operand: channels[name] }])).toEqual([ids[name]]);
    }
    // Protected history: the group gives content access, not the messages sent before.
    expect(await narrowRest(carol, inChannel('crypt'))).toEqual([]);
    // Not channels:public, nor the viewer's own history.
    expect(await narrowRest(carol, [{ operator: 'channels', operand: 'public' }])).not.toContain(ids.den);
    expect(await narrowRest(carol, [])).not.toContain(ids.den);
  });

  it('nobody else: a member not in the group, a guest in it, another organization', async () => {
    for (const name of ['den', 'club'] as const) {
      for (const who of [bob, guest]) {
        expect(await narrowRest(who, inChannel(name))).toEqual([]);
        expect(await narrowGraphql(who, inChannel(name))).toEqual([]);
        expect(await byIdReads(who, ids[name])).toEqual([400, 400, 400, 400, 400]);
        expect((await topicsRest(who, name)).body.msg).toBe('Invalid channel ID');
      }
      expect((await t.client(boss, boss.host).get(`/messages/${ids[name]}`)).body.msg).toBe('Invalid message(s)');
    }
  });

  it('lists the topics: all of a shared history, none of a protected one (REST and GraphQL)', async () => {
    expect((await topicsRest(carol, 'den')).body.topics.map((x: { name: string }) => x.name)).toEqual(['plans']);
    expect((await ok(t, TOPICS, { channelId: channels.club }, carol)).channelTopics).toEqual([{ name: 'roster' }]);
    const crypt = await topicsRest(carol, 'crypt');
    expect(crypt.status).toBe(200);
    expect(crypt.body.topics).toEqual([]);
  });

  it('reads a message by ID: fetching, edit history, read receipts, reactions, flags (REST and GraphQL)', async () => {
    expect(await byIdReads(carol, ids.den)).toEqual([200, 200, 200, 200, 200]);
    expect(await byIdReads(carol, ids.club)).toEqual([200, 200, 200, 200, 200]);
    expect((await ok(t, MESSAGE, { id: ids.den }, carol)).message).toEqual({ id: ids.den });
    // Protected history: not a message sent before, which the group member never received.
    expect(await byIdReads(carol, ids.crypt)).toEqual([400, 400, 400, 400, 400]);
  });
});

describe('by ID, a received message of a private channel needs continued access', () => {
  it('a member who left a private channel cannot read by ID what they received; their narrow keeps it', async () => {
    expect(await byIdReads(bob, ids.attic)).toEqual([400, 400, 400, 400, 200]);
    expect((await fails(t, MESSAGE, { id: ids.attic }, bob)).error.message).toBe('Invalid message(s)');
    expect(await narrowRest(bob, inChannel('attic'))).toEqual([ids.attic]);
    expect(await byIdReads(alice, ids.attic)).toEqual([200, 200, 200, 200, 200]);
  });

  it('a guest who left a public channel likewise; a member who never joined reads it', async () => {
    expect(await byIdReads(guest, ids.porch)).toEqual([400, 400, 400, 400, 200]);
    expect(await narrowRest(guest, inChannel('porch'))).toEqual([ids.porch]);
    expect(await byIdReads(carol, ids.porch)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('the event queue does not widen with history access', () => {
  it('all_public_streams brings public channels\' messages, not a private one a group member may read; guests may not ask', async () => {
    const q = await registerQueue(t.client(carol), { event_types: ['message'], all_public_streams: true });
    await sendToChannel(t.client(alice), 'den', 'plans', 'not for the queue');
    const open = await sendToChannel(t.client(alice), 'plaza', 'welcome', 'for every queue');
    expect((await getEvents(t.client(carol), q.queue_id)).map((e) => e.message?.id)).toEqual([open]);
    expect((await t.client(guest).post('/register', { all_public_streams: true })).body).toMatchObject({ msg: 'User not authorized for this query' });
  });
});

describe('moving messages into a private channel with shared history', () => {
  it('those who received them keep them if the channel\'s groups let them read it; the others lose them', async () => {
    // carol (in can_subscribe_group through a subgroup) and bob (in no group) both receive it in lodge.
    await t.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'lodge' }], principals: [bob.userId, carol.userId] });
    const moved = await sendToChannel(t.client(alice), 'lodge', 'moving', 'about to move');
    for (const who of [bob, carol]) expect((await t.client(who).post('/messages/flags', { messages: [moved], op: 'add', flag: 'starred' })).status).toBe(200);
    const res = await t.client(alice).patch(`/messages/${moved}`, { stream_id: channels.den, propagate_mode: "change_one" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // carol keeps her row (and its star); bob's is gone with his access.
    expect((await t.client(carol).get(`/messages/${moved}`)).body.message.flags).toContain('starred');
    expect((await t.client(bob).get(`/messages/${moved}`)).body).toMatchObject({ result: 'error', msg: 'Invalid message(s)' });
  });
});
