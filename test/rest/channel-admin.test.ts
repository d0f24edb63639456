// PATCH /streams/{stream_id} and DELETE /streams/{stream_id}: who may change what, the rules of each
// setting, and the events each change sends to exactly the users who may see the channel.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel, updateRealm, makeChannelFolder } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useBot, useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

// alice: member; creates channels, so administers them
// bob: member
// bot: owned by alice
// stranger: the owner of another organization
const t = useTestServer();
const { admin, moderator, alice, bob, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'guest']);
const bot = useBot(t, alice, { fullName: 'Botty' });
const stranger = useOtherRealmOwner(t, 'other');
const OTHER = 'other.localhost';

const as = (who: Credentials) => (who === stranger ? t.client(who, OTHER) : t.client(who));
const channel = async (id: number) => t.db.channel.findUniqueOrThrow({ where: { id } });
let seq = 0;
const fresh = (prefix: string) => `${prefix}-${++seq}`;

const register = async (client: ApiClient, capabilities: Record<string, boolean> = {}) => (await registerQueue(client, {
  event_types: ['stream', 'default_streams', 'message'], fetch_event_types: ['realm'], client_capabilities: capabilities,
})).queue_id;
const events = async (client: ApiClient, queueId: string, type = 'stream') => (await allEvents(client, queueId)).filter((e) => e.type === type);

describe('PATCH /streams/{stream_id}: who may administer a channel', () => {
  let id: number;
  beforeAll(async () => {
    id = await makeChannel(t.client(alice), fresh('matrix'));
  });

  const cases: [string, () => Credentials, number, string | null][] = [
    ['the owner', () => t.owner, 200, null],
    ['an administrator', () => admin, 200, null],
    ['a member of can_administer_channel_group (the creator)', () => alice, 200, null],
    ['a moderator', () => moderator, 400, 'You do not have permission to administer this channel.'],
    ['another member', () => bob, 400, 'You do not have permission to administer this channel.'],
    ['a bot owned by the channel administrator', () => bot, 400, 'You do not have permission to administer this channel.'],
    ['a guest, who cannot see the channel', () => guest, 400, 'Invalid channel ID'],
    ['a user of another organization', () => stranger, 400, 'Invalid channel ID'],
  ];
  for (const [who, creds, status, msg] of cases) {
    it(`${status === 200 ? 'lets' : 'refuses'} ${who}`, async () => {
      const description = `set by ${who}`;
      const before = await channel(id);
      const res = await as(creds()).patch(`/streams/${id}`, { description });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (msg) {
        expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
        expect((await channel(id)).description).toBe(before.description);
      } else {
        expect((await channel(id)).description).toBe(description);
      }
    });
  }

  it('reports a private channel the caller cannot see exactly like a missing one', async () => {
    const secret = await makeChannel(t.client(alice), fresh('secret'), { invite_only: true });
    const hidden = await t.client(bob).patch(`/streams/${secret}`, { description: 'x' });
    const missing = await t.client(bob).patch('/streams/987654', { description: 'x' });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(missing.body);
  });

  it('lets a user administer once added to can_administer_channel_group', async () => {
    const cid = await makeChannel(t.client(alice), fresh('delegate'));
    expect((await t.client(bob).patch(`/streams/${cid}`, { description: 'bob' })).status).toBe(400);
    const grant = await t.client(alice).patch(`/streams/${cid}`, { can_administer_channel_group: { new: { direct_members: [alice.userId, bob.userId], direct_subgroups: [] } } });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect((await t.client(bob).patch(`/streams/${cid}`, { description: 'bob' })).status).toBe(200);
  });

  it('needs authentication', async () => {
    const res = await t.client().patch(`/streams/${id}`, { description: 'anon' });
    expect(res.status).toBe(401);
  });
});

