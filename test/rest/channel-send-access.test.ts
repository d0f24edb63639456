// Who may post in a channel, as Zulip's access_stream_for_send_message: can_send_message_group
// first (a bot may post where its owner may), then the archive, then the channel: web-public
// channels take guests' messages, public ones members', private ones subscribers', and a private
// channel with shared history also the members of its can_subscribe_group or
// can_add_subscribers_group (never guests). Moving messages into a channel asks only for content
// access and can_send_message_group (check_update_message).
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBot, makeChannel, sendToChannel, updateRealm, type MadeUser, makeGroupThroughSubgroup } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';
import type { Credentials } from '../support/client.ts';

const t = useTestServer();
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);
const boss = useOtherRealmOwner(t, 'elsewhere');
const channels = {} as Record<'plaza' | 'lodge' | 'den' | 'club' | 'crypt' | 'stage' | 'vault', number>;
let hookBot: MadeUser;
let aliceBot: MadeUser;

const SEND = `mutation($to: JSON!, $topic: String, $content: String!) {
  sendMessage(type: "channel", to: $to, topic: $topic, content: $content) }`;
const MOVE = 'mutation($id: Int!, $to: Int!) { updateMessage(messageId: $id, streamId: $to) { detachedUploads { id } } }';

const sendRest = (who: Credentials, to: string | number, host?: string) =>
  t.client(who, host).post('/messages', { type: 'channel', to, topic: 'access', content: 'posting' });
const refusal = (name: string) => `Not authorized to send to channel '${name}'`;

beforeAll(async () => {
  const owner = t.ownerClient;
  await updateRealm(t, { enable_spectator_access: true });
  const group = await makeGroupThroughSubgroup(owner, 'insiders', [carol.userId, guest.userId]);
  const speakers = await owner.post('/user_groups/create', { name: 'speakers', description: 'may post on stage', members: [alice.userId] });
  const nobody = (await owner.get('/user_groups')).body.user_groups.find((g: { name: string }) => g.name === 'role:nobody').id;

  channels.plaza = await makeChannel(owner, 'plaza', { is_web_public: true });
  channels.lodge = await makeChannel(owner, 'lodge');
  channels.den = await makeChannel(owner, 'den', { invite_only: true, history_public_to_subscribers: true, can_subscribe_group: group });
  channels.club = await makeChannel(owner, 'club', { invite_only: true, history_public_to_subscribers: true, can_add_subscribers_group: group });
  channels.crypt = await makeChannel(owner, 'crypt', { invite_only: true, history_public_to_subscribers: false, can_subscribe_group: group });
  channels.stage = await makeChannel(owner, 'stage', { can_send_message_group: speakers.body.group_id });
  channels.vault = await makeChannel(owner, 'vault', { invite_only: true, can_send_message_group: nobody });
  hookBot = await makeBot(t, bob, { fullName: 'Hook Bot', botType: 2 });
  aliceBot = await makeBot(t, alice, { fullName: 'Alice Bot' });
});

describe('a guest posts in a web-public channel without subscribing', () => {
  it('by name and by ID (REST and GraphQL); not in a public channel that is not web-public, nor another organization\'s', async () => {
    expect((await sendRest(guest, 'plaza')).status).toBe(200);
    expect((await sendRest(guest, channels.plaza)).status).toBe(200);
    expect(typeof (await ok(t, SEND, { to: channels.plaza, topic: 'access', content: 'x' }, guest)).sendMessage).toBe('number');
    expect((await sendRest(guest, 'lodge')).body).toMatchObject({ code: 'BAD_REQUEST', msg: refusal('lodge') });
    expect((await fails(t, SEND, { to: 'lodge', topic: 'access', content: 'x' }, guest)).error.message).toBe(refusal('lodge'));
    expect((await sendRest(boss, channels.plaza, boss.host)).body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
    expect((await sendRest(boss, 'plaza', boss.host)).body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'plaza' });
  });
});

