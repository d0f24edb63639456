// Subscription status of another user respects who a guest may see.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, updateRealm } from '../support/factories.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let shared: number;
let elsewhere: number;
const t = useTestServer();
const { guest, hidden } = useTeam(t, ['guest', 'hidden'], { hidden: { fullName: 'Hidden' } });

beforeAll(async () => {
  const owner = t.client(t.owner);
  shared = await makeChannel(owner, 'guest-room');
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'guest-room' }], principals: [guest.userId] });
  elsewhere = await makeChannel(owner, 'hidden-room');
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden-room' }], principals: [hidden.userId] });
  // Guests may see only the users they share a channel or a conversation with.
  const db = t.db;
  const user = await db.user.findUniqueOrThrow({ where: { id: guest.userId } });
  const members = await db.userGroup.findFirstOrThrow({ where: { realmId: user.realmId, name: 'role:members' } });
  await updateRealm(t, { can_access_all_users_group: { new: members.id } });
  // New users join the default channels: the guest keeps only the room shared with the owner.
  const joined: string[] = (await t.client(guest).get('/users/me/subscriptions')).body.subscriptions.map((s: { name: string }) => s.name);
  expect((await t.client(guest).delete('/users/me/subscriptions', { subscriptions: joined.filter((name) => name !== 'guest-room') })).status).toBe(200);
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('refuses a guest asking about a user they cannot access', async () => {
    const res = await t.client(guest).get(`/users/${hidden.userId}/subscriptions/${shared}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  });

  it('answers a guest about a user they share a channel with', async () => {
    const res = await t.client(guest).get(`/users/${t.owner.userId}/subscriptions/${shared}`);
    expect(res.status).toBe(200);
    expect(res.body.is_subscribed).toBe(true);
  });

  it('answers members about anyone', async () => {
    const res = await t.client(t.owner).get(`/users/${hidden.userId}/subscriptions/${elsewhere}`);
    expect(res.status).toBe(200);
    expect(res.body.is_subscribed).toBe(true);
  });
});
