import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, deactivate, updateRealm, updateChannel } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { createRealm } from '../../resolvers/realm/create.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

let stranger: Credentials; // owner of another organization
let sys: Record<string, number>;
const t = useTestServer();
const owner = t.ownerClient;
const { admin, moderator, alice, bob, carol, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'carol', 'guest']);
const bot = useBot(t, () => t.owner, { fullName: 'helper bot' });

const OTHER_HOST = 'other.localhost';

function db() {
  return t.db;
}

let counter = 0;
/** Creates a group as `creator` (default alice) and returns its ID. */
async function createGroup(creator: Credentials, params: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  const res = await t.client(creator).post('/user_groups/create', { name: `group ${counter}`, description: 'a group', members: [], ...params });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.group_id;
}

async function groupById(id: number, client: ApiClient = owner): Promise<any> {
  const res = await client.get('/user_groups', { include_deactivated_groups: true });
  expect(res.status).toBe(200);
  return res.body.user_groups.find((g: any) => g.id === id);
}

function expectError(res: { status: number; body: any }, msg: string, code = 'BAD_REQUEST', status = 400) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'error', msg, code });
  expect(res.status).toBe(status);
}

async function groupCount(): Promise<number> {
  return db().userGroup.count();
}

const register = (client: ApiClient, capabilities: Record<string, boolean> = {}) => registerQueue<{ realm_user_groups: any[] }>(client, { event_types: ['user_group'], fetch_event_types: ['realm_user_groups'], client_capabilities: capabilities });

beforeAll(async () => {
  const other = await createRealm(db(), { stringId: 'other', name: 'Other', ownerEmail: 'boss@other.example.com', ownerPassword: 'boss password 123' });
  stranger = { email: other.owner.email, apiKey: other.owner.apiKey, userId: other.owner.id };
  // Direct database work can outlast the server's keep-alive timeout: a socket the server has
  // closed meanwhile would reset the next request, so start afresh.
  http.globalAgent.destroy();
  const groups = (await owner.get('/user_groups')).body.user_groups;
  sys = Object.fromEntries(groups.filter((g: any) => g.is_system_group).map((g: any) => [g.name, g.id]));
}, 180_000); // many users to set up; generous when the machine is busy