describe('members of a private channel\'s can_subscribe_group or can_add_subscribers_group post without subscribing', () => {
  it('where the history is shared, for members of a subgroup too (REST and GraphQL); nobody else', async () => {
    for (const name of ['den', 'club'] as const) {
      expect((await sendRest(carol, name)).status).toBe(200);
      expect((await sendRest(carol, channels[name])).status).toBe(200);
      expect(typeof (await ok(t, SEND, { to: channels[name], topic: 'access', content: 'x' }, carol)).sendMessage).toBe('number');
    }
    // They did not become subscribers by posting.
    const subs = (await t.client(carol).get('/users/me/subscriptions')).body.subscriptions.map((s: { name: string }) => s.name);
    expect(subs).not.toContain('den');
    // Not where the history is protected, nor a member outside the group, a guest in it, another organization.
    expect((await sendRest(carol, 'crypt')).body.msg).toBe(refusal('crypt'));
    expect((await fails(t, SEND, { to: 'crypt', topic: 'access', content: 'x' }, carol)).error.message).toBe(refusal('crypt'));
    for (const who of [bob, guest]) {
      expect((await sendRest(who, 'den')).body.msg).toBe(refusal('den'));
      expect((await fails(t, SEND, { to: 'club', topic: 'access', content: 'x' }, who)).error.message).toBe(refusal('club'));
    }
    expect((await sendRest(boss, channels.den, boss.host)).body.code).toBe('STREAM_DOES_NOT_EXIST');
  });
});

describe('can_send_message_group is checked first, and a bot may post where its owner may', () => {
  it('refuses users outside the group with Zulip\'s message, before the channel\'s own checks (REST and GraphQL)', async () => {
    const denied = 'You do not have permission to post in this channel.';
    expect((await sendRest(alice, 'stage')).status).toBe(200);
    expect((await sendRest(bob, 'stage')).body).toMatchObject({ code: 'BAD_REQUEST', msg: denied });
    expect((await fails(t, SEND, { to: 'stage', topic: 'access', content: 'x' }, bob)).error.message).toBe(denied);
    // A private channel the sender is not in, posting open to nobody: the group decides first.
    expect((await sendRest(bob, 'vault')).body.msg).toBe(denied);
    expect((await sendRest(t.owner, 'vault')).body.msg).toBe(denied);
  });

  it('a bot outside the group posts through its owner; an incoming webhook bot is no exception', async () => {
    expect((await sendRest(aliceBot, 'stage')).status).toBe(200);
    expect((await fails(t, SEND, { to: 'stage', topic: 'access', content: 'x' }, hookBot)).error.message).toBe('You do not have permission to post in this channel.');
    expect((await sendRest(hookBot, 'stage')).body.msg).toBe('You do not have permission to post in this channel.');
  });
});

describe('moving messages into a channel asks for content access and can_send_message_group only', () => {
  it('a group member moves into a private shared-history channel without subscribing (REST and GraphQL)', async () => {
    const first = await sendToChannel(t.client(carol), 'lodge', 'moving', 'to the den');
    expect((await t.client(carol).patch(`/messages/${first}`, { stream_id: channels.den })).status).toBe(200);
    const second = await sendToChannel(t.client(carol), 'lodge', 'moving', 'to the club');
    await ok(t, MOVE, { id: second, to: channels.club }, carol);
    expect((await t.client(carol).get(`/messages/${second}`)).body.message.stream_id).toBe(channels.club);
  });

  it('a channel without content access is "Invalid channel ID", as a missing one; outside can_send_message_group is refused', async () => {
    const id = await sendToChannel(t.client(bob), 'lodge', 'moving', 'nowhere to go');
    expect((await t.client(bob).patch(`/messages/${id}`, { stream_id: channels.den })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await fails(t, MOVE, { id, to: channels.den }, bob)).error.message).toBe('Invalid channel ID');
    expect((await t.client(bob).patch(`/messages/${id}`, { stream_id: 999999 })).body.msg).toBe('Invalid channel ID');
    expect((await t.client(bob).patch(`/messages/${id}`, { stream_id: channels.stage })).body.msg).toBe('You do not have permission to post in this channel.');
    expect((await t.client(bob).get(`/messages/${id}`)).body.message.stream_id).toBe(channels.lodge);
  });
});
