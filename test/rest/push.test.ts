// Mobile push registration (spec: POST /mobile_push/register, the legacy device-token endpoints):
// the three forms (initial, key rotation, token rotation), every field's validation, automatic
// removal of the matching legacy token, PUSH_SERVICE_NOT_CONFIGURED, and per-user isolation.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.ts';
import { makeBot, makeUser, type MadeUser } from '../support/factories.ts';
import { tokenIdOf } from '../../resolvers/push/encoding.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const BOUNCER_KEY = randomBytes(32).toString('base64');
const OTHER_BOUNCER_KEY = randomBytes(32).toString('base64');

let deviceCounter = 1000;
const t = useTestServer({ pushNotificationsEnabled: true, pushBouncerPublicKeys: [BOUNCER_KEY, OTHER_BOUNCER_KEY] });
const { alice, bob } = useTeam(t, ['alice', 'bob']);

const pushKey = (byte = 0x31, length = 32) => Buffer.concat([Buffer.from([byte]), randomBytes(length)]).toString('base64');
const keyFields = (over: Record<string, unknown> = {}) => ({ push_key_id: 2408, push_key: pushKey(), ...over });
const tokenFields = (over: Record<string, unknown> = {}) => ({
  token_kind: 'android_push',
  token_id: randomBytes(8).toString('base64'),
  bouncer_public_key: BOUNCER_KEY,
  encrypted_push_registration: randomBytes(64).toString('base64'),
  ...over,
});
const nextDevice = () => ++deviceCounter;
const register = (u: MadeUser, params: Record<string, unknown>) => t.client(u).post('/mobile_push/register', params);
const devices = (u: MadeUser) => t.db.pushDevice.findMany({ where: { userId: u.userId }, orderBy: { id: 'asc' } });

async function expectBadRequest(u: MadeUser, params: Record<string, unknown>, msg?: string) {
  const before = await devices(u);
  const res = await register(u, params);
  expect(res.status, JSON.stringify(params)).toBe(400);
  expect(res.body.code).toBe('BAD_REQUEST');
  if (msg) expect(res.body.msg).toBe(msg);
  expect(await devices(u)).toEqual(before);
}

describe('POST /mobile_push/register: the three forms', () => {
  it('registers a device with the push-key fields and the token fields together', async () => {
    const device_id = nextDevice();
    const key = keyFields();
    const token = tokenFields();
    const res = await register(alice, { device_id, ...key, ...token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', msg: '' });
    const [row] = (await devices(alice)).filter((d) => d.deviceId === BigInt(device_id));
    expect(row).toMatchObject({
      pushKeyId: 2408n, tokenKind: 'android_push', tokenId: token.token_id,
      bouncerPublicKey: BOUNCER_KEY, encryptedPushRegistration: token.encrypted_push_registration,
    });
    expect(Buffer.from(row!.pushKey!).toString('base64')).toBe(key.push_key);
  });

  it('refuses a first registration with only one group of fields (no device to rotate)', async () => {
    const device_id = nextDevice();
    await expectBadRequest(alice, { device_id, ...keyFields() });
    await expectBadRequest(alice, { device_id, ...tokenFields() });
  });

  it('rotates the push key alone, keeping the token', async () => {
    const device_id = nextDevice();
    const token = tokenFields();
    await register(alice, { device_id, ...keyFields(), ...token });
    const newKey = keyFields({ push_key_id: 4294967295 });
    expect((await register(alice, { device_id, ...newKey })).status).toBe(200);
    const row = (await devices(alice)).find((d) => d.deviceId === BigInt(device_id))!;
    expect(row.pushKeyId).toBe(4294967295n);
    expect(Buffer.from(row.pushKey!).toString('base64')).toBe(newKey.push_key);
    expect(row.tokenId).toBe(token.token_id);
  });

  it('rotates the token alone, keeping the push key', async () => {
    const device_id = nextDevice();
    const key = keyFields();
    await register(alice, { device_id, ...key, ...tokenFields() });
    const newToken = tokenFields({ token_kind: 'ios_push', bouncer_public_key: OTHER_BOUNCER_KEY });
    expect((await register(alice, { device_id, ...newToken })).status).toBe(200);
    const row = (await devices(alice)).find((d) => d.deviceId === BigInt(device_id))!;
    expect(row).toMatchObject({ tokenKind: 'ios_push', tokenId: newToken.token_id, bouncerPublicKey: OTHER_BOUNCER_KEY, pushKeyId: 2408n });
    expect(Buffer.from(row.pushKey!).toString('base64')).toBe(key.push_key);
  });

  it('needs at least one group, and a whole group', async () => {
    await expectBadRequest(alice, { device_id: nextDevice() });
    const half = await register(alice, { device_id: nextDevice(), push_key: pushKey(), ...tokenFields() });
    expect(half.status).toBe(400);
    expect(half.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'push_key_id' });
    const { encrypted_push_registration: _, ...partialToken } = tokenFields();
    const halfToken = await register(alice, { device_id: nextDevice(), ...keyFields(), ...partialToken });
    expect(halfToken.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'encrypted_push_registration' });
  });

  it("keeps devices per user: another user's device ID is unknown to you", async () => {
    const device_id = nextDevice();
    await register(alice, { device_id, ...keyFields(), ...tokenFields() });
    await expectBadRequest(bob, { device_id, ...keyFields() });
    // The same device ID is free for Bob's own registration.
    expect((await register(bob, { device_id, ...keyFields(), ...tokenFields() })).status).toBe(200);
    expect((await devices(alice)).find((d) => d.deviceId === BigInt(device_id))!.userId).toBe(alice.userId);
  });

  it('accepts the parameters as JSON too', async () => {
    const res = await t.client(alice).post('/mobile_push/register', { device_id: nextDevice(), ...keyFields(), ...tokenFields() }, 'json');
    expect(res.status).toBe(200);
  });
});

