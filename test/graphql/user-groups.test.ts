// User groups through /graphql: the operations behind POST /user_groups/create, GET /user_groups and
// friends, PATCH /user_groups/{id}, POST .../members, .../subgroups and .../deactivate, with the
// same rules and error codes.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBot } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { createRealm } from '../../resolvers/realm/create.ts';
import { fails, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let bot: Credentials;
let boss: Credentials;
let sys: Record<string, number>;
const t = useTestServer();
const { admin, moderator, alice, bob, carol, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'carol', 'guest']);

const OTHER = 'other.localhost';
const FIELDS = 'id name description dateCreated creatorId members directSubgroupIds isSystemGroup deactivated canAddMembersGroup canJoinGroup canLeaveGroup canManageGroup canMentionGroup canRemoveMembersGroup';
const GROUPS = `query($all: Boolean) { userGroups(includeDeactivatedGroups: $all) { ${FIELDS} } }`;
const CREATE = `mutation($name: String!, $members: [Int!]!, $subgroups: [Int!], $manage: JSON, $add: JSON, $join: JSON, $mention: JSON) {
  createUserGroup(name: $name, description: "made over GraphQL", members: $members, subgroups: $subgroups, canManageGroup: $manage, canAddMembersGroup: $add, canJoinGroup: $join, canMentionGroup: $mention) }`;
const UPDATE = `mutation($id: Int!, $name: String, $deactivated: Boolean, $manage: JSON, $mention: JSON) {
  updateUserGroup(userGroupId: $id, name: $name, deactivated: $deactivated, canManageGroup: $manage, canMentionGroup: $mention) }`;
const MEMBERS = `mutation($id: Int!, $add: [Int!], $delete: [Int!], $addSubgroups: [Int!], $deleteSubgroups: [Int!]) {
  updateUserGroupMembers(userGroupId: $id, add: $add, delete: $delete, addSubgroups: $addSubgroups, deleteSubgroups: $deleteSubgroups) }`;
const DEACTIVATE = 'mutation($id: Int!) { deactivateUserGroup(userGroupId: $id) }';

let counter = 0;
async function create(as: Credentials, variables: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  return (await ok(t, CREATE, { name: `gql group ${counter}`, members: [], ...variables }, as)).createUserGroup;
}

async function group(id: number): Promise<any> {
  return (await ok(t, GROUPS, { all: true }, t.owner)).userGroups.find((g: any) => g.id === id);
}

async function expectCode(as: Credentials | undefined, query: string, variables: Record<string, unknown>, message: string, code = 'BAD_REQUEST') {
  const { error } = await fails(t, query, variables, as);
  expect(error.message).toBe(message);
  expect(error.extensions?.code).toBe(code);
  return error;
}

beforeAll(async () => {
  const db = t.db;
  bot = await makeBot(t, t.owner, { fullName: 'GraphQL bot' });
  const other = await createRealm(db, { stringId: 'other', name: 'Other', ownerEmail: 'boss@other.example.com', ownerPassword: 'boss password 123' });
  boss = { email: other.owner.email, apiKey: other.owner.apiKey, userId: other.owner.id };
  // Direct database work can outlast the server's keep-alive timeout: a socket the server has
  // closed meanwhile would reset the next request, so start afresh.
  http.globalAgent.destroy();
  const groups = (await ok(t, GROUPS, {}, t.owner)).userGroups;
  sys = Object.fromEntries(groups.filter((g: any) => g.isSystemGroup).map((g: any) => [g.name, g.id]));
}, 180_000); // many users to set up; generous when the machine is busy