describe('PATCH /streams/{stream_id}: new_name', () => {
  it('renames, sends a stream update carrying the old name, and the notification bot announces it', async () => {
    const oldName = fresh('old');
    const id = await makeChannel(t.client(alice), oldName, { principals: [alice.userId, bob.userId] });
    const q = await register(t.client(bob));
    const newName = fresh('new');
    const res = await t.client(alice).patch(`/streams/${id}`, { new_name: `  ${newName} ` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await channel(id)).name).toBe(newName);
    const evs = await events(t.client(bob), q);
    expect(evs).toEqual([expect.objectContaining({ op: 'update', stream_id: id, name: oldName, property: 'name', value: newName })]);
    const messages = await t.client(bob).get('/messages', {
      anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: id }, { operator: 'topic', operand: 'channel events' }], apply_markdown: false,
    });
    expect(messages.body.messages.at(-1).content).toBe(`@_**${alice.fullName}|${alice.userId}** renamed channel **${oldName}** to **${newName}**.`);
  });

  it('allows changing only the case', async () => {
    const name = fresh('casey');
    const id = await makeChannel(t.client(alice), name);
    expect((await t.client(alice).patch(`/streams/${id}`, { new_name: name.toUpperCase() })).status).toBe(200);
    expect((await channel(id)).name).toBe(name.toUpperCase());
  });

  it('refuses the same name, a taken name and an empty name, changing nothing', async () => {
    const name = fresh('named');
    const id = await makeChannel(t.client(alice), name);
    const same = await t.client(alice).patch(`/streams/${id}`, { new_name: name });
    expect(same.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Channel already has that name.' });
    const taken = await t.client(alice).patch(`/streams/${id}`, { new_name: 'GENERAL' });
    expect(taken.body).toMatchObject({ code: 'BAD_REQUEST', msg: "Channel 'GENERAL' already exists" });
    const empty = await t.client(alice).patch(`/streams/${id}`, { new_name: '   ' });
    expect(empty.body.msg).toBe("Channel name can't be empty.");
    const long = await t.client(alice).patch(`/streams/${id}`, { new_name: 'x'.repeat(61) });
    expect(long.body.msg).toBe('Channel name too long (limit: 60 characters).');
    expect((await channel(id)).name).toBe(name);
  });
});

describe('PATCH /streams/{stream_id}: description', () => {
  it('stores, renders and announces the new description', async () => {
    const id = await makeChannel(t.client(alice), fresh('described'));
    const q = await register(t.client(bob));
    const res = await t.client(alice).patch(`/streams/${id}`, { description: 'Talk about **design**' });
    expect(res.status).toBe(200);
    const evs = await events(t.client(bob), q);
    expect(evs).toEqual([expect.objectContaining({ property: 'description', value: 'Talk about **design**', rendered_description: '<p>Talk about <strong>design</strong></p>' })]);
    const record = (await t.client(bob).get(`/streams/${id}`)).body.stream;
    expect(record.rendered_description).toBe('<p>Talk about <strong>design</strong></p>');
  });

  it('refuses an over-long description', async () => {
    const id = await makeChannel(t.client(alice), fresh('verbose'));
    const res = await t.client(alice).patch(`/streams/${id}`, { description: 'x'.repeat(1025) });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Channel description too long (limit: 1024 characters).' });
    expect((await channel(id)).description).toBe('');
  });
});