describe('POST /mobile_push/register: field validation', () => {
  const full = (over: Record<string, unknown>) => ({ device_id: nextDevice(), ...keyFields(), ...tokenFields(), ...over });

  it('device_id: a required integer', async () => {
    for (const device_id of ['abc', '-1', '1.5', '', '99999999999999999999']) {
      await expectBadRequest(alice, full({ device_id }), 'Invalid device_id');
    }
    const { device_id: _, ...rest } = full({});
    const missing = await register(alice, rest);
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'device_id' });
  });

  it('push_key_id: an unsigned 32-bit integer', async () => {
    for (const push_key_id of ['4294967296', '-1', 'x', '1e3']) {
      await expectBadRequest(alice, full({ push_key_id }), 'Invalid push_key_id');
    }
    expect((await register(alice, full({ push_key_id: 0 }))).status).toBe(200);
  });

  it('push_key: strict standard Base64 of 0x31 and a 32-byte key', async () => {
    const good = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 0xfb)]);
    const bad = [
      pushKey(0x32), // another cryptosystem
      pushKey(0x31, 31), // short key
      pushKey(0x31, 33), // long key
      good.toString('base64url'), // URL-safe alphabet
      good.toString('base64').replace(/=+$/, '') + 'A', // wrong length
      Buffer.from([0x31]).toString('base64'), // no key at all
      'not base64!',
      '',
    ];
    for (const push_key of bad) await expectBadRequest(alice, full({ push_key }), 'Invalid push_key');
    expect((await register(alice, full({ push_key: good.toString('base64') }))).status).toBe(200);
  });

  it('token_kind: android_push or ios_push (Zulip clients\' fcm and apns too)', async () => {
    for (const token_kind of ['gcm', 'android', 'IOS_PUSH', '']) {
      await expectBadRequest(alice, full({ token_kind }), 'Invalid token_kind');
    }
    const device_id = nextDevice();
    expect((await register(alice, full({ device_id, token_kind: 'apns' }))).status).toBe(200);
    expect((await devices(alice)).find((d) => d.deviceId === BigInt(device_id))!.tokenKind).toBe('ios_push');
  });

  it('token_id: standard Base64 of exactly 8 bytes', async () => {
    for (const token_id of [randomBytes(7).toString('base64'), randomBytes(9).toString('base64'), 'hGsEWGmyyfI', 'hGsEWGmyyf==', '!!!!!!!!!!!=']) {
      await expectBadRequest(alice, full({ token_id }), 'Invalid token_id');
    }
  });

  it('bouncer_public_key: Base64 and one the server knows', async () => {
    for (const bouncer_public_key of [randomBytes(32).toString('base64'), 'bouncer-public-key', '']) {
      await expectBadRequest(alice, full({ bouncer_public_key }), 'Invalid bouncer_public_key');
    }
  });

  it('encrypted_push_registration: Base64', async () => {
    for (const encrypted_push_registration of ['encrypted-push-registration-data', 'abc', '']) {
      await expectBadRequest(alice, full({ encrypted_push_registration }), 'Invalid encrypted_push_registration');
    }
  });

  it('refuses bots', async () => {
    const bot = await makeBot(t, t.owner, { fullName: 'Pusher Bot' });
    await expectBadRequest(bot, full({}), 'This endpoint does not accept bot requests.');
  });

  it('needs credentials', async () => {
    expect((await t.client().post('/mobile_push/register', full({}))).status).toBe(401);
  });
});