describe('POST /user_groups/create', () => {
  it('creates a group with Zulip\'s defaults: the creator manages it and adds members, everyone may leave and mention', async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const res = await t.client(alice).post('/user_groups/create', { name: 'backend', description: 'Backend team', members: [alice.userId, bob.userId] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const group = await groupById(res.body.group_id);
    expect(group).toEqual({
      id: res.body.group_id, name: 'backend', description: 'Backend team', creator_id: alice.userId,
      date_created: expect.any(Number), members: [alice.userId, bob.userId], direct_subgroup_ids: [],
      is_system_group: false, deactivated: false,
      can_add_members_group: { direct_members: [alice.userId], direct_subgroups: [] },
      can_manage_group: { direct_members: [alice.userId], direct_subgroups: [] },
      can_join_group: sys['role:nobody'], can_leave_group: sys['role:everyone'],
      can_mention_group: sys['role:everyone'], can_remove_members_group: sys['role:nobody'],
    });
    expect(group.date_created).toBeGreaterThanOrEqual(before);
  });

  it('takes subgroups and every permission setting, as group IDs or explicit sets', async () => {
    const sub = await createGroup(alice);
    const id = await createGroup(alice, {
      subgroups: [sub],
      can_add_members_group: sys['role:moderators'],
      can_join_group: sys['role:members'],
      can_leave_group: { direct_members: [bob.userId], direct_subgroups: [sub] },
      can_manage_group: { direct_members: [], direct_subgroups: [sys['role:administrators']] },
      can_mention_group: sys['role:nobody'],
      can_remove_members_group: { direct_members: [], direct_subgroups: [] },
    });
    const group = await groupById(id);
    expect(group).toMatchObject({
      direct_subgroup_ids: [sub],
      can_add_members_group: sys['role:moderators'],
      can_join_group: sys['role:members'],
      can_leave_group: { direct_members: [bob.userId], direct_subgroups: [sub] },
      can_manage_group: sys['role:administrators'],
      can_mention_group: sys['role:nobody'],
      can_remove_members_group: sys['role:nobody'],
    });
  });

  it('accepts JSON bodies', async () => {
    // Zulip clients JSON-encode lists and objects even inside a JSON body.
    const res = await t.client(alice).post('/user_groups/create', { name: 'json made', description: '', members: JSON.stringify([bob.userId]), can_manage_group: sys['role:moderators'] }, 'json');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await groupById(res.body.group_id)).toMatchObject({ members: [bob.userId], can_manage_group: sys['role:moderators'] });
  });

  it('accepts real JSON lists inside a JSON body', async () => {
    const res = await t.client(alice).post('/user_groups/create', { name: 'json list', description: '', members: [bob.userId, alice.userId] }, 'json');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await groupById(res.body.group_id)).members).toEqual([alice.userId, bob.userId].sort((a, b) => a - b));
  });

  it.each([
    ['', "User group name can't be empty!"],
    ['   ', "User group name can't be empty!"],
    ['x'.repeat(101), 'User group name cannot exceed 100 characters.'],
    ['role:hackers', "User group name cannot start with 'role:'."],
    ['@everyone', "User group name cannot start with '@'."],
    ['channel:x', "User group name cannot start with 'channel:'."],
    ['backend', "User group 'backend' already exists."],
    ['role:members', "User group name cannot start with 'role:'."],
  ])('refuses the name %j and writes nothing', async (name, msg) => {
    const before = await groupCount();
    expectError(await t.client(alice).post('/user_groups/create', { name, description: '', members: [alice.userId] }), msg);
    expect(await groupCount()).toBe(before);
  });

  it('allows a 100-character name', async () => {
    await createGroup(alice, { name: 'y'.repeat(100) });
  });

  it('refuses unknown, deactivated and other organizations\' users as members', async () => {
    const gone = await makeUser(t, { fullName: 'Gone Away' });
    await deactivate(t, gone.userId);
    const before = await groupCount();
    for (const id of [999999, gone.userId, stranger.userId]) {
      expectError(await t.client(alice).post('/user_groups/create', { name: 'bad members', description: '', members: [alice.userId, id] }), `Invalid user ID: ${id}`);
    }
    expect(await groupCount()).toBe(before);
  });

  it('refuses unknown, anonymous and deactivated subgroups', async () => {
    const anonymous = (await db().userGroup.findFirstOrThrow({ where: { name: null } })).id;
    for (const id of [999999, anonymous]) {
      expectError(await t.client(alice).post('/user_groups/create', { name: 'bad subgroups', description: '', members: [], subgroups: [id] }), `Invalid user group ID: ${id}`);
    }
    const old = await createGroup(alice);
    expect((await t.client(alice).post(`/user_groups/${old}/deactivate`)).status).toBe(200);
    const before = await groupCount();
    expectError(await t.client(alice).post('/user_groups/create', { name: 'bad subgroups', description: '', members: [], subgroups: [old] }), 'User group is deactivated.');
    expect(await groupCount()).toBe(before);
  });

  it('applies each setting\'s rules about system groups', async () => {
    const cases: [string, string][] = [
      ['can_manage_group', 'role:everyone'], ['can_manage_group', 'role:internet'],
      ['can_mention_group', 'role:internet'], ['can_mention_group', 'role:owners'],
      ['can_add_members_group', 'role:everyone'], ['can_join_group', 'role:internet'],
    ];
    for (const [setting, name] of cases) {
      expectError(await t.client(alice).post('/user_groups/create', { name: 'bad setting', description: '', members: [], [setting]: sys[name] }),
        `'${setting}' setting cannot be set to '${name}' group.`);
    }
    expectError(await t.client(alice).post('/user_groups/create', { name: 'bad setting', description: '', members: [], can_manage_group: 999999 }), 'Invalid user group');
    expectError(await t.client(alice).post('/user_groups/create', { name: 'bad setting', description: '', members: [], can_manage_group: { direct_members: [999999], direct_subgroups: [] } }), 'Invalid user ID: 999999');
    expect(await db().userGroup.count({ where: { name: 'bad setting' } })).toBe(0);
  });

  it('needs name, description and members', async () => {
    expectError(await t.client(alice).post('/user_groups/create', { description: '', members: [] }), "Missing 'name' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await t.client(alice).post('/user_groups/create', { name: 'n', members: [] }), "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await t.client(alice).post('/user_groups/create', { name: 'n', description: '' }), "Missing 'members' argument", 'REQUEST_VARIABLE_MISSING');
  });

  it('is decided by the organization\'s can_create_groups: members by default, never guests', async () => {
    expectError(await t.client(guest).post('/user_groups/create', { name: 'guests', description: '', members: [] }), 'Insufficient permission');
    await createGroup(bot);
    await createGroup(moderator);
    const realm = await db().realm.findFirstOrThrow({ where: { stringId: '' } });
    await updateRealm(t, { can_create_groups: { new: sys['role:moderators'] } });
    try {
      expectError(await t.client(alice).post('/user_groups/create', { name: 'not allowed', description: '', members: [] }), 'Insufficient permission');
      expectError(await t.client(bot).post('/user_groups/create', { name: 'not allowed', description: '', members: [] }), 'Insufficient permission');
      await createGroup(moderator);
      await createGroup(admin);
    } finally {
      await updateRealm(t, { can_create_groups: { new: realm.canCreateGroupsGroupId } });
    }
    expect(await db().userGroup.count({ where: { name: 'not allowed' } })).toBe(0);
  });
});

