// Channel subscriptions through Zulip's REST API: subscribe (and channel creation options),
// unsubscribe, the subscription list, personal settings and subscriber lists, with the permission
// matrix of each rule and the events each change sends.
import { beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_COLORS } from '../../resolvers/users/create.ts';
import { makeChannel, makeUser, deactivate, updateRealm, makeOtherRealmOwner } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { systemGroupIds } from '../../resolvers/groups/system.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

let outsiderId: number;
let groups: Record<string, number>;
const t = useTestServer();
const { admin, moderator, alice, bob, carol, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'carol', 'guest']);
const bot = useBot(t, alice, { fullName: 'Alice Bot' });

const c = (who: Credentials) => t.client(who);
const SUBS = '/users/me/subscriptions';

async function channelId(name: string): Promise<number | null> {
  const row = await t.db.channel.findFirst({ where: { realmId: t.realmId, name } });
  return row?.id ?? null;
}
async function subscribed(userId: number, name: string): Promise<boolean> {
  const id = await channelId(name);
  if (!id) return false;
  const sub = await t.db.subscription.findUnique({ where: { userId_channelId: { userId, channelId: id } } });
  return !!sub?.active;
}
const register = async (client: ApiClient) => (await registerQueue(client, { event_types: ['subscription', 'stream', 'message'], fetch_event_types: ['realm'] })).queue_id;

beforeAll(async () => {
  groups = await systemGroupIds(t.db as never, t.realmId);
  outsiderId = (await makeOtherRealmOwner(t, 'other')).userId;
  await makeChannel(c(alice), 'design');
  await makeChannel(c(alice), 'vault', { invite_only: true });
}, 180_000);