describe('createUserGroup and userGroups', () => {
  it('creates a group the creator manages, listed with every field', async () => {
    const id = await create(alice, { name: 'gql team', members: [alice.userId, bob.userId] });
    expect(await group(id)).toEqual({
      id, name: 'gql team', description: 'made over GraphQL', dateCreated: expect.any(Number), creatorId: alice.userId,
      members: [alice.userId, bob.userId], directSubgroupIds: [], isSystemGroup: false, deactivated: false,
      canAddMembersGroup: { direct_members: [alice.userId], direct_subgroups: [] },
      canManageGroup: { direct_members: [alice.userId], direct_subgroups: [] },
      canJoinGroup: sys['role:nobody'], canLeaveGroup: sys['role:everyone'], canMentionGroup: sys['role:everyone'],
      canRemoveMembersGroup: sys['role:nobody'],
    });
  });

  it('refuses bad names, bad members, forbidden system groups and guests, writing nothing', async () => {
    await expectCode(alice, CREATE, { name: 'role:x', members: [] }, "User group name cannot start with 'role:'.");
    await expectCode(alice, CREATE, { name: 'gql team', members: [] }, "User group 'gql team' already exists.");
    await expectCode(alice, CREATE, { name: 'n1', members: [999999] }, 'Invalid user ID: 999999');
    await expectCode(alice, CREATE, { name: 'n1', members: [], manage: sys['role:everyone'] }, "'can_manage_group' setting cannot be set to 'role:everyone' group.");
    await expectCode(alice, CREATE, { name: 'n1', members: [], mention: sys['role:owners'] }, "'can_mention_group' setting cannot be set to 'role:owners' group.");
    await expectCode(alice, CREATE, { name: 'n1', members: [], subgroups: [999999] }, 'Invalid user group ID: 999999');
    await expectCode(guest, CREATE, { name: 'n1', members: [] }, 'Insufficient permission');
    expect((await ok(t, GROUPS, { all: true }, alice)).userGroups.some((g: any) => g.name === 'n1')).toBe(false);
  });

  it('refuses guests the list and anonymous callers everything', async () => {
    await expectCode(guest, GROUPS, {}, 'Not allowed for guest users');
    const { error } = await fails(t, GROUPS, {});
    expect(error.extensions?.code).toBe('UNAUTHORIZED');
  });
});

describe('userGroupMembers, isUserGroupMember, userGroupSubgroups', () => {
  it('answer recursively or directly', async () => {
    const inner = await create(alice, { members: [carol.userId] });
    const outer = await create(alice, { members: [bob.userId], subgroups: [inner] });
    const q = `query($id: Int!, $u: Int!) {
      all: userGroupMembers(userGroupId: $id) direct: userGroupMembers(userGroupId: $id, directMemberOnly: true)
      viaSub: isUserGroupMember(userGroupId: $id, userId: $u) directly: isUserGroupMember(userGroupId: $id, userId: $u, directMemberOnly: true)
      subgroups: userGroupSubgroups(userGroupId: $id) }`;
    const data = await ok(t, q, { id: outer, u: carol.userId }, bob);
    expect(data).toEqual({
      all: [bob.userId, carol.userId].sort((a, b) => a - b), direct: [bob.userId],
      viaSub: true, directly: false, subgroups: [inner],
    });
    await expectCode(bob, 'query($id: Int!) { userGroupMembers(userGroupId: $id) }', { id: 999999 }, 'Invalid user group');
    await expectCode(bob, 'query($id: Int!) { isUserGroupMember(userGroupId: $id, userId: 999999) }', { id: outer }, 'No such user');
  });
});

describe('updateUserGroup', () => {
  it('changes name and settings with update objects, checking `old`', async () => {
    const id = await create(alice);
    const current = { direct_members: [alice.userId], direct_subgroups: [] };
    await expectCode(alice, UPDATE, { id, manage: { new: sys['role:moderators'], old: sys['role:members'] } }, "'old' value does not match the expected value.");
    expect(await ok(t, UPDATE, { id, name: 'gql renamed', manage: { new: sys['role:moderators'], old: current } }, alice)).toEqual({ updateUserGroup: true });
    expect(await group(id)).toMatchObject({ name: 'gql renamed', canManageGroup: sys['role:moderators'] });
    await expectCode(moderator, UPDATE, { id, manage: { new: sys['role:internet'] } }, "'can_manage_group' setting cannot be set to 'role:internet' group.");
    await expectCode(moderator, UPDATE, { id, mention: { new: sys['role:internet'] } }, "'can_mention_group' setting cannot be set to 'role:internet' group.");
    await expectCode(moderator, UPDATE, { id }, 'No new data supplied');
  });

  it('follows the permission matrix', async () => {
    const id = await create(alice);
    expect((await ok(t, UPDATE, { id, name: 'by owner' }, t.owner)).updateUserGroup).toBe(true);
    expect((await ok(t, UPDATE, { id, name: 'by alice' }, alice)).updateUserGroup).toBe(true);
    for (const who of [admin, moderator, bob, bot]) await expectCode(who, UPDATE, { id, name: 'nope' }, 'Insufficient permission');
    await expectCode(guest, UPDATE, { id, name: 'nope' }, 'Not allowed for guest users');
    const other = await fails(t, UPDATE, { id, name: 'nope' }, boss, OTHER);
    expect(other.error).toMatchObject({ message: 'Invalid user group', extensions: { code: 'BAD_REQUEST' } });
    await expectCode(t.owner, UPDATE, { id: sys['role:members'], name: 'nope' }, 'Insufficient permission');
    expect((await group(id)).name).toBe('by alice');
  });
});