describe('GET /user_groups', () => {
  it('lists named groups with system groups, never the anonymous groups behind settings', async () => {
    const res = await t.client(bob).get('/user_groups');
    expect(res.status).toBe(200);
    const names = res.body.user_groups.map((g: any) => g.name);
    expect(names).toEqual(expect.arrayContaining(['role:owners', 'role:everyone', 'role:nobody', 'backend']));
    expect(names).not.toContain(null);
    const owners = res.body.user_groups.find((g: any) => g.name === 'role:owners');
    expect(owners).toMatchObject({ is_system_group: true, members: [t.owner.userId], can_manage_group: sys['role:nobody'] });
  });

  it('leaves deactivated groups out unless include_deactivated_groups', async () => {
    const id = await createGroup(alice);
    await t.client(alice).post(`/user_groups/${id}/deactivate`);
    expect((await t.client(bob).get('/user_groups')).body.user_groups.some((g: any) => g.id === id)).toBe(false);
    const all = await t.client(bob).get('/user_groups', { include_deactivated_groups: true });
    expect(all.body.user_groups.find((g: any) => g.id === id)).toMatchObject({ deactivated: true });
  });

  it('never lists deactivated users as members', async () => {
    const leaving = await makeUser(t, { fullName: 'Leaving Soon' });
    const id = await createGroup(alice, { members: [alice.userId, leaving.userId], can_leave_group: { direct_members: [leaving.userId], direct_subgroups: [] } });
    await deactivate(t, leaving.userId);
    const group = await groupById(id);
    expect(group.members).toEqual([alice.userId]);
    expect(group.can_leave_group).toEqual({ direct_members: [], direct_subgroups: [] });
    expect((await t.client(bob).get(`/user_groups/${id}/members`)).body.members).toEqual([alice.userId]);
  });

  it('refuses guests', async () => {
    expectError(await t.client(guest).get('/user_groups'), 'Not allowed for guest users');
  });
});

describe('GET /user_groups/{id}/members, /members/{user_id}, /subgroups', () => {
  let top: number;
  let middle: number;
  let bottom: number;
  beforeAll(async () => {
    bottom = await createGroup(alice, { members: [carol.userId] });
    middle = await createGroup(alice, { members: [bob.userId], subgroups: [bottom] });
    top = await createGroup(alice, { members: [alice.userId], subgroups: [middle] });
  });

  it('lists members through subgroups, or direct members only', async () => {
    const all = await t.client(bob).get(`/user_groups/${top}/members`);
    expect(all.status).toBe(200);
    expect(all.body.members).toEqual([alice.userId, bob.userId, carol.userId].sort((a, b) => a - b));
    expect((await t.client(bob).get(`/user_groups/${top}/members`, { direct_member_only: true })).body.members).toEqual([alice.userId]);
  });

  it('answers membership through subgroups, or direct only', async () => {
    const check = async (userId: number, direct: boolean) =>
      (await t.client(bob).get(`/user_groups/${top}/members/${userId}`, { direct_member_only: direct })).body.is_user_group_member;
    expect(await check(carol.userId, false)).toBe(true);
    expect(await check(carol.userId, true)).toBe(false);
    expect(await check(alice.userId, true)).toBe(true);
    expect(await check(moderator.userId, false)).toBe(false);
    expectError(await t.client(bob).get(`/user_groups/${top}/members/999999`), 'No such user');
    expectError(await t.client(bob).get(`/user_groups/${top}/members/${stranger.userId}`), 'No such user');
  });

  it('lists subgroups at any depth, or direct ones only', async () => {
    expect((await t.client(bob).get(`/user_groups/${top}/subgroups`)).body.subgroups).toEqual([middle, bottom].sort((a, b) => a - b));
    expect((await t.client(bob).get(`/user_groups/${top}/subgroups`, { direct_subgroup_only: true })).body.subgroups).toEqual([middle]);
    const expected = ['role:fullmembers', 'role:moderators', 'role:administrators', 'role:owners'].map((name) => sys[name]!);
    expect((await t.client(bob).get(`/user_groups/${sys['role:members']}/subgroups`)).body.subgroups).toEqual(expected.sort((a, b) => a - b));
  });

  it('refuses unknown groups, other organizations\' groups, anonymous groups and guests', async () => {
    const theirs = (await t.client(stranger, OTHER_HOST).get('/user_groups')).body.user_groups[0].id;
    const anonymous = (await db().userGroup.findFirstOrThrow({ where: { name: null } })).id;
    for (const id of [999999, theirs, anonymous]) {
      expectError(await t.client(bob).get(`/user_groups/${id}/members`), 'Invalid user group');
      expectError(await t.client(bob).get(`/user_groups/${id}/subgroups`), 'Invalid user group');
      expectError(await t.client(bob).get(`/user_groups/${id}/members/${bob.userId}`), 'Invalid user group');
    }
    expectError(await t.client(guest).get(`/user_groups/${top}/members`), 'Not allowed for guest users');
  });
});

