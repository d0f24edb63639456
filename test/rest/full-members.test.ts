// The waiting period (`waiting_period_threshold`): members are full members (role:fullmembers) once
// their account is that many days old. Permission settings granted to role:fullmembers refuse
// newer members, directly and through groups that contain role:fullmembers.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../support/factories.ts';
import { graphql, type ApiClient, type Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTestServer } from '../support/fixtures.ts';

let sys: Record<string, number>;
let counter = 0;
// The promotion worker is off: the tests run promotions themselves, when they mean to.
const t = useTestServer({ fullMemberPromotionMs: 0 });
const owner = t.ownerClient;

const DAY_MS = 86_400_000;

/**
 * Ages an account by `days`. There is no API to back-date an account (Zulip neither has one), so
 * the test moves `dateJoined` in the database: the only way to get an old account in a test run.
 */
async function age(user: Credentials, days: number): Promise<void> {
  await t.db.user.update({ where: { id: user.userId }, data: { dateJoined: new Date(Date.now() - days * DAY_MS) } });
  // Direct database work can outlast the server's keep-alive timeout; start with fresh sockets.
  http.globalAgent.destroy();
}

async function fullMembers(client: ApiClient = owner): Promise<number[]> {
  const res = await client.get('/user_groups');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user_groups.find((g: any) => g.name === 'role:fullmembers').members;
}

const register = (client: ApiClient) => registerQueue<{ realm_user_groups: any[] }>(client, { event_types: ['user_group', 'realm'], fetch_event_types: ['realm_user_groups'] });

async function setThreshold(days: number) {
  const res = await owner.patch('/realm', { waiting_period_threshold: days });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function createChannel(user: Credentials) {
  counter += 1;
  return t.client(user).post('/users/me/subscriptions', { subscriptions: [{ name: `new channel ${counter}` }] });
}

function refused(res: { status: number; body: any }, msg = 'Insufficient permission') {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'error', msg });
  expect(res.status).toBe(400);
}

beforeAll(async () => {
  const groups = (await owner.get('/user_groups')).body.user_groups;
  sys = Object.fromEntries(groups.filter((g: any) => g.is_system_group).map((g: any) => [g.name, g.id]));
  const res = await owner.patch('/realm', { can_create_public_channel_group: JSON.stringify({ new: sys['role:fullmembers'] }) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}, 60_000);

describe('role:fullmembers with a zero waiting period', () => {
  it('has every member from the start, and lets a brand-new member create channels', async () => {
    const newcomer = await makeUser(t);
    expect(await fullMembers()).toContain(newcomer.userId);
    expect((await createChannel(newcomer)).status).toBe(200);
  });
});

describe('PATCH /realm waiting_period_threshold', () => {
  it('moves members who are too new out of role:fullmembers at once, with events; older ones stay', async () => {
    await setThreshold(0);
    const newcomer = await makeUser(t);
    const veteran = await makeUser(t);
    await age(veteran, 10);
    const observer = await register(t.client(newcomer));
    await setThreshold(5);
    const events = await allEvents(t.client(newcomer), observer.queue_id);
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 5 }));
    const removal = events.find((e) => e.type === 'user_group' && e.op === 'remove_members');
    expect(removal).toMatchObject({ group_id: sys['role:fullmembers'] });
    expect(removal.user_ids).toContain(newcomer.userId);
    expect(removal.user_ids).not.toContain(veteran.userId);
    const members = await fullMembers();
    expect(members).toContain(veteran.userId);
    expect(members).not.toContain(newcomer.userId);
    // Register says the same.
    const state = await register(t.client(veteran));
    const group = state.realm_user_groups.find((g) => g.name === 'role:fullmembers');
    expect(group.members).toContain(veteran.userId);
    expect(group.members).not.toContain(newcomer.userId);

    // Lowering it back (here through GraphQL) makes the newcomer a full member again.
    const lowered = await graphql(t.baseUrl, 'mutation { updateRealm(settings: { waitingPeriodThreshold: 0 }) }', {}, t.owner);
    expect(lowered.body.errors).toBeUndefined();
    const again = await allEvents(t.client(newcomer), observer.queue_id);
    const addition = again.find((e) => e.type === 'user_group' && e.op === 'add_members');
    expect(addition).toMatchObject({ group_id: sys['role:fullmembers'] });
    expect(addition.user_ids).toContain(newcomer.userId);
    expect(await fullMembers()).toContain(newcomer.userId);
  });
});