describe('POST /mobile_push/register removes the matching legacy registration', () => {
  it("deletes the user's legacy token of the same kind whose token ID matches, and nothing else", async () => {
    const carol = await makeUser(t);
    const fcmToken = 'fcm-token-' + randomBytes(8).toString('hex');
    const apnsToken = randomBytes(32).toString('hex');
    expect((await t.client(carol).post('/users/me/android_gcm_reg_id', { token: fcmToken })).status).toBe(200);
    expect((await t.client(carol).post('/users/me/android_gcm_reg_id', { token: 'another-fcm-token' })).status).toBe(200);
    expect((await t.client(carol).post('/users/me/ios_push_device_token', { token: apnsToken, appid: 'org.zulip.Zulip' })).status).toBe(200);
    // Bob holds the same FCM token: his registration is not Carol's to remove.
    expect((await t.client(bob).post('/users/me/android_gcm_reg_id', { token: fcmToken })).status).toBe(200);

    const res = await register(carol, { device_id: nextDevice(), ...keyFields(), ...tokenFields({ token_kind: 'android_push', token_id: tokenIdOf(fcmToken) }) });
    expect(res.status).toBe(200);
    const left = await t.db.legacyPushToken.findMany({ where: { userId: { in: [carol.userId, bob.userId] } }, orderBy: { id: 'asc' } });
    expect(left.map((r) => [r.userId, r.kind, r.token])).toEqual(expect.arrayContaining([
      [carol.userId, 'fcm', 'another-fcm-token'], [carol.userId, 'apns', apnsToken], [bob.userId, 'fcm', fcmToken],
    ]));
    expect(left.filter((r) => r.userId === carol.userId && r.token === fcmToken)).toEqual([]);

    // An APNs registration with the FCM token's ID leaves the APNs legacy token alone; with its own ID, removes it.
    await register(carol, { device_id: nextDevice(), ...keyFields(), ...tokenFields({ token_kind: 'ios_push', token_id: tokenIdOf('another-fcm-token') }) });
    expect(await t.db.legacyPushToken.count({ where: { userId: carol.userId } })).toBe(2);
    await register(carol, { device_id: nextDevice(), ...keyFields(), ...tokenFields({ token_kind: 'ios_push', token_id: tokenIdOf(apnsToken) }) });
    expect((await t.db.legacyPushToken.findMany({ where: { userId: carol.userId } })).map((r) => r.token)).toEqual(['another-fcm-token']);
  });
});

describe('POST /mobile_push/register without a push service', () => {
  const bare = useTestServer();

  it('answers PUSH_SERVICE_NOT_CONFIGURED and stores nothing', async () => {
    const res = await bare.client(bare.owner).post('/mobile_push/register', { device_id: 1, ...keyFields(), ...tokenFields() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'PUSH_SERVICE_NOT_CONFIGURED', msg: 'Server is not configured to use push notification service.' });
    expect(await bare.db.pushDevice.count()).toBe(0);
    const settings = await bare.client().get('/server_settings');
    expect(settings.body.push_notifications_enabled).toBe(false);
  });

  it('reports push notifications as enabled where configured', async () => {
    const settings = await t.client().get('/server_settings');
    expect(settings.body.push_notifications_enabled).toBe(true);
  });
});

