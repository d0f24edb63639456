import { describe, expect, it } from 'vitest';
import { makeBot, makeChannel, makeUser, sendDirect, type MadeUser, updateRealm } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const owner = t.ownerClient;
const { admin, moderator, member, guest } = useTeam(t, ['admin', 'moderator', 'member', 'guest']);
const bot = useBot(t, member, { fullName: 'Helper Bot' });

const register = async (client: ApiClient, eventTypes = ['realm_user', 'realm_bot', 'subscription', 'user_group', 'custom_profile_fields']) => (await registerQueue(client, { event_types: eventTypes, fetch_event_types: ['realm'] })).queue_id;

async function roleOf(userId: number): Promise<number> {
  return (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).role;
}

async function systemGroupsOf(userId: number): Promise<string[]> {
  const rows = await t.db.userGroupMember.findMany({ where: { userId, group: { isSystemGroup: true } }, select: { group: { select: { name: true } } } });
  return rows.map((r) => r.group.name!).sort();
}

/** Zulip's role requirements (OrganizationAdministratorRequiredError, ...) answer UNAUTHORIZED_PRINCIPAL. */
const roleCode = (msg: string) => (/^Must be an organization (administrator|owner)$/.test(msg) ? 'UNAUTHORIZED_PRINCIPAL' : 'BAD_REQUEST');

function expectError(res: { status: number; body: any }, msg: string, code = roleCode(msg)) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ result: 'error', msg, code });
}

describe('PATCH /users/{user_id}: who may', () => {
  it.each([
    ['a moderator', () => moderator],
    ['a member', () => member],
    ['a guest', () => guest],
    ['a bot, even its owner\'s bot', () => bot],
  ])('refuses %s', async (_label, who) => {
    const target = await makeUser(t, { fullName: 'Target Person' });
    const res = await t.client(who()).patch(`/users/${target.userId}`, { full_name: 'Changed Name' });
    expectError(res, 'Must be an organization administrator');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: target.userId } })).fullName).toBe('Target Person');
  });

  it('reports unknown users and users of other organizations as "No such user"', async () => {
    expectError(await t.client(admin).patch('/users/999999', { full_name: 'X' }), 'No such user');
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    const { owner: other } = await createRealm(t.db, { stringId: 'elsewhere', name: 'Elsewhere', ownerEmail: 'x@elsewhere.example.com', ownerPassword: 'pw-elsewhere' });
    expectError(await owner.patch(`/users/${other.id}`, { role: 400 }), 'No such user');
    expect(await roleOf(other.id)).toBe(100);
  });
});

describe('PATCH /users/{user_id}: full_name', () => {
  it('renames the user and tells everyone who can see them', async () => {
    const target = await makeUser(t, { fullName: 'Old Name' });
    const queue = await register(t.client(member));
    const res = await t.client(admin).patch(`/users/${target.userId}`, { full_name: '  New Name ' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(member).get(`/users/${target.userId}`)).body.user.full_name).toBe('New Name');
    const events = await allEvents(t.client(member), queue);
    expect(events).toEqual([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: target.userId, full_name: 'New Name' } })]);
  });

  it('validates the name as account creation does, writing nothing', async () => {
    const target = await makeUser(t, { fullName: 'Kept Name' });
    expectError(await owner.patch(`/users/${target.userId}`, { full_name: '   ' }), 'Name too short!');
    expectError(await owner.patch(`/users/${target.userId}`, { full_name: 'x'.repeat(101) }), 'Name too long!');
    expectError(await owner.patch(`/users/${target.userId}`, { full_name: 'a*b' }), 'Invalid characters in name!');
    // A valid role beside an invalid name is not applied either.
    expectError(await owner.patch(`/users/${target.userId}`, { full_name: '', role: 300 }), 'Name too short!');
    const row = await t.db.user.findUniqueOrThrow({ where: { id: target.userId } });
    expect([row.fullName, row.role]).toEqual(['Kept Name', 400]);
  });
});