describe('PATCH /streams/{stream_id}: privacy', () => {
  it('making a public channel private: subscribers get invite_only with its companions, others get stream delete', async () => {
    const id = await makeChannel(t.client(alice), fresh('closing'), { principals: [alice.userId] });
    const qAlice = await register(t.client(alice));
    const qBob = await register(t.client(bob));
    const qAdmin = await register(t.client(admin));
    const res = await t.client(alice).patch(`/streams/${id}`, { is_private: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await events(t.client(alice), qAlice)).toEqual([expect.objectContaining({
      op: 'update', property: 'invite_only', value: true, history_public_to_subscribers: true, is_web_public: false,
    })]);
    expect(await events(t.client(bob), qBob)).toEqual([expect.objectContaining({ op: 'delete', stream_ids: [id] })]);
    // Administrators keep metadata access.
    expect((await events(t.client(admin), qAdmin)).map((e) => e.op)).toEqual(['update']);
    expect((await t.client(bob).get(`/streams/${id}`)).status).toBe(400);
    const said = await t.client(alice).get('/messages', {
      anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false,
      narrow: [{ operator: 'channel', operand: id }, { operator: 'topic', operand: 'channel events' }],
    });
    expect(said.body.messages[0].content).toBe(`@_**${alice.fullName}|${alice.userId}** changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, shared history**.`);
  });

  it('making a private channel public: users who gain access get stream create, guests nothing', async () => {
    const id = await makeChannel(t.client(alice), fresh('opening'), { invite_only: true });
    const qBob = await register(t.client(bob));
    const qGuest = await register(t.client(guest));
    const res = await t.client(alice).patch(`/streams/${id}`, { is_private: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = await events(t.client(bob), qBob);
    expect(created).toEqual([expect.objectContaining({ op: 'create' })]);
    expect(created[0].streams[0]).toMatchObject({ stream_id: id, invite_only: false, history_public_to_subscribers: true });
    expect(await events(t.client(guest), qGuest)).toEqual([]);
  });

  it('an administrator who cannot read a private channel may not make it public', async () => {
    const id = await makeChannel(t.client(alice), fresh('sealed'), { invite_only: true });
    const res = await t.client(admin).patch(`/streams/${id}`, { is_private: false });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await channel(id)).inviteOnly).toBe(true);
    // Metadata-level changes remain allowed.
    expect((await t.client(admin).patch(`/streams/${id}`, { description: 'admin was here' })).status).toBe(200);
  });

  it('history_public_to_subscribers changes for private channels; public channels keep public history', async () => {
    const id = await makeChannel(t.client(alice), fresh('hist'), { invite_only: true });
    const res = await t.client(alice).patch(`/streams/${id}`, { history_public_to_subscribers: true });
    expect(res.status).toBe(200);
    expect((await channel(id)).historyPublicToSubscribers).toBe(true);
    const pub = await makeChannel(t.client(alice), fresh('pubhist'));
    await t.client(alice).patch(`/streams/${pub}`, { history_public_to_subscribers: false });
    expect((await channel(pub)).historyPublicToSubscribers).toBe(true);
  });

  it('refuses web-public channels while spectator access is off', async () => {
    const id = await makeChannel(t.client(alice), fresh('web'));
    const res = await t.client(t.owner).patch(`/streams/${id}`, { is_web_public: true });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Web-public channels are not enabled.' });
    expect((await channel(id)).isWebPublic).toBe(false);
  });

  it('with spectator access on, those allowed to create web-public channels may make one web-public', async () => {
    const id = await makeChannel(t.client(alice), fresh('webby'));
    const realmId = (await channel(id)).realmId;
    await updateRealm(t, { enable_spectator_access: true });
    try {
      const member = await t.client(alice).patch(`/streams/${id}`, { is_web_public: true });
      expect(member.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect((await channel(id)).isWebPublic).toBe(false);
      const q = await register(t.client(bob));
      expect((await t.client(t.owner).patch(`/streams/${id}`, { is_web_public: true })).status).toBe(200);
      expect((await events(t.client(bob), q)).map((e) => [e.property, e.value])).toEqual([['is_web_public', true]]);
      // Making it private ends web-public access too.
      expect((await t.client(alice).patch(`/streams/${id}`, { is_private: true })).status).toBe(200);
      expect(await channel(id)).toMatchObject({ inviteOnly: true, isWebPublic: false });
    } finally {
      await updateRealm(t, { enable_spectator_access: false });
    }
  });

  it('a default channel cannot be made private', async () => {
    const id = await makeChannel(t.client(alice), fresh('defaulted'));
    expect((await t.client(admin).patch(`/streams/${id}`, { is_default_stream: true })).status).toBe(200);
    const res = await t.client(admin).patch(`/streams/${id}`, { is_private: true });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'A default channel cannot be private.' });
    expect((await channel(id)).inviteOnly).toBe(false);
  });

  it('rejects a non-boolean', async () => {
    const id = await makeChannel(t.client(alice), fresh('boolish'));
    const res = await t.client(alice).patch(`/streams/${id}`, { is_private: 'maybe' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'is_private is not a boolean' });
  });
});