describe('updateUserGroupMembers and updateUserGroupSubgroups', () => {
  it('add and remove members and subgroups, all or nothing', async () => {
    const sub = await create(alice);
    const id = await create(alice, { members: [bob.userId] });
    await expectCode(alice, MEMBERS, { id, add: [carol.userId], delete: [moderator.userId] }, `There is no member '${moderator.userId}' in this user group`);
    expect((await group(id)).members).toEqual([bob.userId]);
    expect(await ok(t, MEMBERS, { id, add: [carol.userId], delete: [bob.userId], addSubgroups: [sub] }, alice)).toEqual({ updateUserGroupMembers: true });
    expect(await group(id)).toMatchObject({ members: [carol.userId], directSubgroupIds: [sub] });
    await expectCode(alice, MEMBERS, { id, add: [carol.userId] }, `User ${carol.userId} is already a member of this group`);
    await expectCode(alice, MEMBERS, { id: sub, addSubgroups: [id] }, `User group ${sub} is already a subgroup of one of the passed subgroups.`);
    await expectCode(alice, MEMBERS, { id }, 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    expect(await ok(t, 'mutation($id: Int!, $d: [Int!]) { updateUserGroupSubgroups(userGroupId: $id, delete: $d) }', { id, d: [sub] }, alice))
      .toEqual({ updateUserGroupSubgroups: true });
    expect((await group(id)).directSubgroupIds).toEqual([]);
  });

  it('let can_join_group members join and bots with the permission act', async () => {
    const id = await create(alice, { join: sys['role:members'], add: { direct_members: [bot.userId], direct_subgroups: [] } });
    expect((await ok(t, MEMBERS, { id, add: [bob.userId] }, bob)).updateUserGroupMembers).toBe(true);
    await expectCode(bob, MEMBERS, { id, add: [carol.userId] }, 'Insufficient permission');
    expect((await ok(t, MEMBERS, { id, add: [carol.userId] }, bot)).updateUserGroupMembers).toBe(true);
    await expectCode(bot, MEMBERS, { id, delete: [carol.userId] }, 'Insufficient permission');
    expect((await group(id)).members).toEqual([bob.userId, carol.userId].sort((a, b) => a - b));
  });
});

describe('deactivateUserGroup', () => {
  it('refuses a group in use with the objections, then deactivates and reactivates', async () => {
    const sub = await create(alice);
    const sup = await create(alice, { subgroups: [sub] });
    const error = await expectCode(alice, DEACTIVATE, { id: sub }, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(error.extensions?.zulip).toEqual({ objections: [{ type: 'subgroup', supergroup_ids: [sup] }] });
    await expectCode(bob, DEACTIVATE, { id: sup }, 'Insufficient permission');
    expect((await ok(t, DEACTIVATE, { id: sup }, alice)).deactivateUserGroup).toBe(true);
    expect((await ok(t, GROUPS, {}, alice)).userGroups.some((g: any) => g.id === sup)).toBe(false);
    expect((await group(sup)).deactivated).toBe(true);
    await expectCode(alice, DEACTIVATE, { id: sup }, 'User group is deactivated.');
    await expectCode(alice, CREATE, { name: 'uses it', members: [], mention: sup }, 'You cannot use a deactivated user group for this setting.');
    expect((await ok(t, UPDATE, { id: sup, deactivated: false }, alice)).updateUserGroup).toBe(true);
    expect((await group(sup)).deactivated).toBe(false);
  });
});