describe('PATCH /users/{user_id}: role', () => {
  it('lets administrators move users between moderator, member and guest, keeping system groups in step', async () => {
    const target = await makeUser(t, { fullName: 'Role Changer' });
    expect(await systemGroupsOf(target.userId)).toEqual(['role:fullmembers', 'role:members']);
    const queue = await register(t.client(member));
    expect((await t.client(admin).patch(`/users/${target.userId}`, { role: 300 })).status).toBe(200);
    expect(await roleOf(target.userId)).toBe(300);
    expect(await systemGroupsOf(target.userId)).toEqual(['role:moderators']);
    const events = await allEvents(t.client(member), queue);
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: target.userId, role: 300 } }));
    const groups = await t.db.userGroup.findMany({ where: { isSystemGroup: true, realmId: (await t.db.user.findUniqueOrThrow({ where: { id: target.userId } })).realmId } });
    const id = (name: string) => groups.find((g) => g.name === name)!.id;
    expect(events).toContainEqual(expect.objectContaining({ type: 'user_group', op: 'remove_members', group_id: id('role:members'), user_ids: [target.userId] }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'user_group', op: 'add_members', group_id: id('role:moderators'), user_ids: [target.userId] }));

    expect((await t.client(admin).patch(`/users/${target.userId}`, { role: 600 })).status).toBe(200);
    expect(await systemGroupsOf(target.userId)).toEqual(['role:everyone']);
    expect((await t.client(admin).patch(`/users/${target.userId}`, { role: 400 })).status).toBe(200);
    expect(await systemGroupsOf(target.userId)).toEqual(['role:fullmembers', 'role:members']);
  });

  it('lets administrators make administrators, whose new powers work at once', async () => {
    const target = await makeUser(t, { fullName: 'Future Admin' });
    const other = await makeUser(t, { fullName: 'Someone Else' });
    expectError(await t.client(target).patch(`/users/${other.userId}`, { role: 300 }), 'Must be an organization administrator');
    expect((await t.client(admin).patch(`/users/${target.userId}`, { role: 200 })).status).toBe(200);
    expect((await t.client(target).patch(`/users/${other.userId}`, { role: 300 })).status).toBe(200);
    expect(await roleOf(other.userId)).toBe(300);
    expect((await t.client(target).get('/users/me')).body.is_admin).toBe(true);
  });

  it('refuses administrators who grant or remove the owner role', async () => {
    const target = await makeUser(t, { fullName: 'Not Yet Owner' });
    expectError(await t.client(admin).patch(`/users/${target.userId}`, { role: 100 }), 'Must be an organization owner');
    expect(await roleOf(target.userId)).toBe(400);
    expectError(await t.client(admin).patch(`/users/${t.owner.userId}`, { role: 200 }), 'Must be an organization owner');
    expect(await roleOf(t.owner.userId)).toBe(100);
  });

  it('lets owners grant and remove the owner role', async () => {
    const target = await makeUser(t, { fullName: 'Second Owner' });
    expect((await owner.patch(`/users/${target.userId}`, { role: 100 })).status).toBe(200);
    expect(await systemGroupsOf(target.userId)).toEqual(['role:owners']);
    // The new owner may demote the original one, and then be demoted back.
    expect((await t.client(target).patch(`/users/${t.owner.userId}`, { role: 200 })).status).toBe(200);
    expect(await roleOf(t.owner.userId)).toBe(200);
    expect((await t.client(target).patch(`/users/${t.owner.userId}`, { role: 100 })).status).toBe(200);
    expect((await owner.patch(`/users/${target.userId}`, { role: 400 })).status).toBe(200);
    expect(await roleOf(target.userId)).toBe(400);
  });

  it('keeps the owner role on the only owner', async () => {
    expectError(await owner.patch(`/users/${t.owner.userId}`, { role: 200 }), 'The owner permission cannot be removed from the only organization owner.');
    expect(await roleOf(t.owner.userId)).toBe(100);
    // Setting the role it already has is not a change.
    expect((await owner.patch(`/users/${t.owner.userId}`, { role: 100 })).status).toBe(200);
  });

  it('leaves one owner when two owners demote each other at once', async () => {
    const second = await makeUser(t, { fullName: 'Racing Owner', role: 100 });
    const results = await Promise.all([
      owner.patch(`/users/${second.userId}`, { role: 400 }),
      t.client(second).patch(`/users/${t.owner.userId}`, { role: 400 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const owners = await t.db.user.count({ where: { role: 100, isActive: true, id: { in: [t.owner.userId, second.userId] } } });
    expect(owners).toBe(1);
    if (await roleOf(t.owner.userId) !== 100) {
      expect((await t.client(second).patch(`/users/${t.owner.userId}`, { role: 100 })).status).toBe(200);
      expect((await owner.patch(`/users/${second.userId}`, { role: 400 })).status).toBe(200);
    }
  });

  it('tells the user which channels they gain or lose with the new role', async () => {
    const target = await makeUser(t, { fullName: 'Shifting Access' });
    const lobby = await makeChannel(t.client(admin), 'role-lobby');
    const secret = await makeChannel(t.client(admin), 'role-secret', { invite_only: true });
    const streamEvents = async (queue: string) => (await allEvents(t.client(target), queue)).filter((e) => e.type === 'stream');

    let queue = await register(t.client(target), ['stream']);
    expect((await owner.patch(`/users/${target.userId}`, { role: 600 })).status).toBe(200);
    let events = await streamEvents(queue);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ op: 'delete', stream_ids: expect.arrayContaining([lobby]) });
    expect(events[0]!.stream_ids).not.toContain(secret);

    queue = await register(t.client(target), ['stream']);
    expect((await owner.patch(`/users/${target.userId}`, { role: 400 })).status).toBe(200);
    events = await streamEvents(queue);
    expect(events).toHaveLength(1);
    expect(events[0]!.op).toBe('create');
    expect(events[0]!.streams.map((c: any) => c.stream_id)).toContain(lobby);

    queue = await register(t.client(target), ['stream']);
    expect((await owner.patch(`/users/${target.userId}`, { role: 200 })).status).toBe(200);
    events = await streamEvents(queue);
    expect(events).toEqual([expect.objectContaining({ op: 'create', streams: [expect.objectContaining({ stream_id: secret, name: 'role-secret' })] })]);

    queue = await register(t.client(target), ['stream']);
    expect((await owner.patch(`/users/${target.userId}`, { role: 300 })).status).toBe(200);
    expect(await streamEvents(queue)).toEqual([expect.objectContaining({ op: 'delete', stream_ids: [secret] })]);
  });

  it('refuses making a guest an administrator directly', async () => {
    const target = await makeUser(t, { fullName: 'Guest To Admin', role: 600 });
    expectError(await owner.patch(`/users/${target.userId}`, { role: 200 }), 'Guests cannot be organization administrators');
    expectError(await owner.patch(`/users/${target.userId}`, { role: 100 }), 'Guests cannot be organization administrators');
    expect(await roleOf(target.userId)).toBe(600);
    expect((await owner.patch(`/users/${target.userId}`, { role: 400 })).status).toBe(200);
    expect((await owner.patch(`/users/${target.userId}`, { role: 200 })).status).toBe(200);
  });

  it('refuses unknown role codes', async () => {
    const target = await makeUser(t);
    expectError(await owner.patch(`/users/${target.userId}`, { role: 250 }), 'Invalid role');
    expect((await owner.patch(`/users/${target.userId}`, { role: 'admin' })).body.msg).toBe('role is not an integer');
    expect(await roleOf(target.userId)).toBe(400);
  });

  it('changes a bot\'s role too', async () => {
    const someBot = await makeBot(t, admin, { fullName: 'Role Bot' });
    expect((await t.client(admin).patch(`/users/${someBot.userId}`, { role: 300 })).status).toBe(200);
    expect(await roleOf(someBot.userId)).toBe(300);
  });
});