describe('PATCH /streams/{stream_id}: is_default_stream', () => {
  it('administrators add and remove default channels, and everyone hears of it', async () => {
    const id = await makeChannel(t.client(alice), fresh('dflt'));
    const q = await register(t.client(bob));
    expect((await t.client(admin).patch(`/streams/${id}`, { is_default_stream: true })).status).toBe(200);
    const [event] = await events(t.client(bob), q, 'default_streams');
    expect(event.default_streams).toContain(id);
    expect((await t.client(admin).patch(`/streams/${id}`, { is_default_stream: false })).status).toBe(200);
    expect(await t.db.defaultChannel.count({ where: { channelId: id } })).toBe(0);
  });

  it('a channel administrator who is not an organization administrator may not', async () => {
    const id = await makeChannel(t.client(alice), fresh('notdflt'));
    const res = await t.client(alice).patch(`/streams/${id}`, { is_default_stream: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    expect(await t.db.defaultChannel.count({ where: { channelId: id } })).toBe(0);
  });
});

describe('PATCH /streams/{stream_id}: message_retention_days', () => {
  it('owners set days, unlimited and realm_default', async () => {
    const id = await makeChannel(t.client(alice), fresh('retain'));
    const q = await register(t.client(bob));
    expect((await t.client(t.owner).patch(`/streams/${id}`, { message_retention_days: 30 })).status).toBe(200);
    expect((await channel(id)).messageRetentionDays).toBe(30);
    expect((await t.client(t.owner).patch(`/streams/${id}`, { message_retention_days: 'unlimited' })).status).toBe(200);
    expect((await channel(id)).messageRetentionDays).toBe(-1);
    expect((await t.client(t.owner).patch(`/streams/${id}`, { message_retention_days: 'realm_default' })).status).toBe(200);
    expect((await channel(id)).messageRetentionDays).toBe(null);
    expect((await events(t.client(bob), q)).map((e) => [e.property, e.value])).toEqual([
      ['message_retention_days', 30], ['message_retention_days', -1], ['message_retention_days', null],
    ]);
  });

  it('administrators who are not owners may not; bad values are refused', async () => {
    const id = await makeChannel(t.client(alice), fresh('retain2'));
    const res = await t.client(admin).patch(`/streams/${id}`, { message_retention_days: 30 });
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    const zero = await t.client(t.owner).patch(`/streams/${id}`, { message_retention_days: 0 });
    expect(zero.body).toMatchObject({ code: 'BAD_REQUEST', msg: "Bad value for 'message_retention_days': 0" });
    const word = await t.client(t.owner).patch(`/streams/${id}`, { message_retention_days: 'soon' });
    expect(word.body.msg).toBe("Bad value for 'message_retention_days': soon");
    expect((await channel(id)).messageRetentionDays).toBe(null);
  });
});

describe('PATCH /streams/{stream_id}: topics_policy', () => {
  it('changes the policy and announces it', async () => {
    const id = await makeChannel(t.client(alice), fresh('policy'));
    const q = await register(t.client(bob));
    expect((await t.client(alice).patch(`/streams/${id}`, { topics_policy: 'disable_empty_topic' })).status).toBe(200);
    expect(await events(t.client(bob), q)).toEqual([expect.objectContaining({ property: 'topics_policy', value: 'disable_empty_topic' })]);
  });

  it('needs the organization\'s can_set_topics_policy_group as well as channel administration', async () => {
    const id = await makeChannel(t.client(alice), fresh('policy-perm'));
    const prisma = t.db;
    const realm = await prisma.realm.findUniqueOrThrow({ where: { id: (await channel(id)).realmId } });
    const admins = await prisma.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: 'role:administrators', isSystemGroup: true } });
    await updateRealm(t, { can_set_topics_policy_group: { new: admins.id } });
    try {
      const res = await t.client(alice).patch(`/streams/${id}`, { topics_policy: 'allow_empty_topic' });
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect((await channel(id)).topicsPolicy).toBe('inherit');
      expect((await t.client(admin).patch(`/streams/${id}`, { topics_policy: 'allow_empty_topic' })).status).toBe(200);
    } finally {
      await updateRealm(t, { can_set_topics_policy_group: { new: realm.canSetTopicsPolicyGroupId } });
    }
  });

  it('refuses unknown policies', async () => {
    const id = await makeChannel(t.client(alice), fresh('policy2'));
    const res = await t.client(alice).patch(`/streams/${id}`, { topics_policy: 'whatever' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid topics_policy' });
  });

  it('allows empty_topic_only only when every message is in the empty topic', async () => {
    const name = fresh('chat');
    const id = await makeChannel(t.client(alice), name);
    await sendToChannel(t.client(alice), name, '', 'in general chat');
    expect((await t.client(alice).patch(`/streams/${id}`, { topics_policy: 'empty_topic_only' })).status).toBe(200);
    expect((await t.client(alice).patch(`/streams/${id}`, { topics_policy: 'inherit' })).status).toBe(200);
    await sendToChannel(t.client(alice), name, 'named', 'in a topic');
    const res = await t.client(alice).patch(`/streams/${id}`, { topics_policy: 'empty_topic_only' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.' });
    expect((await channel(id)).topicsPolicy).toBe('inherit');
  });
});

describe('PATCH /streams/{stream_id}: folder_id', () => {
  it('moves the channel into a folder and out again; unknown folders are refused', async () => {
    const id = await makeChannel(t.client(alice), fresh('foldered'));
    const folder = await makeChannelFolder(t.client(t.owner), fresh('Folder'));
    const q = await register(t.client(bob));
    expect((await t.client(alice).patch(`/streams/${id}`, { folder_id: folder })).status).toBe(200);
    expect((await channel(id)).folderId).toBe(folder);
    expect((await t.client(alice).patch(`/streams/${id}`, { folder_id: 'null' })).status).toBe(200);
    expect((await channel(id)).folderId).toBe(null);
    expect((await events(t.client(bob), q)).map((e) => [e.property, e.value])).toEqual([['folder_id', folder], ['folder_id', null]]);
    const bad = await t.client(alice).patch(`/streams/${id}`, { folder_id: 99999 });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel folder ID' });
    const junk = await t.client(alice).patch(`/streams/${id}`, { folder_id: '"x"' });
    expect(junk.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'folder_id is not an integer' });
  });
});

describe('PATCH /streams/{stream_id}: permission settings', () => {
  const systemGroup = async (name: string) =>
    (await t.db.userGroup.findFirstOrThrow({
      where: { name, isSystemGroup: true, realmId: (await t.db.user.findUniqueOrThrow({ where: { id: t.owner.userId } })).realmId },
    })).id;

  it('sets each setting with {new} and sends its value', async () => {
    const id = await makeChannel(t.client(alice), fresh('perms'));
    const moderators = await systemGroup('role:moderators');
    const settings = [
      'can_add_subscribers_group', 'can_remove_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group',
      'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
      'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group',
    ];
    const q = await register(t.client(bob));
    for (const setting of settings) {
      const res = await t.client(t.owner).patch(`/streams/${id}`, { [setting]: { new: moderators } });
      expect(res.status, `${setting}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const record = (await t.client(t.owner).get(`/streams/${id}`)).body.stream;
    for (const setting of settings) expect(record[setting], setting).toBe(moderators);
    expect((await events(t.client(bob), q)).map((e) => [e.property, e.value])).toEqual(settings.map((s) => [s, moderators]));
  });

  it('accepts an explicit set and checks old against the current value', async () => {
    const id = await makeChannel(t.client(alice), fresh('oldnew'));
    const current = { direct_members: [alice.userId], direct_subgroups: [] };
    const wrong = await t.client(alice).patch(`/streams/${id}`, {
      can_remove_subscribers_group: { new: { direct_members: [bob.userId], direct_subgroups: [] }, old: current },
    });
    expect(wrong.body).toMatchObject({ code: 'BAD_REQUEST', msg: "'old' value does not match the expected value." });
    const before = (await channel(id)).canRemoveSubscribersGroupId;
    const admins = await systemGroup('role:administrators');
    const right = await t.client(alice).patch(`/streams/${id}`, {
      can_remove_subscribers_group: { new: { direct_members: [bob.userId], direct_subgroups: [admins] }, old: admins },
    });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect((await channel(id)).canRemoveSubscribersGroupId).not.toBe(before);
    const record = (await t.client(alice).get(`/streams/${id}`)).body.stream;
    expect(record.can_remove_subscribers_group).toEqual({ direct_members: [bob.userId], direct_subgroups: [admins] });
  });

  it('refuses malformed update objects, unknown groups and groups the setting does not allow', async () => {
    const id = await makeChannel(t.client(alice), fresh('badperm'));
    const noNew = await t.client(alice).patch(`/streams/${id}`, { can_send_message_group: { old: 1 } });
    expect(noNew.body.code).toBe('BAD_REQUEST');
    const unknown = await t.client(alice).patch(`/streams/${id}`, { can_send_message_group: { new: 999999 } });
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user group' });
    const internet = await t.client(alice).patch(`/streams/${id}`, { can_send_message_group: { new: await systemGroup('role:internet') } });
    expect(internet.body).toMatchObject({ code: 'BAD_REQUEST', msg: "'can_send_message_group' setting cannot be set to 'role:internet' group." });
    const badUser = await t.client(alice).patch(`/streams/${id}`, { can_send_message_group: { new: { direct_members: [stranger.userId + 100000], direct_subgroups: [] } } });
    expect(badUser.body.code).toBe('BAD_REQUEST');
    expect((await channel(id)).canSendMessageGroupId).toBe(await systemGroup('role:everyone'));
  });

  it('content settings need content access; metadata settings do not', async () => {
    const id = await makeChannel(t.client(alice), fresh('contentperm'), { invite_only: true });
    const moderators = await systemGroup('role:moderators');
    for (const setting of ['can_add_subscribers_group', 'can_delete_any_message_group', 'can_delete_own_message_group']) {
      const res = await t.client(admin).patch(`/streams/${id}`, { [setting]: { new: moderators } });
      expect(res.body, setting).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    }
    expect((await channel(id)).canAddSubscribersGroupId).not.toBe(moderators);
    const meta = await t.client(admin).patch(`/streams/${id}`, { can_remove_subscribers_group: { new: moderators } });
    expect(meta.status).toBe(200);
    // The creator, subscribed, may change content settings.
    expect((await t.client(alice).patch(`/streams/${id}`, { can_delete_own_message_group: { new: moderators } })).status).toBe(200);
  });

  it('granting can_add_subscribers_group on a private channel shows it to the new members', async () => {
    const id = await makeChannel(t.client(alice), fresh('granting'), { invite_only: true });
    const q = await register(t.client(bob));
    const res = await t.client(alice).patch(`/streams/${id}`, { can_add_subscribers_group: { new: { direct_members: [bob.userId], direct_subgroups: [] } } });
    expect(res.status).toBe(200);
    expect((await events(t.client(bob), q)).map((e) => e.op)).toEqual(['create']);
    expect((await t.client(bob).get(`/streams/${id}`)).status).toBe(200);
  });
});

describe('PATCH /streams/{stream_id}: losing access through a permission change', () => {
  it('a user removed from the administrators of a private channel they are not in gets stream delete', async () => {
    const id = await makeChannel(t.client(alice), fresh('revoke'), { invite_only: true });
    const both = { direct_members: [alice.userId, bob.userId], direct_subgroups: [] };
    expect((await t.client(alice).patch(`/streams/${id}`, { can_administer_channel_group: { new: both } })).status).toBe(200);
    const qBob = await register(t.client(bob));
    const qAlice = await register(t.client(alice));
    const res = await t.client(alice).patch(`/streams/${id}`, {
      can_administer_channel_group: { new: { direct_members: [alice.userId], direct_subgroups: [] }, old: both },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await events(t.client(bob), qBob)).toEqual([expect.objectContaining({ op: 'delete', stream_ids: [id] })]);
    expect(await events(t.client(alice), qAlice)).toEqual([expect.objectContaining({
      op: 'update', property: 'can_administer_channel_group', value: { direct_members: [alice.userId], direct_subgroups: [] },
    })]);
    expect((await t.client(bob).get(`/streams/${id}`)).body.msg).toBe('Invalid channel ID');
  });
});

describe('DELETE /streams/{stream_id}: archiving', () => {
  it('only channel and organization administrators may archive', async () => {
    const id = await makeChannel(t.client(alice), fresh('keep'));
    for (const who of [bob, moderator, bot]) {
      const res = await t.client(who).delete(`/streams/${id}`);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'You do not have permission to administer this channel.' });
    }
    for (const who of [guest, stranger]) {
      const res = await as(who).delete(`/streams/${id}`);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    }
    expect((await channel(id)).isArchived).toBe(false);
    expect((await t.client(admin).delete(`/streams/${id}`)).status).toBe(200);
    const other = await makeChannel(t.client(alice), fresh('mine'));
    expect((await t.client(alice).delete(`/streams/${other}`)).status).toBe(200);
  });

  it('sends is_archived to clients with archived_channels and stream delete to the rest', async () => {
    const id = await makeChannel(t.client(alice), fresh('archive-ev'), { principals: [alice.userId, bob.userId] });
    const modern = await register(t.client(bob), { archived_channels: true });
    const legacy = await register(t.client(bob));
    expect((await t.client(alice).delete(`/streams/${id}`)).status).toBe(200);
    expect(await events(t.client(bob), modern)).toEqual([expect.objectContaining({ op: 'update', stream_id: id, property: 'is_archived', value: true })]);
    const old = await events(t.client(bob), legacy);
    expect(old).toEqual([expect.objectContaining({ op: 'delete', stream_ids: [id] })]);
    expect(old[0]).not.toHaveProperty('fallback');
  });

  it('an archived channel accepts no messages, leaves the default channels, and keeps its history readable', async () => {
    const name = fresh('history');
    const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    const messageId = await sendToChannel(t.client(alice), name, 'old news', 'before archiving');
    await t.client(admin).patch(`/streams/${id}`, { is_default_stream: true });
    expect((await t.client(alice).delete(`/streams/${id}`)).status).toBe(200);
    expect(await t.db.defaultChannel.count({ where: { channelId: id } })).toBe(0);
    const send = await t.client(alice).post('/messages', { type: 'channel', to: id, topic: 'new', content: 'after' });
    expect(send.status).toBe(400);
    const read = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: id }] });
    expect(read.status).toBe(200);
    expect(read.body.messages.map((m: { id: number }) => m.id)).toContain(messageId);
    // The notification bot says so in the channel, after it closed.
    expect(read.body.messages.at(-1)).toMatchObject({ subject: 'channel events', sender_email: 'notification-bot@zulip.com' });
    expect(read.body.messages.at(-1).content).toContain('has been archived.');
  });

  it('archives once when two requests race: one succeeds, one announcement', async () => {
    const name = fresh('race');
    const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    const results = await Promise.all([t.client(alice).delete(`/streams/${id}`), t.client(admin).delete(`/streams/${id}`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const read = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: id }] });
    expect(read.body.messages.filter((m: { content: string }) => m.content.includes('has been archived.'))).toHaveLength(1);
  });

  it('refuses to archive twice and to change an archived channel; is_archived=false unarchives', async () => {
    const id = await makeChannel(t.client(alice), fresh('revive'), { principals: [alice.userId, bob.userId] });
    expect((await t.client(alice).delete(`/streams/${id}`)).status).toBe(200);
    const again = await t.client(alice).delete(`/streams/${id}`);
    expect(again.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Channel is already archived.' });
    const edit = await t.client(alice).patch(`/streams/${id}`, { description: 'zombie' });
    expect(edit.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Channel is archived.' });
    expect((await channel(id)).description).toBe('');
    const unarchiveByMember = await t.client(bob).patch(`/streams/${id}`, { is_archived: false });
    expect(unarchiveByMember.body.msg).toBe('You do not have permission to administer this channel.');
    const modern = await register(t.client(bob), { archived_channels: true });
    const legacy = await register(t.client(bob));
    expect((await t.client(alice).patch(`/streams/${id}`, { is_archived: false })).status).toBe(200);
    expect((await channel(id)).isArchived).toBe(false);
    expect(await events(t.client(bob), modern)).toEqual([expect.objectContaining({ property: 'is_archived', value: false })]);
    const created = await events(t.client(bob), legacy);
    expect(created).toEqual([expect.objectContaining({ op: 'create' })]);
    expect(created[0].streams[0]).toMatchObject({ stream_id: id, is_archived: false });
    expect((await t.client(alice).post('/messages', { type: 'channel', to: id, topic: 'back', content: 'alive' })).status).toBe(200);
  });

  it('stops the organization announcing into an archived channel, telling everyone', async () => {
    const id = await makeChannel(t.client(alice), fresh('announce'));
    const realmId = (await channel(id)).realmId;
    await updateRealm(t, { new_stream_announcements_stream_id: id, signup_announcements_stream_id: id });
    const q = await register(t.client(bob));
    const reg = await t.client(bob).post('/register', { event_types: ['realm'], fetch_event_types: ['realm'] });
    expect(reg.body.realm_new_stream_announcements_stream_id).toBe(id);
    expect((await t.client(alice).delete(`/streams/${id}`)).status).toBe(200);
    const realmEvents = await events(t.client(bob), reg.body.queue_id, 'realm');
    expect(realmEvents.map((e) => [e.property, e.value])).toEqual([['new_stream_announcements_stream_id', -1], ['signup_announcements_stream_id', -1]]);
    const realm = await t.db.realm.findUniqueOrThrow({ where: { id: realmId } });
    expect([realm.newStreamAnnouncementsChannelId, realm.signupAnnouncementsChannelId]).toEqual([null, null]);
    expect(await events(t.client(bob), q, 'realm')).toEqual([]);
  });

  it('private-channel archiving reaches only those who may see the channel', async () => {
    const id = await makeChannel(t.client(alice), fresh('quiet'), { invite_only: true });
    const qBob = await register(t.client(bob), { archived_channels: true });
    const qAdmin = await register(t.client(admin), { archived_channels: true });
    expect((await t.client(alice).delete(`/streams/${id}`)).status).toBe(200);
    expect(await events(t.client(bob), qBob)).toEqual([]);
    expect((await events(t.client(admin), qAdmin)).map((e) => e.property)).toEqual(['is_archived']);
  });
});