describe('Legacy device tokens', () => {
  const legacy = (u: MadeUser) => t.db.legacyPushToken.findMany({ where: { userId: u.userId }, orderBy: { id: 'asc' } });

  it('POST /users/me/ios_push_device_token stores a token with its app ID (also at apns_device_token)', async () => {
    const dave = await makeUser(t);
    const hex = randomBytes(32).toString('hex');
    const b64 = randomBytes(32).toString('base64');
    expect((await t.client(dave).post('/users/me/ios_push_device_token', { token: hex, appid: 'org.zulip.Zulip' })).status).toBe(200);
    expect((await t.client(dave).post('/users/me/apns_device_token', { token: b64, appid: 'com.example.app' })).status).toBe(200);
    expect((await legacy(dave)).map((r) => [r.kind, r.token, r.appId])).toEqual([['apns', hex, 'org.zulip.Zulip'], ['apns', b64, 'com.example.app']]);
  });

  it('refuses an empty or wrongly sized token, an invalid token, a missing or malformed appid', async () => {
    const erin = await makeUser(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ token: '', appid: 'org.zulip.Zulip' }, 'Empty or invalid length token'],
      [{ token: 'a'.repeat(4098), appid: 'org.zulip.Zulip' }, 'Empty or invalid length token'],
      [{ token: 'not a token!', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
      [{ token: 'abc', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
      [{ token: 'abcd', appid: 'not an app id' }, 'appid has invalid format'],
    ];
    for (const [params, msg] of cases) {
      const res = await t.client(erin).post('/users/me/ios_push_device_token', params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg });
    }
    const missing = await t.client(erin).post('/users/me/ios_push_device_token', { token: 'abcd' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'appid' });
    expect(await legacy(erin)).toEqual([]);
  });

  it('POST /users/me/android_gcm_reg_id stores a token; empty or oversized ones are refused', async () => {
    const frank = await makeUser(t);
    expect((await t.client(frank).post('/users/me/android_gcm_reg_id', { token: 'fcm:any text' })).status).toBe(200);
    // Registering the same token again is not an error.
    expect((await t.client(frank).post('/users/me/android_gcm_reg_id', { token: 'fcm:any text' })).status).toBe(200);
    for (const token of ['', 'x'.repeat(4097)]) {
      const res = await t.client(frank).post('/users/me/android_gcm_reg_id', { token });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('Empty or invalid length token');
    }
    expect((await legacy(frank)).map((r) => [r.kind, r.token])).toEqual([['fcm', 'fcm:any text']]);
  });

  it("DELETE removes one's own token; unknown or someone else's: Token does not exist", async () => {
    const gina = await makeUser(t);
    const hex = randomBytes(32).toString('hex');
    await t.client(gina).post('/users/me/ios_push_device_token', { token: hex, appid: 'org.zulip.Zulip' });
    await t.client(gina).post('/users/me/android_gcm_reg_id', { token: 'gina-fcm' });
    for (const [path, token] of [['/users/me/ios_push_device_token', hex], ['/users/me/android_gcm_reg_id', 'gina-fcm']] as const) {
      const foreign = await t.client(bob).delete(path, { token });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Token does not exist' });
    }
    // The kinds are separate: the FCM token is not an APNs token.
    expect((await t.client(gina).delete('/users/me/apns_device_token', { token: 'abcd' })).body.msg).toBe('Token does not exist');
    expect((await legacy(gina))).toHaveLength(2);
    expect((await t.client(gina).delete('/users/me/ios_push_device_token', { token: hex })).status).toBe(200);
    expect((await t.client(gina).delete('/users/me/android_gcm_reg_id', { token: 'gina-fcm' })).status).toBe(200);
    expect(await legacy(gina)).toEqual([]);
    const empty = await t.client(gina).delete('/users/me/android_gcm_reg_id', { token: '' });
    expect(empty.body.msg).toBe('Empty or invalid length token');
  });
});

describe('POST /mobile_push/test_notification', () => {
  it('checks the token is the user\'s, then that the user has a device; delivery answers PUSH_SERVICE_NOT_CONFIGURED', async () => {
    const hana = await makeUser(t);
    const c = t.client(hana);
    expect((await c.post('/mobile_push/test_notification')).body).toMatchObject({ code: 'NO_ACTIVE_PUSH_DEVICE', msg: 'No active registered push device' });
    await t.client(bob).post('/users/me/android_gcm_reg_id', { token: 'bobs-token' });
    const foreign = await c.post('/mobile_push/test_notification', { token: 'bobs-token' });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: 'INVALID_PUSH_DEVICE_TOKEN', msg: 'Device not recognized' });
    await c.post('/users/me/android_gcm_reg_id', { token: 'hanas-token' });
    expect((await c.post('/mobile_push/test_notification', { token: 'hanas-token' })).body).toMatchObject({ code: 'PUSH_SERVICE_NOT_CONFIGURED' });
  });

  it('answers PUSH_SERVICE_NOT_CONFIGURED when push is off', async () => {
    const off = await startTestServer();
    try {
      const res = await off.client(off.owner).post('/mobile_push/test_notification');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'PUSH_SERVICE_NOT_CONFIGURED', msg: 'Server is not configured to use push notification service.' });
    } finally {
      await off.close();
    }
  });
});