describe('PATCH /user_groups/{id}', () => {
  it('renames and redescribes a group the caller manages', async () => {
    const id = await createGroup(alice);
    const res = await t.client(alice).patch(`/user_groups/${id}`, { name: 'renamed', description: 'new words' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await groupById(id)).toMatchObject({ name: 'renamed', description: 'new words' });
  });

  it('applies the name rules on rename', async () => {
    const id = await createGroup(alice);
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { name: 'backend' }), "User group 'backend' already exists.");
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { name: 'role:x' }), "User group name cannot start with 'role:'.");
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { name: ' ' }), "User group name can't be empty!");
    expect((await groupById(id)).name).toMatch(/^group /);
  });

  it('needs something to change', async () => {
    const id = await createGroup(alice);
    expectError(await t.client(alice).patch(`/user_groups/${id}`, {}), 'No new data supplied');
  });

  it('answers 400 BAD_REQUEST for an invalid group ID', async () => {
    expectError(await t.client(alice).patch('/user_groups/999999', { name: 'x' }), 'Invalid user group');
  });

  it('never changes system groups, even for owners', async () => {
    expectError(await owner.patch(`/user_groups/${sys['role:members']}`, { description: 'mine now' }), 'Insufficient permission');
    expect((await groupById(sys['role:members']!)).description).not.toBe('mine now');
  });

  it('updates each permission setting from an update object, checking `old` when given', async () => {
    const id = await createGroup(alice);
    const current = { direct_members: [alice.userId], direct_subgroups: [] };
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { can_manage_group: { new: sys['role:moderators'], old: sys['role:members'] } }),
      "'old' value does not match the expected value.");
    expect((await groupById(id)).can_manage_group).toEqual(current);
    const res = await t.client(alice).patch(`/user_groups/${id}`, {
      can_manage_group: { new: { direct_members: [alice.userId, bob.userId], direct_subgroups: [] }, old: current },
      can_join_group: { new: sys['role:members'] },
      can_leave_group: { new: sys['role:nobody'], old: sys['role:everyone'] },
      can_mention_group: { new: { direct_members: [], direct_subgroups: [sys['role:moderators']] } },
      can_add_members_group: { new: sys['role:moderators'] },
      can_remove_members_group: { new: { direct_members: [carol.userId], direct_subgroups: [] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await groupById(id)).toMatchObject({
      can_manage_group: { direct_members: [alice.userId, bob.userId], direct_subgroups: [] },
      can_join_group: sys['role:members'], can_leave_group: sys['role:nobody'], can_mention_group: sys['role:moderators'],
      can_add_members_group: sys['role:moderators'], can_remove_members_group: { direct_members: [carol.userId], direct_subgroups: [] },
    });
    // An `old` explicit set matches in any order; an empty set is role:nobody.
    expect((await t.client(bob).patch(`/user_groups/${id}`, { can_manage_group: { new: sys['role:administrators'], old: { direct_members: [bob.userId, alice.userId], direct_subgroups: [] } } })).status).toBe(200);
    expect((await owner.patch(`/user_groups/${id}`, { can_leave_group: { new: sys['role:everyone'], old: { direct_members: [], direct_subgroups: [] } } })).status).toBe(200);
  });

  it('refuses the system groups each setting may not name, and malformed update objects', async () => {
    const id = await createGroup(alice);
    for (const [setting, name] of [['can_manage_group', 'role:internet'], ['can_manage_group', 'role:everyone'], ['can_mention_group', 'role:internet'], ['can_mention_group', 'role:owners']]) {
      expectError(await t.client(alice).patch(`/user_groups/${id}`, { [setting!]: { new: sys[name!] } }), `'${setting}' setting cannot be set to '${name}' group.`);
    }
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { can_manage_group: sys['role:members'] }), 'can_manage_group is not a dict');
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { can_manage_group: { old: sys['role:members'] } }), 'can_manage_group["new"] field is missing');
    expect((await groupById(id)).can_manage_group).toEqual({ direct_members: [alice.userId], direct_subgroups: [] });
  });

  it('refuses a deactivated group as a setting value', async () => {
    const old = await createGroup(alice);
    await t.client(alice).post(`/user_groups/${old}/deactivate`);
    const id = await createGroup(alice);
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { can_mention_group: { new: old } }), 'You cannot use a deactivated user group for this setting.');
    expectError(await t.client(alice).post('/user_groups/create', { name: 'uses old', description: '', members: [], can_mention_group: old }), 'You cannot use a deactivated user group for this setting.');
  });

  it('is all or nothing: a refused setting undoes the rename in the same request', async () => {
    const id = await createGroup(alice);
    const before = await groupById(id);
    expectError(await t.client(alice).patch(`/user_groups/${id}`, { name: 'half done', can_mention_group: { new: sys['role:owners'] } }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
    expect(await groupById(id)).toEqual(before);
  });

  it('reactivates with deactivated=false; deactivated=true does nothing', async () => {
    const id = await createGroup(alice);
    expect((await t.client(alice).patch(`/user_groups/${id}`, { deactivated: true })).status).toBe(200);
    expect((await groupById(id)).deactivated).toBe(false);
    await t.client(alice).post(`/user_groups/${id}/deactivate`);
    expect((await groupById(id)).deactivated).toBe(true);
    expect((await t.client(alice).patch(`/user_groups/${id}`, { deactivated: false })).status).toBe(200);
    expect((await groupById(id)).deactivated).toBe(false);
  });
});