describe('settings granted to role:fullmembers', () => {
  let newcomer: MadeUser;
  let veteran: MadeUser;

  beforeAll(async () => {
    await setThreshold(3);
    newcomer = await makeUser(t);
    veteran = await makeUser(t);
    await age(veteran, 4);
    await setThreshold(3); // unchanged: nothing is recomputed
    await t.server.fullMemberPromotion.promoteNow();
  });

  it('refuses a member under the waiting period and allows one past it (REST)', async () => {
    refused(await createChannel(newcomer));
    expect((await createChannel(veteran)).status).toBe(200);
    // Moderators and above hold role:fullmembers whatever their age.
    const moderator = await makeUser(t, { role: 300 });
    expect((await createChannel(moderator)).status).toBe(200);
  });

  it('refuses and allows the same through GraphQL', async () => {
    const mutation = 'mutation($name: String!) { createChannel(name: $name, subscribers: []) }';
    const refusedGql = await graphql(t.baseUrl, mutation, { name: 'gql newcomer channel' }, newcomer);
    expect(refusedGql.body.errors?.[0]).toMatchObject({ message: 'Insufficient permission', extensions: { code: 'BAD_REQUEST' } });
    const allowed = await graphql(t.baseUrl, mutation, { name: 'gql veteran channel' }, veteran);
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data.createChannel).toEqual(expect.any(Number));
    const members = await graphql(t.baseUrl, 'query($id: Int!) { userGroupMembers(userGroupId: $id, directMemberOnly: true) }', { id: sys['role:fullmembers'] }, veteran);
    expect(members.body.data.userGroupMembers).toContain(veteran.userId);
    expect(members.body.data.userGroupMembers).not.toContain(newcomer.userId);
  });

  it('follows through a group that contains role:fullmembers (can_invite_users_group as an explicit set)', async () => {
    const set = { direct_members: [t.owner.userId], direct_subgroups: [sys['role:fullmembers']] };
    const res = await owner.patch('/realm', { can_invite_users_group: JSON.stringify({ new: set }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const invite = (user: Credentials) => t.client(user).post('/invites', { invitee_emails: `invitee${++counter}@example.com`, stream_ids: '[]' });
    refused(await invite(newcomer));
    expect((await invite(veteran)).body).toMatchObject({ result: 'success' });
  });

  it('promotes a member once their account ages past the waiting period, with an add_members event', async () => {
    const observer = await register(t.client(veteran));
    await age(newcomer, 3);
    expect(await t.server.fullMemberPromotion.promoteNow()).toBe(1);
    const events = await allEvents(t.client(veteran), observer.queue_id);
    expect(events).toEqual([{ type: 'user_group', op: 'add_members', group_id: sys['role:fullmembers'], user_ids: [newcomer.userId], id: expect.any(Number) }]);
    expect((await createChannel(newcomer)).status).toBe(200);
    // A second run has nobody left to promote.
    expect(await t.server.fullMemberPromotion.promoteNow()).toBe(0);
  });
});

describe('role changes and the waiting period', () => {
  it('a member under the waiting period who becomes a moderator and back is a member, not a full member', async () => {
    await setThreshold(3);
    const user = await makeUser(t);
    expect(await fullMembers()).not.toContain(user.userId);
    expect((await owner.patch(`/users/${user.userId}`, { role: 300 })).status).toBe(200);
    expect((await createChannel(user)).status).toBe(200);
    const observer = await register(owner);
    expect((await owner.patch(`/users/${user.userId}`, { role: 400 })).status).toBe(200);
    const groupEvents = (await allEvents(owner, observer.queue_id)).filter((e) => e.type === 'user_group');
    expect(groupEvents).toEqual([
      { type: 'user_group', op: 'remove_members', group_id: sys['role:moderators'], user_ids: [user.userId], id: expect.any(Number) },
      { type: 'user_group', op: 'add_members', group_id: sys['role:members'], user_ids: [user.userId], id: expect.any(Number) },
    ]);
    expect(await fullMembers()).not.toContain(user.userId);
    refused(await createChannel(user));
    // Aged past the waiting period, a role change makes the member a full member at once.
    await age(user, 3);
    expect((await owner.patch(`/users/${user.userId}`, { role: 600 })).status).toBe(200);
    expect((await owner.patch(`/users/${user.userId}`, { role: 400 })).status).toBe(200);
    expect(await fullMembers()).toContain(user.userId);
  });
});