describe('POST /users/me/subscriptions: creating channels', () => {
  it('renders the description with the Markdown renderer', async () => {
    const res = await c(alice).post(SUBS, { subscriptions: [{ name: 'md', description: 'Some **bold** `code`' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ch = await t.db.channel.findFirstOrThrow({ where: { realmId: t.realmId, name: 'md' } });
    expect(ch.description).toBe('Some **bold** `code`');
    expect(ch.renderedDescription).toContain('<strong>bold</strong>');
    expect(ch.renderedDescription).toContain('<code>code</code>');
  });

  it('limits the description and name length and refuses invalid characters, creating nothing', async () => {
    const long = await c(alice).post(SUBS, { subscriptions: [{ name: 'too-long-desc', description: 'x'.repeat(1025) }] });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Channel description too long (limit: 1024 characters).' });
    expect(await channelId('too-long-desc')).toBeNull();
    const name = await c(alice).post(SUBS, { subscriptions: [{ name: 'x'.repeat(61) }] });
    expect(name.body.msg).toBe('Channel name too long (limit: 60 characters).');
    const bad = await c(alice).post(SUBS, { subscriptions: [{ name: 'ok-first' }, { name: 'bad\u0001name' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Invalid character in channel name, at position 4.');
    expect(await channelId('ok-first')).toBeNull();
  });

  it('creates private channels with history hidden unless asked, and public ones always with history', async () => {
    await c(alice).post(SUBS, { subscriptions: [{ name: 'p-hidden' }], invite_only: true });
    await c(alice).post(SUBS, { subscriptions: [{ name: 'p-shown' }], invite_only: true, history_public_to_subscribers: true });
    await c(alice).post(SUBS, { subscriptions: [{ name: 'pub-hist' }], history_public_to_subscribers: false });
    const get = async (name: string) => t.db.channel.findFirstOrThrow({ where: { realmId: t.realmId, name } });
    expect(await get('p-hidden')).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false });
    expect(await get('p-shown')).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: true });
    expect(await get('pub-hist')).toMatchObject({ inviteOnly: false, historyPublicToSubscribers: true });
  });

  it('lets only members of can_create_private/public_channel_group create channels', async () => {
    await updateRealm(t, { can_create_private_channel_group: { new: groups['role:administrators'] } });
    try {
      const member = await c(alice).post(SUBS, { subscriptions: [{ name: 'no-private' }], invite_only: true });
      expect(member.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect(await channelId('no-private')).toBeNull();
      const ok = await c(admin).post(SUBS, { subscriptions: [{ name: 'admin-private' }], invite_only: true });
      expect(ok.status).toBe(200);
    } finally {
      await updateRealm(t, { can_create_private_channel_group: { new: groups['role:members'] } });
    }
  });

  it('is_web_public needs the server setting, spectator access and can_create_web_public_channel_group', async () => {
    // Spectator access is off: even the owner is refused.
    const off = await c(t.owner).post(SUBS, { subscriptions: [{ name: 'web1' }], is_web_public: true });
    expect(off.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    await updateRealm(t, { enable_spectator_access: true });
    try {
      const member = await c(alice).post(SUBS, { subscriptions: [{ name: 'web1' }], is_web_public: true });
      expect(member.body.msg).toBe('Insufficient permission');
      const adminTry = await c(admin).post(SUBS, { subscriptions: [{ name: 'web1' }], is_web_public: true });
      expect(adminTry.body.msg).toBe('Insufficient permission');
      expect(await channelId('web1')).toBeNull();
      const owner = await c(t.owner).post(SUBS, { subscriptions: [{ name: 'web1' }], is_web_public: true });
      expect(owner.status).toBe(200);
      expect(await t.db.channel.findFirstOrThrow({ where: { realmId: t.realmId, name: 'web1' } })).toMatchObject({ isWebPublic: true, inviteOnly: false });
    } finally {
      await updateRealm(t, { enable_spectator_access: false });
    }
  });

  it('is_default_stream is for administrators, and never for a private channel', async () => {
    const member = await c(alice).post(SUBS, { subscriptions: [{ name: 'def1' }], is_default_stream: true });
    expect(member.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect(await channelId('def1')).toBeNull();
    const priv = await c(admin).post(SUBS, { subscriptions: [{ name: 'def1' }], is_default_stream: true, invite_only: true });
    expect(priv.body.msg).toBe('A default channel cannot be private.');
    const ok = await c(admin).post(SUBS, { subscriptions: [{ name: 'def1' }], is_default_stream: true });
    expect(ok.status).toBe(200);
    const id = await channelId('def1');
    expect(await t.db.defaultChannel.findFirst({ where: { realmId: t.realmId, channelId: id! } })).not.toBeNull();
  });

  it('message_retention_days: realm_default for anyone; unlimited and days for owners only', async () => {
    const member = await c(alice).post(SUBS, { subscriptions: [{ name: 'ret0' }], message_retention_days: 'realm_default' });
    expect(member.status).toBe(200);
    const adminTry = await c(admin).post(SUBS, { subscriptions: [{ name: 'ret1' }], message_retention_days: 30 });
    expect(adminTry.status).toBe(400);
    expect(adminTry.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect(await channelId('ret1')).toBeNull();
    expect((await c(t.owner).post(SUBS, { subscriptions: [{ name: 'ret1' }], message_retention_days: 30 })).status).toBe(200);
    expect((await c(t.owner).post(SUBS, { subscriptions: [{ name: 'ret2' }], message_retention_days: JSON.stringify('unlimited') })).status).toBe(200);
    const get = async (name: string) => (await t.db.channel.findFirstOrThrow({ where: { realmId: t.realmId, name } })).messageRetentionDays;
    expect(await get('ret0')).toBeNull();
    expect(await get('ret1')).toBe(30);
    expect(await get('ret2')).toBe(-1);
    for (const bad of [0, -5, 'forever']) {
      const res = await c(t.owner).post(SUBS, { subscriptions: [{ name: 'ret-bad' }], message_retention_days: bad });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(`Bad value for 'message_retention_days': ${bad}`);
    }
    expect(await channelId('ret-bad')).toBeNull();
  });

  it('topics_policy: the four values, others refused, non-default values need can_set_topics_policy_group', async () => {
    for (const policy of ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only']) {
      const res = await c(alice).post(SUBS, { subscriptions: [{ name: `tp-${policy}` }], topics_policy: policy });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await t.db.channel.findFirstOrThrow({ where: { realmId: t.realmId, name: `tp-${policy}` } })).topicsPolicy).toBe(policy);
    }
    const bad = await c(alice).post(SUBS, { subscriptions: [{ name: 'tp-bad' }], topics_policy: 'sometimes' });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid topics_policy' });
    await updateRealm(t, { can_set_topics_policy_group: { new: groups['role:administrators'] } });
    try {
      const member = await c(alice).post(SUBS, { subscriptions: [{ name: 'tp-denied' }], topics_policy: 'disable_empty_topic' });
      expect(member.body.msg).toBe('Insufficient permission');
      expect(await channelId('tp-denied')).toBeNull();
      expect((await c(alice).post(SUBS, { subscriptions: [{ name: 'tp-inherit-ok' }], topics_policy: 'inherit' })).status).toBe(200);
      expect((await c(admin).post(SUBS, { subscriptions: [{ name: 'tp-denied' }], topics_policy: 'disable_empty_topic' })).status).toBe(200);
    } finally {
      await updateRealm(t, { can_set_topics_policy_group: { new: groups['role:members'] } });
    }
  });

  it('takes permission group settings as group IDs or explicit sets', async () => {
    const res = await c(alice).post(SUBS, {
      subscriptions: [{ name: 'perms' }],
      can_send_message_group: groups['role:moderators'],
      can_add_subscribers_group: JSON.stringify({ direct_members: [bob.userId], direct_subgroups: [] }),
      can_remove_subscribers_group: groups['role:moderators'],
      can_administer_channel_group: groups['role:administrators'],
      can_move_messages_out_of_channel_group: groups['role:members'],
      can_move_messages_within_channel_group: groups['role:members'],
      can_resolve_topics_group: groups['role:members'],
      can_subscribe_group: groups['role:members'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await c(alice).get(SUBS);
    const perms = list.body.subscriptions.find((s: { name: string }) => s.name === 'perms');
    expect(perms).toMatchObject({
      can_send_message_group: groups['role:moderators'],
      can_add_subscribers_group: { direct_members: [bob.userId], direct_subgroups: [] },
      can_remove_subscribers_group: groups['role:moderators'],
      can_administer_channel_group: groups['role:administrators'],
      can_subscribe_group: groups['role:members'],
      stream_post_policy: 4,
      is_announcement_only: false,
    });
  });

  it('refuses invalid group-setting values and creates nothing', async () => {
    const unknown = await c(alice).post(SUBS, { subscriptions: [{ name: 'perm-bad' }], can_send_message_group: 999999 });
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user group' });
    const internet = await c(alice).post(SUBS, { subscriptions: [{ name: 'perm-bad' }], can_send_message_group: groups['role:internet'] });
    expect(internet.body.msg).toBe("'can_send_message_group' setting cannot be set to 'role:internet' group.");
    const badUser = await c(alice).post(SUBS, { subscriptions: [{ name: 'perm-bad' }], can_send_message_group: JSON.stringify({ direct_members: [outsiderId], direct_subgroups: [] }) });
    expect(badUser.body.msg).toBe(`Invalid user ID: ${outsiderId}`);
    const shape = await c(alice).post(SUBS, { subscriptions: [{ name: 'perm-bad' }], can_send_message_group: JSON.stringify('everyone') });
    expect(shape.status).toBe(400);
    expect(await channelId('perm-bad')).toBeNull();
  });

  it('message-deletion settings need can_set_delete_message_policy_group (moderators by default)', async () => {
    const member = await c(alice).post(SUBS, { subscriptions: [{ name: 'del-perm' }], can_delete_own_message_group: groups['role:members'] });
    expect(member.body.msg).toBe('Insufficient permission');
    expect(await channelId('del-perm')).toBeNull();
    const mod = await c(moderator).post(SUBS, { subscriptions: [{ name: 'del-perm' }], can_delete_own_message_group: groups['role:members'], can_delete_any_message_group: groups['role:moderators'] });
    expect(mod.status).toBe(200);
  });

  it('guests create nothing; bots create channels like members', async () => {
    const res = await c(guest).post(SUBS, { subscriptions: [{ name: 'guest-made' }] });
    expect(res.body.msg).toBe('Insufficient permission');
    expect(await channelId('guest-made')).toBeNull();
    const byBot = await c(bot).post(SUBS, { subscriptions: [{ name: 'bot-made' }] });
    expect(byBot.body.subscribed).toEqual({ [bot.userId]: ['bot-made'] });
  });
});

describe('POST /users/me/subscriptions: who may subscribe whom', () => {
  it('answers keyed by user ID, with already_subscribed, and no unauthorized key when errors are fatal', async () => {
    const res = await c(bob).post(SUBS, { subscriptions: [{ name: 'design' }, { name: 'general' }] });
    expect(res.body).toEqual({ result: 'success', msg: '', subscribed: { [bob.userId]: ['design'] }, already_subscribed: { [bob.userId]: ['general'] } });
  });

  it('takes principals as IDs or emails', async () => {
    const byEmail = await c(alice).post(SUBS, { subscriptions: [{ name: 'md' }], principals: [carol.email] });
    expect(byEmail.body.subscribed).toEqual({ [carol.userId]: ['md'] });
    const byId = await c(alice).post(SUBS, { subscriptions: [{ name: 'md' }], principals: [carol.userId, bob.userId] });
    expect(byId.body).toMatchObject({ subscribed: { [bob.userId]: ['md'] }, already_subscribed: { [carol.userId]: ['md'] } });
  });

  it('gives each user the next colour of the palette for each new subscription, several at once', async () => {
    const fresh = await makeUser(t, { fullName: 'Colour Fresh' });
    const before = (await c(fresh).get(SUBS)).body.subscriptions.length;
    const res = await c(alice).post(SUBS, { subscriptions: [{ name: 'hue-1' }, { name: 'hue-2' }, { name: 'hue-3' }], principals: [fresh.userId, alice.userId] });
    expect(res.body.subscribed[fresh.userId]).toEqual(['hue-1', 'hue-2', 'hue-3']);
    const subs = (await c(fresh).get(SUBS)).body.subscriptions as { name: string; color: string }[];
    const colours = ['hue-1', 'hue-2', 'hue-3'].map((name) => subs.find((s) => s.name === name)!.color);
    expect(colours).toEqual([before, before + 1, before + 2].map((i) => CHANNEL_COLORS[i % CHANNEL_COLORS.length]));
  });

  it('refuses unknown, deactivated and other-realm principals with 400 BAD_REQUEST, writing nothing', async () => {
    const gone = await makeUser(t, { fullName: 'Gone Soon' });
    await deactivate(t, gone.userId);
    for (const principals of [[bob.userId, 999999], [bob.userId, gone.userId], [bob.userId, outsiderId], [bob.email, 'nobody@example.com'], [gone.email]]) {
      const res = await c(alice).post(SUBS, { subscriptions: [{ name: 'never-made' }], principals });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
    }
    expect(await channelId('never-made')).toBeNull();
  });

  it('a private channel: outsiders are refused, fatally or listed as unauthorized', async () => {
    const fatal = await c(bob).post(SUBS, { subscriptions: [{ name: 'vault' }] });
    expect(fatal.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Unable to access channel (vault).' });
    const soft = await c(bob).post(SUBS, { subscriptions: [{ name: 'vault' }, { name: 'design' }], authorization_errors_fatal: false });
    expect(soft.body).toEqual({ result: 'success', msg: '', subscribed: {}, already_subscribed: { [bob.userId]: ['design'] }, unauthorized: ['vault'] });
    expect(await subscribed(bob.userId, 'vault')).toBe(false);
    // Administrators get no way in to a private channel either.
    const adminTry = await c(admin).post(SUBS, { subscriptions: [{ name: 'vault' }] });
    expect(adminTry.body.msg).toBe('Unable to access channel (vault).');
  });

  it('a subscriber of a private channel may add others (can_add_subscribers_group of the organization)', async () => {
    const res = await c(alice).post(SUBS, { subscriptions: [{ name: 'vault' }], principals: [carol.userId] });
    expect(res.body.subscribed).toEqual({ [carol.userId]: ['vault'] });
    await updateRealm(t, { can_add_subscribers_group: { new: groups['role:administrators'] } });
    try {
      const denied = await c(carol).post(SUBS, { subscriptions: [{ name: 'vault' }], principals: [bob.userId] });
      expect(denied.body.msg).toBe('Unable to access channel (vault).');
      const deniedPublic = await c(carol).post(SUBS, { subscriptions: [{ name: 'design' }], principals: [guest.userId] });
      expect(deniedPublic.body.msg).toBe('Unable to access channel (design).');
      expect(await subscribed(bob.userId, 'vault')).toBe(false);
    } finally {
      await updateRealm(t, { can_add_subscribers_group: { new: groups['role:members'] } });
    }
  });

  it('members of the channel\'s can_add_subscribers_group add others to a private channel without being in it', async () => {
    await makeChannel(c(carol), 'club', { invite_only: true, can_add_subscribers_group: JSON.stringify({ direct_members: [moderator.userId], direct_subgroups: [] }) });
    const res = await c(moderator).post(SUBS, { subscriptions: [{ name: 'club' }], principals: [bob.userId] });
    expect(res.body.subscribed).toEqual({ [bob.userId]: ['club'] });
    expect(await subscribed(moderator.userId, 'club')).toBe(false);
  });

  it('members of can_subscribe_group may join a private channel themselves, but add nobody', async () => {
    await makeChannel(c(carol), 'joinable', { invite_only: true, can_subscribe_group: groups['role:moderators'] });
    const others = await c(moderator).post(SUBS, { subscriptions: [{ name: 'joinable' }], principals: [bob.userId] });
    expect(others.body.msg).toBe('Unable to access channel (joinable).');
    const self = await c(moderator).post(SUBS, { subscriptions: [{ name: 'joinable' }] });
    expect(self.body.subscribed).toEqual({ [moderator.userId]: ['joinable'] });
    const member = await c(bob).post(SUBS, { subscriptions: [{ name: 'joinable' }] });
    expect(member.body.msg).toBe('Unable to access channel (joinable).');
  });

  it('guests cannot join public channels themselves but may be added; bots join public channels', async () => {
    const self = await c(guest).post(SUBS, { subscriptions: [{ name: 'design' }] });
    expect(self.body.msg).toBe('Unable to access channel (design).');
    const added = await c(alice).post(SUBS, { subscriptions: [{ name: 'design' }], principals: [guest.userId] });
    expect(added.body.subscribed).toEqual({ [guest.userId]: ['design'] });
    const byBot = await c(bot).post(SUBS, { subscriptions: [{ name: 'design' }] });
    expect(byBot.body.subscribed).toEqual({ [bot.userId]: ['design'] });
  });

  it('archived channels take subscription changes under the usual rules (feature level 362)', async () => {
    const oldId = await makeChannel(c(alice), 'old-stuff');
    const secretId = await makeChannel(c(alice), 'old-secret', { invite_only: true });
    for (const id of [oldId, secretId]) expect((await c(admin).delete(`/streams/${id}`)).status).toBe(200);
    const res = await c(bob).post(SUBS, { subscriptions: [{ name: 'old-stuff' }] });
    expect(res.body.subscribed).toEqual({ [bob.userId]: ['old-stuff'] });
    const left = await c(bob).delete(SUBS, { subscriptions: ['old-stuff'] });
    expect(left.body.removed).toEqual(['old-stuff']);
    const outsider = await c(bob).post(SUBS, { subscriptions: [{ name: 'old-secret' }], authorization_errors_fatal: false });
    expect(outsider.body.unauthorized).toEqual(['old-secret']);
  });

  it('sends subscription add to the new subscriber and peer_add to those who may see subscribers, never to outsiders of a private channel', async () => {
    const [qAlice, qCarol, qBob, qGuest, qAdmin] = await Promise.all([alice, carol, bob, guest, admin].map((u) => register(c(u)))) as [string, string, string, string, string];
    const dave = await makeUser(t, { fullName: 'Dave Doe' });
    const res = await c(alice).post(SUBS, { subscriptions: [{ name: 'vault' }], principals: [dave.userId] });
    expect(res.body.subscribed).toEqual({ [dave.userId]: ['vault'] });
    const vaultId = (await channelId('vault'))!;
    for (const [q, who] of [[qAlice, alice], [qCarol, carol], [qAdmin, admin]] as const) {
      const peer = (await allEvents(c(who), q)).filter((e) => e.op === 'peer_add');
      expect(peer).toEqual([expect.objectContaining({ type: 'subscription', op: 'peer_add', stream_ids: [vaultId], user_ids: [dave.userId] })]);
    }
    for (const [q, who] of [[qBob, bob], [qGuest, guest]] as const) {
      const seen = await allEvents(c(who), q);
      expect(JSON.stringify(seen)).not.toContain('vault');
      expect(seen.filter((e) => e.type === 'subscription')).toEqual([]);
    }
  });

  it('a user added to a private channel learns of it by stream create before subscription add', async () => {
    const fern = await makeUser(t, { fullName: 'Fern Private' });
    const q = await register(c(fern));
    await c(alice).post(SUBS, { subscriptions: [{ name: 'vault' }], principals: [fern.userId] });
    const seen = (await allEvents(c(fern), q)).filter((e) => e.type === 'stream' || e.type === 'subscription');
    expect(seen.map((e) => `${e.type} ${e.op}`)).toEqual(['stream create', 'subscription add']);
    expect(seen[0]!.streams[0]).toMatchObject({ name: 'vault', invite_only: true });
  });

  it('the new subscriber gets subscription add with the full record', async () => {
    const dave = await makeUser(t, { fullName: 'Dave Two' });
    const q = await register(c(dave));
    await c(alice).post(SUBS, { subscriptions: [{ name: 'design' }], principals: [dave.userId] });
    const adds = (await allEvents(c(dave), q)).filter((e) => e.type === 'subscription' && e.op === 'add');
    expect(adds).toHaveLength(1);
    expect(adds[0]!.subscriptions[0]).toMatchObject({ name: 'design', invite_only: false, in_home_view: true, is_muted: false });
    expect(adds[0]!.subscriptions[0].subscribers).toContain(dave.userId);
  });
});

describe('POST /users/me/subscriptions: notification bot messages', () => {
  it('announce posts in the new-channel announcements channel; without announce, nothing', async () => {
    const general = (await channelId('general'))!;
    await updateRealm(t, { new_stream_announcements_stream_id: general });
    try {
      const before = await t.db.message.count({ where: { channelId: general } });
      await c(alice).post(SUBS, { subscriptions: [{ name: 'quiet-new' }] });
      expect(await t.db.message.count({ where: { channelId: general } })).toBe(before);
      await c(alice).post(SUBS, { subscriptions: [{ name: 'loud-new' }], announce: true });
      const msg = await t.db.message.findFirstOrThrow({ where: { channelId: general }, orderBy: { id: 'desc' }, include: { sender: true } });
      expect(msg.topic).toBe('new channels');
      expect(msg.content).toBe(`@_**Alice Liddell|${alice.userId}** created a new channel #**loud-new**.`);
      expect(msg.sender.email).toBe('notification-bot@zulip.com');
      await c(alice).post(SUBS, { subscriptions: [{ name: 'loud-a' }, { name: 'loud-b' }], announce: true });
      const two = await t.db.message.findFirstOrThrow({ where: { channelId: general }, orderBy: { id: 'desc' } });
      expect(two.content).toBe(`@_**Alice Liddell|${alice.userId}** created the following channels: #**loud-a**, #**loud-b**.`);
    } finally {
      await updateRealm(t, { new_stream_announcements_stream_id: -1 });
    }
  });

  it('tells users (not bots, not oneself) by direct message that someone else subscribed them', async () => {
    const erin = await makeUser(t, { fullName: 'Erin Example' });
    await c(alice).post(SUBS, { subscriptions: [{ name: 'design' }, { name: 'md' }], principals: [erin.userId, alice.userId] });
    const dms = await t.db.message.findMany({ where: { directConversation: { members: { some: { userId: erin.userId } } } } });
    expect(dms.map((m) => m.content)).toEqual([
      `@**Alice Liddell|${alice.userId}** subscribed you to the following channels:\n\n- #**design**\n- #**md**`,
    ]);
    const botDms = await t.db.message.count({ where: { directConversation: { members: { some: { userId: bot.userId } } } } });
    await c(alice).post(SUBS, { subscriptions: [{ name: 'md' }], principals: [bot.userId] });
    expect(await t.db.message.count({ where: { directConversation: { members: { some: { userId: bot.userId } } } } })).toBe(botDms);
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('removes the caller, and reports channels they were not in as not_removed', async () => {
    await makeChannel(c(carol), 'leave-me');
    const res = await c(carol).delete(SUBS, { subscriptions: ['leave-me'] });
    expect(res.body).toEqual({ result: 'success', msg: '', removed: ['leave-me'], not_removed: [] });
    const again = await c(carol).delete(SUBS, { subscriptions: ['leave-me'] });
    expect(again.body).toMatchObject({ removed: [], not_removed: ['leave-me'] });
  });

  it('answers STREAM_DOES_NOT_EXIST with the name for missing and hidden channels, removing nothing', async () => {
    const missing = await c(bob).delete(SUBS, { subscriptions: ['design', 'no-such-channel'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'no-such-channel', msg: "Channel 'no-such-channel' does not exist" });
    expect(await subscribed(bob.userId, 'design')).toBe(true);
    const hidden = await c(guest).delete(SUBS, { subscriptions: ['vault'] });
    expect(hidden.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'vault' });
  });

  it('refuses deactivated and unknown principals with 400 BAD_REQUEST', async () => {
    const gone = await makeUser(t, { fullName: 'Gone Later' });
    await deactivate(t, gone.userId);
    for (const principal of [999999, outsiderId, gone.userId]) {
      const res = await c(admin).delete(SUBS, { subscriptions: ['design'], principals: [bob.userId, principal] });
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such user' });
    }
    expect(await subscribed(bob.userId, 'design')).toBe(true);
  });

  it('members, moderators and guests may not remove others', async () => {
    for (const who of [carol, moderator, guest]) {
      const res = await c(who).delete(SUBS, { subscriptions: ['design'], principals: [bob.userId] });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('Insufficient permission');
    }
    expect(await subscribed(bob.userId, 'design')).toBe(true);
  });

  it('(a) administrators remove anyone from any channel, private ones included', async () => {
    await c(alice).post(SUBS, { subscriptions: [{ name: 'design' }], principals: [carol.userId] });
    expect((await c(admin).delete(SUBS, { subscriptions: ['design'], principals: [carol.userId] })).body.removed).toEqual(['design']);
    expect(await subscribed(carol.userId, 'vault')).toBe(true);
    expect((await c(admin).delete(SUBS, { subscriptions: ['vault'], principals: [carol.email] })).body.removed).toEqual(['vault']);
    expect(await subscribed(carol.userId, 'vault')).toBe(false);
  });

  it('(b) a user removes a bot they own from a channel they can access, not someone else\'s bot', async () => {
    await c(alice).post(SUBS, { subscriptions: [{ name: 'design' }], principals: [bot.userId] });
    const notOwner = await c(bob).delete(SUBS, { subscriptions: ['design'], principals: [bot.userId] });
    expect(notOwner.body.msg).toBe('Insufficient permission');
    const owner = await c(alice).delete(SUBS, { subscriptions: ['design'], principals: [bot.userId] });
    expect(owner.body.removed).toEqual(['design']);
  });

  it('(c) channel access plus can_remove_subscribers_group lets anyone be removed', async () => {
    await makeChannel(c(alice), 'trimmed', { principals: [alice.userId, bob.userId, carol.userId], can_remove_subscribers_group: groups['role:moderators'] });
    await makeChannel(c(alice), 'trimmed-private', { invite_only: true, principals: [alice.userId, bob.userId], can_remove_subscribers_group: groups['role:moderators'] });
    const member = await c(carol).delete(SUBS, { subscriptions: ['trimmed'], principals: [bob.userId] });
    expect(member.body.msg).toBe('Insufficient permission');
    const mod = await c(moderator).delete(SUBS, { subscriptions: ['trimmed'], principals: [bob.userId] });
    expect(mod.body.removed).toEqual(['trimmed']);
    // Without access to the private channel the group does not help, and the channel stays hidden.
    const noAccess = await c(moderator).delete(SUBS, { subscriptions: ['trimmed-private'], principals: [bob.userId] });
    expect(noAccess.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'trimmed-private' });
    expect(await subscribed(bob.userId, 'trimmed-private')).toBe(true);
  });

  it('sends subscription remove to the removed user and peer_remove to the others who may see subscribers', async () => {
    await makeChannel(c(alice), 'hush', { invite_only: true, principals: [alice.userId, bob.userId] });
    const hush = (await channelId('hush'))!;
    const [qAlice, qBob, qCarol, qAdmin] = await Promise.all([alice, bob, carol, admin].map((u) => register(c(u)))) as [string, string, string, string];
    const res = await c(alice).delete(SUBS, { subscriptions: ['hush'], principals: [bob.userId] });
    expect(res.status).toBe(400); // alice is no administrator and the default can_remove_subscribers_group is administrators
    expect((await c(admin).delete(SUBS, { subscriptions: ['hush'], principals: [bob.userId] })).body.removed).toEqual(['hush']);
    expect((await allEvents(c(bob), qBob)).filter((e) => e.type === 'subscription')).toEqual([
      expect.objectContaining({ op: 'remove', subscriptions: [{ name: 'hush', stream_id: hush }] }),
    ]);
    for (const [q, who] of [[qAlice, alice], [qAdmin, admin]] as const) {
      expect((await allEvents(c(who), q)).filter((e) => e.type === 'subscription')).toEqual([
        expect.objectContaining({ op: 'peer_remove', stream_ids: [hush], user_ids: [bob.userId] }),
      ]);
    }
    const carolSees = await allEvents(c(carol), qCarol);
    expect(JSON.stringify(carolSees)).not.toContain('hush');
    expect(carolSees.filter((e) => e.type === 'subscription')).toEqual([]);
  });
});

describe('PATCH /users/me/subscriptions (older combined form)', () => {
  it('joins and leaves in one request', async () => {
    await makeChannel(c(carol), 'swap-out');
    const res = await c(carol).patch(SUBS, { add: [{ name: 'swap-in' }, { name: 'general' }], delete: ['swap-out'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      result: 'success', msg: '', subscribed: { [carol.userId]: ['swap-in'] }, already_subscribed: { [carol.userId]: ['general'] },
      removed: ['swap-out'], not_removed: [],
    });
  });

  it('changes nothing when either half fails, and needs one of the two', async () => {
    const res = await c(carol).patch(SUBS, { add: [{ name: 'swap-never' }], delete: ['swap-in', 'no-such-channel'] });
    expect(res.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'no-such-channel' });
    expect(await channelId('swap-never')).toBeNull();
    expect(await subscribed(carol.userId, 'swap-in')).toBe(true);
    const vault = await c(carol).patch(SUBS, { add: [{ name: 'vault' }], delete: ['swap-in'] });
    expect(vault.body.msg).toBe('Unable to access channel (vault).');
    expect(await subscribed(carol.userId, 'swap-in')).toBe(true);
    const empty = await c(carol).patch(SUBS, {});
    expect(empty.body.msg).toBe('Nothing to do. Specify at least one of "add" or "delete".');
  });
});

describe('GET /users/me/subscriptions', () => {
  it('lists every channel-record field and personal setting, with consistent deprecated fields', async () => {
    const res = await c(alice).get(SUBS);
    expect(res.status).toBe(200);
    const design = res.body.subscriptions.find((s: { name: string }) => s.name === 'design');
    for (const key of ['stream_id', 'name', 'description', 'rendered_description', 'date_created', 'creator_id', 'invite_only', 'is_web_public',
      'history_public_to_subscribers', 'message_retention_days', 'first_message_id', 'folder_id', 'topics_policy', 'is_archived',
      'is_recently_active', 'is_announcement_only', 'stream_post_policy', 'stream_weekly_traffic', 'can_add_subscribers_group',
      'can_remove_subscribers_group', 'can_administer_channel_group', 'can_send_message_group', 'can_subscribe_group', 'color', 'is_muted',
      'in_home_view', 'pin_to_top', 'desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications',
      'wildcard_mentions_notify']) {
      expect(design, key).toHaveProperty(key);
    }
    expect(design.in_home_view).toBe(!design.is_muted);
    expect(design).toMatchObject({ is_announcement_only: false, stream_post_policy: 1, stream_weekly_traffic: null });
    expect(design.subscribers).toBeUndefined();
    const names = res.body.subscriptions.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
  });

  it('include_subscribers=true lists subscribers; an unknown value is refused', async () => {
    const res = await c(alice).get(SUBS, { include_subscribers: 'true' });
    const vault = res.body.subscriptions.find((s: { name: string }) => s.name === 'vault');
    expect(vault.subscribers).toContain(alice.userId);
    expect(vault.partial_subscribers).toBeUndefined();
    const bad = await c(alice).get(SUBS, { include_subscribers: 'some' });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid include_subscribers' });
  });

  it('include_subscribers=partial: full lists below 250 subscribers, bots and recently active users above', async () => {
    const big = await makeChannel(c(alice), 'big', { principals: [alice.userId, bot.userId] });
    const now = Date.now();
    // Written directly: 250 accounts through POST /users would take most of a minute, and only the
    // database can date a user's last activity back.
    const rows = Array.from({ length: 250 }, (_, i) => ({
      realmId: t.realmId, email: `crowd${i}@example.com`, deliveryEmail: `crowd${i}@example.com`, fullName: `Crowd ${i}`, apiKey: `crowdkey${i}`.padEnd(32, 'x'),
      lastActivity: new Date(now - (i < 3 ? 1 : 30) * 86_400_000),
    }));
    await t.db.user.createMany({ data: rows as never });
    const crowd = await t.db.user.findMany({ where: { realmId: t.realmId, email: { startsWith: 'crowd' } }, orderBy: { id: 'asc' } });
    await t.db.subscription.createMany({ data: crowd.map((u) => ({ userId: u.id, channelId: big })) });
    await t.db.user.update({ where: { id: alice.userId }, data: { lastActivity: new Date() } });

    const partial = await c(alice).get(SUBS, { include_subscribers: 'partial' });
    const bigSub = partial.body.subscriptions.find((s: { name: string }) => s.name === 'big');
    expect(bigSub.subscribers).toBeUndefined();
    expect(bigSub.partial_subscribers).toEqual([alice.userId, bot.userId, ...crowd.slice(0, 3).map((u) => u.id)].sort((a, b) => a - b));
    const small = partial.body.subscriptions.find((s: { name: string }) => s.name === 'design');
    expect(small.subscribers.length).toBeGreaterThan(0);
    const full = await c(alice).get(SUBS, { include_subscribers: 'true' });
    expect(full.body.subscriptions.find((s: { name: string }) => s.name === 'big').subscribers).toHaveLength(252);
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id} and /users/me/subscriptions/{stream_id}', () => {
  it('says whether the user is subscribed', async () => {
    const design = (await channelId('design'))!;
    expect((await c(alice).get(`${SUBS}/${design}`)).body).toEqual({ result: 'success', msg: '', is_subscribed: true });
    expect((await c(carol).get(`/users/${bob.userId}/subscriptions/${design}`)).body.is_subscribed).toBe(true);
    expect((await c(carol).get(`/users/${t.owner.userId}/subscriptions/${design}`)).body.is_subscribed).toBe(false);
  });

  it('never reveals a private channel to outsiders, and refuses unknown users', async () => {
    const vault = (await channelId('vault'))!;
    const hidden = await c(bob).get(`/users/${alice.userId}/subscriptions/${vault}`);
    expect(hidden.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await c(bob).get(`${SUBS}/${vault}`)).body.msg).toBe('Invalid channel ID');
    expect((await c(alice).get(`/users/${outsiderId}/subscriptions/${vault}`)).body.msg).toBe('No such user');
  });
});

describe('GET /streams/{stream_id}/members', () => {
  it('lists subscribers of a channel the caller may see', async () => {
    const vault = (await channelId('vault'))!;
    const res = await c(alice).get(`/streams/${vault}/members`);
    expect(res.body.subscribers).toContain(alice.userId);
    expect((await c(admin).get(`/streams/${vault}/members`)).body.subscribers).toEqual(res.body.subscribers);
  });

  it('hides private channels from non-subscribers and public ones from unsubscribed guests', async () => {
    const vault = (await channelId('vault'))!;
    for (const who of [bob, moderator, guest]) {
      expect((await c(who).get(`/streams/${vault}/members`)).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    }
    const md = (await channelId('md'))!;
    expect((await c(guest).get(`/streams/${md}/members`)).body.msg).toBe('Invalid channel ID');
    const design = (await channelId('design'))!;
    expect((await c(guest).get(`/streams/${design}/members`)).body.subscribers).toContain(guest.userId);
  });
});

describe('POST /users/me/subscriptions/properties', () => {
  const PROPS = `${SUBS}/properties`;
  it('sets every property and sends subscription update events to the user alone', async () => {
    const design = (await channelId('design'))!;
    const [q, qBob] = await Promise.all([register(c(alice)), register(c(bob))]);
    const res = await c(alice).post(PROPS, { subscription_data: [
      { stream_id: design, property: 'color', value: '#a1B2c3' },
      { stream_id: design, property: 'pin_to_top', value: true },
      { stream_id: design, property: 'desktop_notifications', value: false },
      { stream_id: design, property: 'audible_notifications', value: true },
      { stream_id: design, property: 'push_notifications', value: false },
      { stream_id: design, property: 'email_notifications', value: true },
      { stream_id: design, property: 'wildcard_mentions_notify', value: false },
      { stream_id: design, property: 'is_muted', value: true },
    ] });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const sub = await t.db.subscription.findUniqueOrThrow({ where: { userId_channelId: { userId: alice.userId, channelId: design } } });
    expect(sub).toMatchObject({ color: '#a1B2c3', pinToTop: true, desktopNotifications: false, audibleNotifications: true, pushNotifications: false, emailNotifications: true, wildcardMentionsNotify: false, isMuted: true });
    const updates = (await allEvents(c(alice), q)).filter((e) => e.type === 'subscription' && e.op === 'update');
    expect(updates.map((e) => [e.property, e.value])).toEqual([
      ['color', '#a1B2c3'], ['pin_to_top', true], ['desktop_notifications', false], ['audible_notifications', true],
      ['push_notifications', false], ['email_notifications', true], ['wildcard_mentions_notify', false], ['in_home_view', false], ['is_muted', true],
    ]);
    expect(updates.every((e) => e.stream_id === design)).toBe(true);
    expect((await allEvents(c(bob), qBob)).filter((e) => e.type === 'subscription')).toEqual([]);
  });

  it('in_home_view is the inverse of is_muted; untouched notification settings stay null (inherit)', async () => {
    const design = (await channelId('design'))!;
    await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'in_home_view', value: true }] });
    const list = await c(alice).get(SUBS);
    const d = list.body.subscriptions.find((s: { name: string }) => s.name === 'design');
    expect(d).toMatchObject({ is_muted: false, in_home_view: true });
    const md = list.body.subscriptions.find((s: { name: string }) => s.name === 'md');
    expect(md).toMatchObject({ desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null });
  });

  it('refuses bad values in Zulip\'s words and changes nothing', async () => {
    const design = (await channelId('design'))!;
    const vault = (await channelId('vault'))!;
    const old = (await c(alice).get(SUBS)).body.subscriptions.find((s: { name: string }) => s.name === 'design');
    const cases: [unknown, string][] = [
      [{ stream_id: design, property: 'colour', value: '#000000' }, 'Unknown subscription property: colour'],
      [{ stream_id: design, property: 'color', value: 'red' }, 'color is not a valid hex color code'],
      [{ stream_id: design, property: 'color', value: 5 }, 'color is not a string'],
      [{ stream_id: design, property: 'is_muted', value: 'yes' }, 'is_muted is not a boolean'],
      [{ stream_id: design, property: 'pin_to_top', value: null }, 'pin_to_top is not a boolean'],
      [{ stream_id: design, property: 'is_muted', value: null }, 'is_muted is not a boolean'],
      [{ stream_id: 999999, property: 'is_muted', value: true }, 'Invalid channel ID'],
      [{ stream_id: (await channelId('leave-me'))!, property: 'is_muted', value: true }, `Not subscribed to channel ID ${(await channelId('leave-me'))!}`],
      [{ stream_id: design, property: 'is_muted' }, 'subscription_data[1] is missing value'],
    ];
    for (const [bad, msg] of cases) {
      const res = await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'pin_to_top', value: !old.pin_to_top }, bad] });
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg });
    }
    expect((await c(bob).post(PROPS, { subscription_data: [{ stream_id: vault, property: 'is_muted', value: true }] })).body.msg).toBe('Invalid channel ID');
    const now = (await c(alice).get(SUBS)).body.subscriptions.find((s: { name: string }) => s.name === 'design');
    expect(now.pin_to_top).toBe(old.pin_to_top);
  });

  it('PATCH /users/me/subscriptions/{stream_id} changes one property', async () => {
    const design = (await channelId('design'))!;
    const res = await c(alice).patch(`${SUBS}/${design}`, { property: 'pin_to_top', value: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const color = await c(alice).patch(`${SUBS}/${design}`, { property: 'color', value: '#123456' });
    expect(color.status).toBe(200);
    expect((await t.db.subscription.findUniqueOrThrow({ where: { userId_channelId: { userId: alice.userId, channelId: design } } }))).toMatchObject({ pinToTop: false, color: '#123456' });
  });
});

describe('is_web_public with the server setting off', () => {
  const off = useTestServer({ webPublicStreamsEnabled: false });

  it('refuses even the owner of an organization with spectator access', async () => {
    await updateRealm(off, { enable_spectator_access: true });
    const res = await off.ownerClient.post(SUBS, { subscriptions: [{ name: 'web-off' }], is_web_public: true });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect(await off.db.channel.findFirst({ where: { name: 'web-off' } })).toBeNull();
    expect((await off.ownerClient.post(SUBS, { subscriptions: [{ name: 'web-off' }] })).status).toBe(200);
  });
});