describe('The permission matrix', () => {
  // A group alice created: she manages it; carol may add members (but not remove them).
  let group: number;
  beforeAll(async () => {
    group = await createGroup(alice, { members: [bob.userId], can_add_members_group: { direct_members: [alice.userId, carol.userId], direct_subgroups: [] } });
  });

  const patch = async (who: Credentials, id = group) => {
    const res = await t.client(who).patch(`/user_groups/${id}`, { description: `by ${who.userId}` });
    return res;
  };

  it('lets the owner (can_manage_all_groups) and the group\'s manager update it', async () => {
    expect((await owner.patch(`/user_groups/${group}`, { description: 'by owner' })).status).toBe(200);
    expect((await patch(alice)).status).toBe(200);
  });

  it('refuses administrators, moderators, members, guests and bots who do not manage it', async () => {
    for (const who of [admin, moderator, bob, carol, bot]) expectError(await patch(who), 'Insufficient permission');
    expectError(await patch(guest), 'Not allowed for guest users');
    expect((await groupById(group)).description).toBe(`by ${alice.userId}`);
  });

  it('refuses another organization\'s users: the group does not exist there', async () => {
    expectError(await t.client(stranger, OTHER_HOST).patch(`/user_groups/${group}`, { description: 'x' }), 'Invalid user group');
  });

  it('lets members of can_add_members_group add members but not remove them or change settings', async () => {
    expect((await t.client(carol).post(`/user_groups/${group}/members`, { add: [moderator.userId] })).status).toBe(200);
    expectError(await t.client(carol).post(`/user_groups/${group}/members`, { delete: [moderator.userId] }), 'Insufficient permission');
    expectError(await t.client(carol).patch(`/user_groups/${group}`, { name: 'carol\'s' }), 'Insufficient permission');
    expectError(await t.client(carol).post(`/user_groups/${group}/deactivate`), 'Insufficient permission');
    expectError(await t.client(bob).post(`/user_groups/${group}/members`, { add: [admin.userId] }), 'Insufficient permission');
    expect((await t.client(bob).get(`/user_groups/${group}/members`)).body.members).toEqual([bob.userId, moderator.userId].sort((a, b) => a - b));
  });

  it('grants administrators everything once can_manage_all_groups includes them', async () => {
    const realm = await db().realm.findFirstOrThrow({ where: { stringId: '' } });
    await updateRealm(t, { can_manage_all_groups: { new: sys['role:administrators'] } });
    try {
      expect((await patch(admin)).status).toBe(200);
      expect((await t.client(admin).post(`/user_groups/${group}/members`, { delete: [moderator.userId] })).status).toBe(200);
      expectError(await patch(moderator), 'Insufficient permission');
    } finally {
      await updateRealm(t, { can_manage_all_groups: { new: realm.canManageAllGroupsGroupId } });
    }
    expectError(await patch(admin), 'Insufficient permission');
  });

  it('decides by recursive membership: a member of a subgroup of can_manage_group manages the group', async () => {
    const inner = await createGroup(alice, { members: [carol.userId] });
    const outer = await createGroup(alice, { subgroups: [inner] });
    await t.client(alice).patch(`/user_groups/${group}`, { can_manage_group: { new: outer } });
    expect((await patch(carol)).status).toBe(200);
    expect((await t.client(carol).post(`/user_groups/${group}/members`, { add: [admin.userId], delete: [bob.userId] })).status).toBe(200);
    expectError(await patch(alice), 'Insufficient permission');
  });

  it('lets a bot act where it holds the permission', async () => {
    const id = await createGroup(alice, { can_manage_group: { direct_members: [bot.userId], direct_subgroups: [] } });
    const patched = await patch(bot, id);
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const res = await t.client(bot).post(`/user_groups/${id}/members`, { add: [alice.userId, bot.userId] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(bot).post(`/user_groups/${id}/deactivate`)).status).toBe(200);
  });

  it('never lets guests manage, even when named in can_manage_group', async () => {
    const id = await createGroup(alice, { can_manage_group: { direct_members: [guest.userId], direct_subgroups: [] } });
    expectError(await t.client(guest).patch(`/user_groups/${id}`, { name: 'guest made' }), 'Not allowed for guest users');
    expectError(await t.client(guest).post(`/user_groups/${id}/deactivate`), 'Insufficient permission');
  });
});