describe('PATCH /users/{user_id}: new_email', () => {
  it('needs an owner with the can_change_user_emails permission', async () => {
    const target = await makeUser(t, { fullName: 'Email Changer' });
    expectError(await t.client(admin).patch(`/users/${target.userId}`, { new_email: 'changed@example.com' }), 'User not authorized to change user emails');
    expectError(await owner.patch(`/users/${target.userId}`, { new_email: 'changed@example.com' }), 'User not authorized to change user emails');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: target.userId } })).deliveryEmail).toBe(target.email);
  });

  it('changes the address, which then logs in, and tells everyone', async () => {
    // Written directly: can_change_user_emails is a server administrator's grant (Zulip's manage.py), not in the API.
    await t.db.user.update({ where: { id: t.owner.userId }, data: { canChangeUserEmails: true } });
    try {
      const target = await makeUser(t, { fullName: 'Email Mover' });
      const queue = await register(t.client(member));
      expectError(await owner.patch(`/users/${target.userId}`, { new_email: 'not an email' }), 'Invalid address: not an email');
      expectError(await owner.patch(`/users/${target.userId}`, { new_email: member.email.toUpperCase() }), `Email '${member.email.toUpperCase()}' already in use`);
      expect((await owner.patch(`/users/${target.userId}`, { new_email: 'moved@example.com' })).status).toBe(200);
      const row = await t.db.user.findUniqueOrThrow({ where: { id: target.userId } });
      expect([row.email, row.deliveryEmail]).toEqual(['moved@example.com', 'moved@example.com']);
      const key = await t.client().post('/fetch_api_key', { username: 'moved@example.com', password: 'pw-' + target.email });
      expect(key.body.user_id).toBe(target.userId);
      const events = await allEvents(t.client(member), queue);
      expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: target.userId, new_email: 'moved@example.com' } }));
      expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: target.userId, delivery_email: 'moved@example.com' } }));
    } finally {
      await t.db.user.update({ where: { id: t.owner.userId }, data: { canChangeUserEmails: false } });
    }
  });
});

