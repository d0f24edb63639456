import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from '../support/server.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

// With Gravatar enabled, so that client_gravatar leaves default avatars to the client (test/rest/avatars.test.ts: without).
const t = useTestServer({ gravatarEnabled: true });
const owner = t.ownerClient;
const { alice, admin } = useTeam(t, ['alice', 'admin']);

describe('GET /users/me', () => {
  it('describes the caller', async () => {
    const res = await t.client(alice).get('/users/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: alice.userId, email: alice.email, full_name: 'Alice Liddell', role: 400,
      is_admin: false, is_owner: false, is_guest: false, is_bot: false, is_active: true, max_message_id: -1,
    });
    expect(res.body.avatar_url).toMatch(/gravatar/);
  });

  it('reports owners as owners and administrators', async () => {
    const res = await owner.get('/users/me');
    expect(res.body).toMatchObject({ email: ADMIN_EMAIL, role: 100, is_owner: true, is_admin: true });
  });
});

describe('GET /users', () => {
  it('lists everyone in the organization, with computed gravatars left null by default', async () => {
    const res = await t.client(alice).get('/users');
    expect(res.status).toBe(200);
    const ids = res.body.members.map((u: { user_id: number }) => u.user_id);
    expect(ids).toEqual(expect.arrayContaining([t.owner.userId, alice.userId, admin.userId]));
    expect(res.body.members[0].avatar_url).toBeNull();
    expect(res.body.members[0].profile_data).toBeUndefined();
  });

  it('includes avatar URLs with client_gravatar=false and profile data on request', async () => {
    const res = await t.client(alice).get('/users', { client_gravatar: false, include_custom_profile_fields: true });
    expect(res.body.members[0].avatar_url).toMatch(/gravatar/);
    expect(res.body.members[0].profile_data).toEqual({});
  });
});

describe('GET /users/{user_id} and /users/{email}', () => {
  it('finds a user by ID or email', async () => {
    const byId = await t.client(alice).get(`/users/${admin.userId}`);
    expect(byId.body.user).toMatchObject({ user_id: admin.userId, role: 200, is_admin: true });
    const byEmail = await t.client(alice).get(`/users/${encodeURIComponent(admin.email)}`);
    expect(byEmail.body.user.user_id).toBe(admin.userId);
  });

  it('reports unknown users', async () => {
    const res = await t.client(alice).get('/users/999999');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  it('does not find users of another organization', async () => {
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    const { owner: other } = await createRealm(t.db, { stringId: 'elsewhere', name: 'Elsewhere', ownerEmail: 'x@elsewhere.example.com', ownerPassword: 'pw-elsewhere' });
    const res = await t.client(alice).get(`/users/${other.id}`);
    expect(res.status).toBe(400);
    const list = await t.client(alice).get('/users');
    expect(list.body.members.map((u: { user_id: number }) => u.user_id)).not.toContain(other.id);
  });
});

describe('POST /users', () => {
  it('lets administrators create users who can then log in', async () => {
    const res = await t.client(admin).post('/users', { email: 'newbie@example.com', password: 'newbie-pass', full_name: 'New Bie' });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBeGreaterThan(0);
    const key = await t.client().post('/fetch_api_key', { username: 'newbie@example.com', password: 'newbie-pass' });
    expect(key.body.user_id).toBe(res.body.user_id);
  });

  it('new users join the default channels', async () => {
    const res = await owner.post('/users', { email: 'joiner@example.com', password: 'joiner-pass', full_name: 'Joiner' });
    const key = await t.client().post('/fetch_api_key', { username: 'joiner@example.com', password: 'joiner-pass' });
    const subs = await t.client({ email: key.body.email, apiKey: key.body.api_key, userId: res.body.user_id }).get('/users/me/subscriptions');
    expect(subs.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['general']);
  });

  it('refuses members', async () => {
    const res = await t.client(alice).post('/users', { email: 'sneaky@example.com', password: 'x', full_name: 'Sneaky' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Must be an organization administrator');
  });

  it('refuses a duplicate or invalid email, a bad name and missing fields', async () => {
    expect((await owner.post('/users', { email: alice.email.toUpperCase(), password: 'x', full_name: 'Dup' })).body.msg).toContain('already in use');
    expect((await owner.post('/users', { email: 'not-an-email', password: 'x', full_name: 'Bad' })).body.msg).toBe('Invalid address: not-an-email');
    expect((await owner.post('/users', { email: 'ok@example.com', password: 'x', full_name: '  ' })).body.msg).toBe('Name too short!');
    expect((await owner.post('/users', { email: 'ok@example.com', password: 'x', full_name: 'a@b' })).body.msg).toBe('Invalid characters in name!');
    expect((await owner.post('/users', { email: 'ok@example.com', full_name: 'x' })).body.msg).toBe("Missing 'password' argument");
  });
});