describe('POST /user_groups/{id}/members', () => {
  it('adds and removes members and subgroups in one request', async () => {
    const sub = await createGroup(alice);
    const id = await createGroup(alice, { members: [bob.userId] });
    const res = await t.client(alice).post(`/user_groups/${id}/members`, { add: [carol.userId], delete: [bob.userId], add_subgroups: [sub] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await groupById(id)).toMatchObject({ members: [carol.userId], direct_subgroup_ids: [sub] });
    expect((await t.client(alice).post(`/user_groups/${id}/members`, { delete_subgroups: [sub] })).status).toBe(200);
    expect((await groupById(id)).direct_subgroup_ids).toEqual([]);
  });

  it('words the already-member and not-a-member errors as Zulip does', async () => {
    const id = await createGroup(alice, { members: [bob.userId] });
    expectError(await t.client(alice).post(`/user_groups/${id}/members`, { add: [carol.userId, bob.userId] }), `User ${bob.userId} is already a member of this group`);
    expectError(await t.client(alice).post(`/user_groups/${id}/members`, { delete: [carol.userId] }), `There is no member '${carol.userId}' in this user group`);
    expect((await groupById(id)).members).toEqual([bob.userId]);
  });

  it('accepts only active users of the organization', async () => {
    const id = await createGroup(alice);
    const gone = await makeUser(t, { fullName: 'Gone Too' });
    await deactivate(t, gone.userId);
    for (const userId of [gone.userId, 999999, stranger.userId]) {
      expectError(await t.client(alice).post(`/user_groups/${id}/members`, { add: [userId] }), `Invalid user ID: ${userId}`);
      expectError(await t.client(alice).post(`/user_groups/${id}/members`, { delete: [userId] }), `Invalid user ID: ${userId}`);
    }
  });

  it('is all or nothing', async () => {
    const id = await createGroup(alice, { members: [bob.userId] });
    expectError(await t.client(alice).post(`/user_groups/${id}/members`, { add: [carol.userId], delete: [moderator.userId] }), `There is no member '${moderator.userId}' in this user group`);
    expect((await groupById(id)).members).toEqual([bob.userId]);
  });

  it('refuses cycles, repeated subgroups, non-subgroups, and groups that cannot be subgroups', async () => {
    const a = await createGroup(alice);
    const b = await createGroup(alice, { subgroups: [a] });
    const c = await createGroup(alice, { subgroups: [b] });
    expectError(await t.client(alice).post(`/user_groups/${a}/members`, { add_subgroups: [c] }), `User group ${a} is already a subgroup of one of the passed subgroups.`);
    expectError(await t.client(alice).post(`/user_groups/${a}/members`, { add_subgroups: [a] }), `User group ${a} is already a subgroup of one of the passed subgroups.`);
    expectError(await t.client(alice).post(`/user_groups/${b}/members`, { add_subgroups: [a] }), `User group ${a} is already a subgroup of this group.`);
    expectError(await t.client(alice).post(`/user_groups/${c}/members`, { delete_subgroups: [a] }), `User group ${a} is not a subgroup of this group.`);
    const anonymous = (await db().userGroup.findFirstOrThrow({ where: { name: null } })).id;
    expectError(await t.client(alice).post(`/user_groups/${a}/members`, { add_subgroups: [anonymous] }), `Invalid user group ID: ${anonymous}`);
    expectError(await t.client(alice).post(`/user_groups/${a}/members`, { add_subgroups: [999999] }), 'Invalid user group ID: 999999');
    expect((await groupById(a)).direct_subgroup_ids).toEqual([]);
  });

  it('never lets two concurrent requests close a cycle', async () => {
    const a = await createGroup(alice);
    const b = await createGroup(alice);
    const results = await Promise.all([
      t.client(alice).post(`/user_groups/${a}/members`, { add_subgroups: [b] }),
      t.client(alice).post(`/user_groups/${b}/members`, { add_subgroups: [a] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.msg).toMatch(/is already a subgroup of one of the passed subgroups/);
    const edges = [...(await groupById(a)).direct_subgroup_ids, ...(await groupById(b)).direct_subgroup_ids];
    expect(edges).toHaveLength(1);
  });

  it('answers a concurrent duplicate name with Zulip\'s error, not a crash', async () => {
    const results = await Promise.all([1, 2, 3].map(() => t.client(alice).post('/user_groups/create', { name: 'raced', description: '', members: [] })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, "User group 'raced' already exists.");
  });

  it('needs can_manage_group (not can_add_members_group) to remove subgroups', async () => {
    const sub = await createGroup(alice);
    const id = await createGroup(alice, { can_add_members_group: { direct_members: [carol.userId], direct_subgroups: [] } });
    expect((await t.client(carol).post(`/user_groups/${id}/members`, { add_subgroups: [sub] })).status).toBe(200);
    expectError(await t.client(carol).post(`/user_groups/${id}/members`, { delete_subgroups: [sub] }), 'Insufficient permission');
  });

  it('lets users join through can_join_group and leave through can_leave_group, for themselves only', async () => {
    const id = await createGroup(alice, { can_join_group: sys['role:members'] });
    expect((await t.client(bob).post(`/user_groups/${id}/members`, { add: [bob.userId] })).status).toBe(200);
    expectError(await t.client(bob).post(`/user_groups/${id}/members`, { add: [carol.userId] }), 'Insufficient permission');
    expectError(await t.client(guest).post(`/user_groups/${id}/members`, { add: [guest.userId] }), 'Not allowed for guest users');
    expect((await t.client(bob).post(`/user_groups/${id}/members`, { delete: [bob.userId] })).status).toBe(200);
    const closed = await createGroup(alice, { members: [bob.userId], can_leave_group: sys['role:nobody'] });
    expectError(await t.client(bob).post(`/user_groups/${closed}/members`, { delete: [bob.userId] }), 'Insufficient permission');
    expectError(await t.client(carol).post(`/user_groups/${closed}/members`, { add: [carol.userId] }), 'Insufficient permission');
    expect((await groupById(closed)).members).toEqual([bob.userId]);
  });

  it('needs something to do', async () => {
    const id = await createGroup(alice);
    expectError(await t.client(alice).post(`/user_groups/${id}/members`, {}), 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    expectError(await t.client(alice).post(`/user_groups/${id}/members`, { add: [] }), 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  });

  it('never changes system groups', async () => {
    expectError(await owner.post(`/user_groups/${sys['role:members']}/members`, { add: [guest.userId] }), 'Insufficient permission');
  });

  it('tells people someone else added or removed them, through the notification bot', async () => {
    const id = await createGroup(alice, { name: 'announced' });
    await t.client(alice).post(`/user_groups/${id}/members`, { add: [bob.userId, alice.userId, bot.userId] });
    const res = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
    expect(res.body.messages[0].content).toContain('added you to the group');
    expect(res.body.messages[0].content).toContain('announced');
  });
});

describe('POST /user_groups/{id}/subgroups (the older endpoint)', () => {
  it('adds and removes subgroups', async () => {
    const sub = await createGroup(alice);
    const id = await createGroup(alice);
    expect((await t.client(alice).post(`/user_groups/${id}/subgroups`, { add: [sub] })).status).toBe(200);
    expect((await groupById(id)).direct_subgroup_ids).toEqual([sub]);
    expect((await t.client(alice).post(`/user_groups/${id}/subgroups`, { delete: [sub] })).status).toBe(200);
    expect((await groupById(id)).direct_subgroup_ids).toEqual([]);
    expectError(await t.client(alice).post(`/user_groups/${id}/subgroups`, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    expectError(await t.client(bob).post(`/user_groups/${id}/subgroups`, { add: [sub] }), 'Insufficient permission');
  });
});

describe('POST /user_groups/{id}/deactivate', () => {
  it('deactivates a group nobody uses', async () => {
    const id = await createGroup(alice);
    expect((await t.client(alice).post(`/user_groups/${id}/deactivate`)).status).toBe(200);
    expect((await groupById(id)).deactivated).toBe(true);
    expectError(await t.client(alice).post(`/user_groups/${id}/deactivate`), 'User group is deactivated.');
  });

  it('refuses while the group is a subgroup of an active group, and lists the objection', async () => {
    const sub = await createGroup(alice);
    const sup = await createGroup(alice, { subgroups: [sub] });
    const res = await t.client(alice).post(`/user_groups/${sub}/deactivate`);
    expectError(res, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(res.body.objections).toEqual([{ type: 'subgroup', supergroup_ids: [sup] }]);
    expect((await groupById(sub)).deactivated).toBe(false);
    // Once the supergroup is deactivated, the subgroup may be too.
    expect((await t.client(alice).post(`/user_groups/${sup}/deactivate`)).status).toBe(200);
    expect((await t.client(alice).post(`/user_groups/${sub}/deactivate`)).status).toBe(200);
  });

  it('refuses while the group is used in a setting of a group, a channel or the organization, directly or in an explicit set', async () => {
    const used = await createGroup(alice);
    const user = await createGroup(alice, { can_mention_group: used, can_join_group: { direct_members: [bob.userId], direct_subgroups: [used] } });
    const channelId = await makeChannel(t.client(alice), 'group-permissions');
    await updateChannel(t.client(alice), channelId, { can_send_message_group: { new: used } });
    const realm = await db().realm.findFirstOrThrow({ where: { stringId: '' } });
    await updateRealm(t, { can_create_bots_group: { new: used } });
    try {
      const res = await t.client(alice).post(`/user_groups/${used}/deactivate`);
      expectError(res, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
      expect(res.body.objections).toEqual([
        { type: 'channel', channel_id: channelId, settings: ['can_send_message_group'] },
        { type: 'user_group', group_id: user, settings: ['can_join_group', 'can_mention_group'] },
        { type: 'realm', settings: ['can_create_bots_group'] },
      ]);
    } finally {
      await updateRealm(t, { can_create_bots_group: { new: realm.canCreateBotsGroupId } });
      await updateChannel(t.client(alice), channelId, { can_send_message_group: { new: sys['role:everyone'] } });
    }
  });

  it('needs the right to manage the group; system groups never', async () => {
    const id = await createGroup(alice);
    for (const who of [bob, moderator, admin, bot]) expectError(await t.client(who).post(`/user_groups/${id}/deactivate`), 'Insufficient permission');
    expectError(await owner.post(`/user_groups/${sys['role:moderators']}/deactivate`), 'Insufficient permission');
    expectError(await t.client(alice).post('/user_groups/999999/deactivate'), 'Invalid user group');
    expect((await owner.post(`/user_groups/${id}/deactivate`)).status).toBe(200);
  });

  it('keeps a deactivated group\'s settings and members editable, but not usable as a subgroup', async () => {
    const id = await createGroup(alice, { members: [bob.userId] });
    await t.client(alice).post(`/user_groups/${id}/deactivate`);
    expect((await t.client(alice).patch(`/user_groups/${id}`, { name: 'sleeping', can_join_group: { new: sys['role:members'] } })).status).toBe(200);
    expect((await t.client(alice).post(`/user_groups/${id}/members`, { add: [carol.userId] })).status).toBe(200);
    expect((await t.client(carol).post(`/user_groups/${id}/members`, { delete: [carol.userId] })).status).toBe(200);
    const other = await createGroup(alice);
    expectError(await t.client(alice).post(`/user_groups/${other}/members`, { add_subgroups: [id] }), 'User group is deactivated.');
    expectError(await t.client(bob).get(`/user_groups/${id}/members`), 'User group is deactivated.');
  });

  it('stops mentions until reactivated', async () => {
    const id = await createGroup(alice, { name: 'firefighters', members: [bob.userId] });
    await makeChannel(t.client(alice), 'alarms', { principals: [alice.userId, bob.userId] });
    const send = async () => {
      const sent = await t.client(alice).post('/messages', { type: 'stream', to: 'alarms', topic: 'fire', content: 'paging @*firefighters*' });
      expect(sent.status).toBe(200);
      const res = await t.client(bob).get('/messages', { anchor: sent.body.id, num_before: 0, num_after: 0 });
      return res.body.messages[0];
    };
    const live = await send();
    expect(live.content).toContain(`data-user-group-id="${id}"`);
    expect(live.flags).toContain('mentioned');
    await t.client(alice).post(`/user_groups/${id}/deactivate`);
    const asleep = await send();
    expect(asleep.content).not.toContain('user-group-mention');
    expect(asleep.content).not.toContain(`data-user-group-id="${id}"`);
    expect(asleep.flags).not.toContain('mentioned');
    await t.client(alice).patch(`/user_groups/${id}`, { deactivated: false });
    expect((await send()).flags).toContain('mentioned');
  });
});

describe('can_mention_group', () => {
  it('decides who may mention a group loudly; silent mentions are always fine', async () => {
    const id = await createGroup(alice, { name: 'oncall', members: [carol.userId], can_mention_group: sys['role:moderators'] });
    await makeChannel(t.client(alice), 'pager', { principals: [alice.userId, bob.userId, moderator.userId, carol.userId] });
    const send = (who: Credentials, content: string) => t.client(who).post('/messages', { type: 'stream', to: 'pager', topic: 'incidents', content });
    const before = await db().message.count();
    expectError(await send(bob, 'help @*oncall*'), "You are not allowed to mention user group 'oncall'.");
    expect(await db().message.count()).toBe(before);
    expect((await send(bob, 'thanks @_*oncall*')).status).toBe(200);
    expect((await send(moderator, 'paging @*oncall*')).status).toBe(200);
    const plain = await send(bob, 'no mention yet');
    expectError(await t.client(bob).patch(`/messages/${plain.body.id}`, { content: 'now @*oncall*' }), "You are not allowed to mention user group 'oncall'.");
    expect((await db().message.findUniqueOrThrow({ where: { id: plain.body.id } })).content).toBe('no mention yet');
    await t.client(alice).patch(`/user_groups/${id}`, { can_mention_group: { new: sys['role:everyone'] } });
    expect((await send(bob, 'help @*oncall*')).status).toBe(200);
  });
});

describe('user_group events', () => {
  it('reach every active user in Zulip\'s shapes, deactivation as `remove` and reactivation as `add` for clients without include_deactivated_groups', async () => {
    const modern = await register(t.client(bob), { include_deactivated_groups: true });
    const legacy = await register(t.client(guest));
    const sub = await createGroup(alice);
    const id = await createGroup(alice, { name: 'evented', members: [alice.userId] });
    await t.client(alice).patch(`/user_groups/${id}`, { description: 'changed', can_join_group: { new: { direct_members: [carol.userId], direct_subgroups: [] } } });
    await t.client(alice).post(`/user_groups/${id}/members`, { add: [bob.userId], delete: [alice.userId], add_subgroups: [sub] });
    await t.client(alice).post(`/user_groups/${id}/members`, { delete_subgroups: [sub] });
    await t.client(alice).post(`/user_groups/${id}/deactivate`);
    await t.client(alice).patch(`/user_groups/${id}`, { deactivated: false });

    const mine = (events: any[]) => events.filter((e) => e.type === 'user_group' && (e.group_id === id || e.group?.id === id)).map(({ id: _id, ...e }) => e);
    const common = [
      { type: 'user_group', op: 'add', group: expect.objectContaining({ id, name: 'evented', members: [alice.userId], creator_id: alice.userId }) },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'changed' } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_join_group: { direct_members: [carol.userId], direct_subgroups: [] } } },
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [bob.userId] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [alice.userId] },
      { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub] },
      { type: 'user_group', op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [sub] },
    ];
    expect(mine(await allEvents(t.client(bob), modern.queue_id))).toEqual([
      ...common,
      { type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } },
      { type: 'user_group', op: 'update', group_id: id, data: { deactivated: false } },
    ]);
    expect(mine(await allEvents(t.client(guest), legacy.queue_id))).toEqual([
      ...common,
      { type: 'user_group', op: 'remove', group_id: id },
      { type: 'user_group', op: 'add', group: expect.objectContaining({ id, name: 'evented', members: [bob.userId], deactivated: false }) },
    ]);
  });

  it('are not sent for refused requests', async () => {
    const id = await createGroup(alice);
    const queue = await register(t.client(bob), { include_deactivated_groups: true });
    await t.client(bob).patch(`/user_groups/${id}`, { name: 'nope' });
    await t.client(alice).post(`/user_groups/${id}/members`, { add: [carol.userId], delete: [bob.userId] });
    expect(await allEvents(t.client(bob), queue.queue_id)).toEqual([]);
  });

  it('register lists deactivated groups only with include_deactivated_groups', async () => {
    const id = await createGroup(alice);
    await t.client(alice).post(`/user_groups/${id}/deactivate`);
    expect((await register(t.client(bob))).realm_user_groups.some((g) => g.id === id)).toBe(false);
    expect((await register(t.client(bob), { include_deactivated_groups: true })).realm_user_groups.find((g) => g.id === id)).toMatchObject({ deactivated: true });
  });
});