describe('DELETE /users/{user_id}', () => {
  it.each([
    ['a moderator', () => moderator],
    ['a member', () => member],
    ['a guest', () => guest],
    ['a bot', () => bot],
  ])('refuses %s', async (_label, who) => {
    const target = await makeUser(t);
    expectError(await t.client(who()).delete(`/users/${target.userId}`), 'Must be an organization administrator');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: target.userId } })).isActive).toBe(true);
  });

  it('deactivates: the API key stops working, subscriber lists drop the user, peers and viewers hear of it', async () => {
    const target = await makeUser(t, { fullName: 'Leaving Soon' });
    const channelId = await makeChannel(t.client(member), 'farewell', { principals: [member.userId, target.userId] });
    const targetBot = await makeBot(t, target, { fullName: 'Leaving Bot' });
    const queue = await register(t.client(member));
    const targetQueue = await register(t.client(target));
    const adminQueue = await register(t.client(admin), ['realm_bot']);

    const res = await t.client(admin).delete(`/users/${target.userId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const refused = await t.client(target).get('/users/me');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
    // Their bots go with them.
    expect((await t.client(targetBot).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
    // Their event queues are gone.
    await expect(Promise.resolve().then(() => t.server.queues.get(targetQueue, target.userId))).rejects.toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });

    const subs = await t.client(member).get('/users/me/subscriptions', { include_subscribers: 'true' });
    expect(subs.body.subscriptions.find((s: any) => s.stream_id === channelId).subscribers).toEqual([member.userId]);
    const user = await t.client(member).get(`/users/${target.userId}`);
    expect(user.body.user.is_active).toBe(false);

    const events = await allEvents(t.client(member), queue);
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: target.userId, is_active: false } }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'subscription', op: 'peer_remove', stream_ids: expect.arrayContaining([channelId]), user_ids: [target.userId] }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: targetBot.userId, is_active: false } }));
    // The bot's administrators hear of it on realm_bot too; the target's peers do not.
    expect(events.filter((e) => e.type === 'realm_bot')).toEqual([]);
    const adminEvents = await allEvents(t.client(admin), adminQueue);
    expect(adminEvents).toContainEqual(expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: targetBot.userId, is_active: false } }));

    // System groups no longer list them (deactivated users are never direct members on the wire).
    const state = await t.client(member).post('/register', { fetch_event_types: ['realm_user_groups', 'realm_user'] });
    const members = state.body.realm_user_groups.find((g: any) => g.name === 'role:members');
    expect(members.members).not.toContain(target.userId);
    expect(state.body.realm_users.map((u: any) => u.user_id)).not.toContain(target.userId);
    expect(state.body.realm_non_active_users.map((u: any) => u.user_id)).toContain(target.userId);
  });

  it('tells subscriber-list holders first: everyone but guests for public channels, subscribers and administrators for private ones', async () => {
    const target = await makeUser(t, { fullName: 'Peer Target' });
    const outsider = await makeUser(t, { fullName: 'Not Subscribed' });
    const publicId = await makeChannel(t.client(member), 'open-room', { principals: [member.userId, target.userId] });
    const privateId = await makeChannel(t.client(member), 'closed-room', { principals: [member.userId, target.userId], invite_only: true });
    const queues = new Map<MadeUser, string>();
    for (const who of [member, outsider, guest, admin]) queues.set(who, await register(t.client(who)));

    expect((await owner.delete(`/users/${target.userId}`)).status).toBe(200);

    const channelsHeard = async (who: MadeUser) => {
      const events = await allEvents(t.client(who), queues.get(who)!);
      const peer = events.filter((e) => e.type === 'subscription' && e.op === 'peer_remove' && e.user_ids.includes(target.userId));
      const update = events.findIndex((e) => e.type === 'realm_user' && e.person.user_id === target.userId);
      if (peer.length) expect(events.indexOf(peer.at(-1)!)).toBeLessThan(update);
      return peer.flatMap((e) => e.stream_ids as number[]);
    };
    expect(await channelsHeard(member)).toEqual(expect.arrayContaining([publicId, privateId]));
    const outsiderHeard = await channelsHeard(outsider);
    expect(outsiderHeard).toContain(publicId);
    expect(outsiderHeard).not.toContain(privateId);
    expect(await channelsHeard(admin)).toEqual(expect.arrayContaining([publicId, privateId]));
    const guestHeard = await channelsHeard(guest);
    expect(guestHeard).not.toContain(publicId);
    expect(guestHeard).not.toContain(privateId);
  });

  it('drops the user from group-setting values and from the permissions they granted, until reactivated', async () => {
    const target = await makeUser(t, { fullName: 'Channel Maker' });
    const realm = await t.db.realm.findFirstOrThrow({ where: { users: { some: { id: target.userId } } } });
    const previous = realm.canCreatePublicChannelGroupId;
    await updateRealm(t, { can_create_public_channel_group: { new: { direct_members: [target.userId, member.userId], direct_subgroups: [] } } });
    try {
      const setting = async () => (await t.client(admin).post('/register', { fetch_event_types: ['realm'] })).body.realm_can_create_public_channel_group;
      expect((await setting()).direct_members).toEqual([target.userId, member.userId].sort((a, b) => a - b));
      expect((await owner.delete(`/users/${target.userId}`)).status).toBe(200);
      expect((await setting()).direct_members).toEqual([member.userId]);
      // The membership row is kept, so reactivation restores it.
      expect((await owner.post(`/users/${target.userId}/reactivate`)).status).toBe(200);
      expect((await setting()).direct_members).toContain(target.userId);
      expect((await t.client(target).post('/register', { fetch_event_types: ['realm_user'] })).body.can_create_public_streams).toBe(true);
    } finally {
      await updateRealm(t, { can_create_public_channel_group: { new: previous } });
    }
  });

  it('tells the realm the user left each named group they were in (feature level 303)', async () => {
    const target = await makeUser(t, { fullName: 'Group Leaver' });
    const queue = await register(t.client(member));
    expect((await owner.delete(`/users/${target.userId}`)).status).toBe(200);
    const events = await allEvents(t.client(member), queue);
    const removed = events.filter((e: any) => e.type === 'user_group' && e.op === 'remove_members');
    expect(removed).toContainEqual(expect.objectContaining({ user_ids: [target.userId] }));
    const state = await t.client(member).post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(state.body.realm_user_groups.find((g: any) => g.name === 'role:members').members).not.toContain(target.userId);
  });

  it('tells guests who saw the user only through a shared channel that they lost access', async () => {
    const target = await makeUser(t, { fullName: 'Seen By Guests' });
    const byChannel = await makeUser(t, { fullName: 'Channel Guest', role: 600 });
    const byMessage = await makeUser(t, { fullName: 'Message Guest', role: 600 });
    const stranger = await makeUser(t, { fullName: 'Stranger Guest', role: 600 });
    await makeChannel(t.client(admin), 'guest-room', { principals: [target.userId, byChannel.userId] });
    await sendDirect(t.client(target), [byMessage.userId], 'hello');
    // Out of the default channel, which every guest here shares.
    expect((await t.client(target).delete('/users/me/subscriptions', { subscriptions: ['general'] })).status).toBe(200);
    const realm = await t.db.realm.findFirstOrThrow({ where: { users: { some: { id: target.userId } } } });
    const membersGroup = await t.db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: 'role:members' } });
    await updateRealm(t, { can_access_all_users_group: { new: membersGroup.id } });
    try {
      const queues = new Map<MadeUser, string>();
      for (const who of [byChannel, byMessage, stranger]) queues.set(who, await register(t.client(who)));
      expect((await owner.delete(`/users/${target.userId}`)).status).toBe(200);
      const about = async (who: MadeUser) => (await allEvents(t.client(who), queues.get(who)!)).filter((e) => e.type === 'realm_user' && e.person.user_id === target.userId);
      expect(await about(byChannel)).toEqual([expect.objectContaining({ op: 'remove', person: { user_id: target.userId, full_name: 'Unknown user' } })]);
      expect(await about(byMessage)).toEqual([expect.objectContaining({ op: 'update', person: { user_id: target.userId, is_active: false } })]);
      expect(await about(stranger)).toEqual([]);
    } finally {
      await updateRealm(t, { can_access_all_users_group: { new: realm.canAccessAllUsersGroupId } });
    }
  });

  it('refuses a user already deactivated, a bot and an unknown user', async () => {
    const target = await makeUser(t);
    expect((await owner.delete(`/users/${target.userId}`)).status).toBe(200);
    expectError(await owner.delete(`/users/${target.userId}`), 'User is deactivated');
    expectError(await owner.delete(`/users/${bot.userId}`), 'No such user');
    expectError(await owner.delete('/users/999999'), 'No such user');
  });

  it('lets only owners deactivate owners, and never the only owner', async () => {
    expectError(await t.client(admin).delete(`/users/${t.owner.userId}`), 'Must be an organization owner');
    expectError(await owner.delete(`/users/${t.owner.userId}`), 'Cannot deactivate the only organization owner');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: t.owner.userId } })).isActive).toBe(true);
    const second = await makeUser(t, { fullName: 'Another Owner', role: 100 });
    expectError(await t.client(admin).delete(`/users/${second.userId}`), 'Must be an organization owner');
    expect((await owner.delete(`/users/${second.userId}`)).status).toBe(200);
  });
});

describe('DELETE /users/me', () => {
  it('deactivates the caller', async () => {
    const target = await makeUser(t);
    expect((await t.client(target).delete('/users/me')).status).toBe(200);
    expect((await t.client(target).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
  });

  it('refuses the only owner', async () => {
    const res = await owner.delete('/users/me');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'CANNOT_DEACTIVATE_LAST_USER', msg: 'Cannot deactivate the only organization owner', entity: 'organization owner', is_last_owner: true });
    expect((await owner.get('/users/me')).status).toBe(200);
  });

  it('refuses the only user of an organization', async () => {
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    const { owner: lone } = await createRealm(t.db, { stringId: 'lonely', name: 'Lonely', ownerEmail: 'lone@lonely.example.com', ownerPassword: 'pw-lonely' });
    const res = await t.client({ email: lone.email, apiKey: lone.apiKey, userId: lone.id }, 'lonely.localhost').delete('/users/me');
    expect(res.body).toMatchObject({ code: 'CANNOT_DEACTIVATE_LAST_USER', entity: 'user', is_last_owner: false });
  });
});

describe('POST /users/{user_id}/reactivate', () => {
  it('restores the account, its subscriptions and its groups, and tells peers', async () => {
    const target = await makeUser(t, { fullName: 'Coming Back' });
    const channelId = await makeChannel(t.client(member), 'return', { principals: [member.userId, target.userId] });
    expect((await owner.delete(`/users/${target.userId}`)).status).toBe(200);
    const queue = await register(t.client(member));

    expectError(await t.client(moderator).post(`/users/${target.userId}/reactivate`), 'Must be an organization administrator');
    expect((await t.client(admin).post(`/users/${target.userId}/reactivate`)).status).toBe(200);

    expect((await t.client(target).get('/users/me')).status).toBe(200);
    const subs = await t.client(member).get('/users/me/subscriptions', { include_subscribers: 'true' });
    expect(subs.body.subscriptions.find((s: any) => s.stream_id === channelId).subscribers).toEqual([member.userId, target.userId].sort((a, b) => a - b));
    const events = await allEvents(t.client(member), queue);
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: target.userId, is_active: true } }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'subscription', op: 'peer_add', stream_ids: expect.arrayContaining([channelId]), user_ids: [target.userId] }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'user_group', op: 'add_members', user_ids: [target.userId] }));
    const state = await t.client(member).post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(state.body.realm_user_groups.find((g: any) => g.name === 'role:members').members).toContain(target.userId);
  });

  it('refuses an active user and an unknown user', async () => {
    expectError(await owner.post(`/users/${member.userId}/reactivate`), 'User is already active');
    expectError(await owner.post('/users/999999/reactivate'), 'No such user');
  });
});
