import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import { rawRequest } from '../support/client.ts';
import { makeUser, deactivate } from '../support/factories.ts';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

describe('GET /server_settings', () => {
  it('answers without authentication with the feature level and realm', async () => {
    const res = await t.client().get('/server_settings');
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('success');
    expect(res.body.zulip_feature_level).toBe(496);
    expect(res.body.realm_name).toBe('Test Org');
    expect(res.body.authentication_methods.password).toBe(true);
    expect(res.body.authentication_methods.dev).toBe(false);
    expect(res.body.push_notifications_enabled).toBe(false);
  });
});

describe('POST /fetch_api_key', () => {
  it('returns the API key for the right password', async () => {
    const res = await t.client().post('/fetch_api_key', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', email: ADMIN_EMAIL, user_id: t.owner.userId });
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('accepts multipart form data, as zulip-js sends it', async () => {
    const res = await t.client().post('/fetch_api_key', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD }, 'multipart');
    expect(res.status).toBe(200);
    expect(res.body.api_key).toBe(t.owner.apiKey);
  });

  it('refuses a wrong password with 401', async () => {
    const res = await t.client().post('/fetch_api_key', { username: ADMIN_EMAIL, password: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: 'error', code: 'AUTHENTICATION_FAILED' });
  });

  it('refuses an unknown email the same way', async () => {
    const res = await t.client().post('/fetch_api_key', { username: 'nobody@example.com', password: 'x' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTHENTICATION_FAILED');
  });

  it('does not treat the email as a pattern', async () => {
    const res = await t.client().post('/fetch_api_key', { username: 'owner%', password: ADMIN_PASSWORD });
    expect(res.status).toBe(401);
  });

  it('names a missing parameter', async () => {
    const res = await t.client().post('/fetch_api_key', { username: ADMIN_EMAIL });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg: "Missing 'password' argument", code: 'REQUEST_VARIABLE_MISSING' });
  });

  it('refuses a deactivated user', async () => {
    const user = await makeUser(t);
    await deactivate(t, user.userId);
    const res = await t.client().post('/fetch_api_key', { username: user.email, password: 'pw-' + user.email });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('USER_DEACTIVATED');
  });
});

describe('POST /dev_fetch_api_key', () => {
  it('does not exist unless development mode is on', async () => {
    const res = await t.client().post('/dev_fetch_api_key', { username: ADMIN_EMAIL });
    expect(res.status).toBe(404);
    expect(res.body.result).toBe('error');
  });
});

describe('HTTP Basic authentication', () => {
  it('is required, with a Zulip error body and WWW-Authenticate', async () => {
    const res = await t.client().get('/users/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  // Zulip's REST views answer every refused credential as UNAUTHORIZED, with the reason in msg.
  it('refuses a wrong API key', async () => {
    const res = await t.client({ ...t.owner, apiKey: 'x'.repeat(32) }).get('/users/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('refuses a right key with the wrong email', async () => {
    const other = await makeUser(t);
    const res = await t.client({ ...t.owner, email: other.email }).get('/users/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
  });

  it('refuses a malformed Authorization header', async () => {
    const res = await rawRequest('GET', `${t.baseUrl}/api/v1/users/me`, { authorization: 'Basic !!!' });
    expect(res.status).toBe(401);
    expect(res.body.result).toBe('error');
  });

  it('refuses deactivated users', async () => {
    const user = await makeUser(t);
    await deactivate(t, user.userId);
    const res = await t.client(user).get('/users/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
  });

  it('refuses users of a deactivated organization', async () => {
    const user = await makeUser(t);
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
    // Written directly: only a server administrator reactivates an organization, so the API could not undo it.
    await db.realm.update({ where: { id: realm.id }, data: { deactivated: true } });
    try {
      const res = await t.client(user).get('/users/me');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'This organization has been deactivated' });
    } finally {
      await db.realm.update({ where: { id: realm.id }, data: { deactivated: false } });
    }
  });
});

describe('Unknown endpoints', () => {
  it('get a JSON 404', async () => {
    const res = await t.client(t.owner).get('/no/such/endpoint');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });
});

describe('ignored_parameters_unsupported', () => {
  it('lists parameters the endpoint does not take', async () => {
    const res = await t.client(t.owner).get('/users/me', { bogus: 1, other: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['bogus', 'other']);
  });
});
