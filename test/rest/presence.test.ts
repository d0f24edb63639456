import { afterAll, describe, expect, it } from 'vitest';
import { makeOtherRealmOwner, makeUser, leaveAllChannels, subscribeUsers, updateRealm } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);
const bot = useBot(t, alice, { fullName: 'Presence Bot' });

async function report(who: Credentials, params: Record<string, unknown> = {}) {
  const res = await t.client(who).post('/users/me/presence', { status: 'active', ...params });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Moves a user's last reports into the past, as if they had gone quiet. */
async function age(who: Credentials, seconds: number) {
  const when = new Date(Date.now() - seconds * 1000);
  await t.db.userPresence.update({ where: { userId: who.userId }, data: { lastConnectedTime: when, lastActiveTime: when } });
}

const register = (client: ApiClient, params: Record<string, unknown> = {}) => registerQueue(client, { event_types: ['presence'], fetch_event_types: ['presence'], ...params });

const poll = async (client: ApiClient, queueId: string) => withoutIds(await allEvents(client, queueId));

function expectError(res: { status: number; body: any }, msg: string) {
  expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
  expect(res.status).toBe(400);
}

async function setPresenceEnabled(who: Credentials, enabled: boolean) {
  expect((await t.client(who).post('/users/me/status', { away: !enabled })).status).toBe(200);
}

describe('POST /users/me/presence', () => {
  it('records the report and returns everyone\'s presence in the legacy format by default', async () => {
    await report(bob);
    const body = await report(alice);
    expect(typeof body.server_timestamp).toBe('number');
    expect(Object.keys(body.presences).sort()).toEqual([alice.email, bob.email].sort());
    const entry = body.presences[alice.email];
    expect(entry.aggregated).toMatchObject({ client: 'website', status: 'active' });
    expect(entry.website).toMatchObject({ client: 'website', status: 'active', pushable: false });
    expect(Math.abs(entry.website.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(body.presence_last_update_id).toBeGreaterThan(0);
  });

  it('answers in the modern format, keyed by user ID, with slim_presence', async () => {
    const body = await report(alice, { slim_presence: true });
    const entry = body.presences[String(bob.userId)];
    expect(Object.keys(entry).sort()).toEqual(['active_timestamp', 'idle_timestamp']);
    expect(body.presences[bob.email]).toBeUndefined();
  });

  it('reports idle without touching the last active time', async () => {
    await report(carol);
    await age(carol, 600);
    const before = await t.db.userPresence.findUniqueOrThrow({ where: { userId: carol.userId } });
    const body = await report(carol, { status: 'idle', slim_presence: true });
    const mine = body.presences[String(carol.userId)];
    expect(mine.active_timestamp).toBe(Math.floor(before.lastActiveTime!.getTime() / 1000));
    expect(mine.idle_timestamp).toBeGreaterThan(mine.active_timestamp);
    const legacy = await report(alice);
    expect(legacy.presences[carol.email].aggregated.status).toBe('idle');
  });

  it('fetches only what changed since last_update_id, always in the modern format', async () => {
    const first = await report(alice, { last_update_id: -1 });
    expect(first.presences[String(alice.userId)]).toBeDefined();
    const again = await report(carol, { last_update_id: first.presence_last_update_id, ping_only: false });
    // Only Carol's own report is newer than what Alice's fetch saw.
    expect(Object.keys(again.presences)).toEqual([String(carol.userId)]);
    expect(again.presence_last_update_id).toBeGreaterThan(first.presence_last_update_id);
    const nothing = await t.client(alice).post('/users/me/presence', { status: 'idle', ping_only: true });
    expect(nothing.body).toEqual({ result: 'success', msg: '' });
    const latest = await report(bob, { last_update_id: again.presence_last_update_id });
    expect(Object.keys(latest.presences).sort()).toEqual([String(alice.userId), String(bob.userId)].sort());
  });

  it('returns only result and msg with ping_only', async () => {
    const res = await t.client(alice).post('/users/me/presence', { status: 'active', ping_only: true });
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });

  it('limits history to 14 days unless history_limit_days asks for more', async () => {
    await report(carol);
    await age(carol, 20 * 86400);
    expect((await report(alice, { slim_presence: true })).presences[String(carol.userId)]).toBeUndefined();
    expect((await report(alice, { slim_presence: true, history_limit_days: 30 })).presences[String(carol.userId)]).toBeDefined();
    expect((await report(alice, { slim_presence: true, history_limit_days: 10 })).presences[String(carol.userId)]).toBeUndefined();
  });

  describe('refuses (400, nothing recorded)', () => {
    it('an unknown status', async () => {
      expectError(await t.client(carol).post('/users/me/presence', { status: 'away' }), 'Invalid status: away');
    });
    it('a missing status', async () => {
      const res = await t.client(carol).post('/users/me/presence', {});
      expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'status' });
    });
    it('a last_update_id that is not an integer', async () => {
      expectError(await t.client(carol).post('/users/me/presence', { status: 'active', last_update_id: 1.5 }), 'last_update_id is not an integer');
      expectError(await t.client(carol).post('/users/me/presence', { status: 'active', last_update_id: '"x"' }), 'last_update_id is not an integer');
    });
    it('bots', async () => {
      expectError(await t.client(bot).post('/users/me/presence', { status: 'active' }), 'This endpoint does not accept bot requests.');
      expect(await t.db.userPresence.findUnique({ where: { userId: bot.userId } })).toBeNull();
    });
    afterAll(async () => {
      // Carol's row is still the aged one: none of the refused requests wrote.
      const row = await t.db.userPresence.findUniqueOrThrow({ where: { userId: carol.userId } });
      expect(Date.now() - row.lastConnectedTime!.getTime()).toBeGreaterThan(19 * 86400_000);
    });
  });
});

describe('presence events', () => {
  it('go out when a user comes online, modern for simplified_presence_events, legacy otherwise', async () => {
    await report(bob);
    await age(bob, 600);
    const modern = await register(t.client(alice), { client_capabilities: { simplified_presence_events: true } });
    const legacy = await register(t.client(carol));
    await report(bob);
    const [m] = await poll(t.client(alice), modern.queue_id);
    expect(Object.keys(m)).toEqual(['type', 'presences']);
    expect(Object.keys(m.presences)).toEqual([String(bob.userId)]);
    const [l] = await poll(t.client(carol), legacy.queue_id);
    expect(l).toMatchObject({ type: 'presence', user_id: bob.userId, email: bob.email, presence: { website: { client: 'website', status: 'active', pushable: false } } });
    expect(l.presences).toBeUndefined();
  });

  it('are not sent for reports of a user who is already online', async () => {
    await report(bob);
    const q = await register(t.client(alice), { client_capabilities: { simplified_presence_events: true } });
    await report(bob);
    await report(bob, { status: 'idle' });
    expect(await poll(t.client(alice), q.queue_id)).toEqual([]);
  });

  it('are sent when an idle user becomes active again', async () => {
    await report(bob);
    // Written directly: only time makes a user idle.
    await t.db.userPresence.update({ where: { userId: bob.userId }, data: { lastActiveTime: new Date(Date.now() - 600_000) } });
    const q = await register(t.client(alice));
    await report(bob, { status: 'idle' });
    expect(await poll(t.client(alice), q.queue_id)).toEqual([]);
    await report(bob, { status: 'active' });
    expect((await poll(t.client(alice), q.queue_id)).map((e) => e.user_id)).toEqual([bob.userId]);
  });
});

describe('presence_enabled off (invisible)', () => {
  it('hides the user from everyone and sends no events', async () => {
    await setPresenceEnabled(bob, false);
    try {
      await age(bob, 600);
      const q = await register(t.client(alice), { slim_presence: true });
      expect(q.presences[String(bob.userId)]).toBeUndefined();
      await report(bob);
      expect(await poll(t.client(alice), q.queue_id)).toEqual([]);
      expect((await report(alice, { slim_presence: true })).presences[String(bob.userId)]).toBeUndefined();
      expect((await t.client(alice).get('/realm/presence')).body.presences[bob.email]).toBeUndefined();
      expectError(await t.client(alice).get(`/users/${bob.userId}/presence`), `No presence data for ${bob.userId}`);
    } finally {
      await setPresenceEnabled(bob, true);
    }
    expect((await report(alice, { slim_presence: true })).presences[String(bob.userId)]).toBeDefined();
  });
});

describe('turning presence_enabled on or off', () => {
  it('is announced at once: offline (just past the threshold) when turned off, active when turned on', async () => {
    await report(carol);
    const modern = await register(t.client(alice), { client_capabilities: { simplified_presence_events: true } });
    const legacy = await register(t.client(bob));
    await setPresenceEnabled(carol, false);
    const now = Date.now() / 1000;
    const [off] = await poll(t.client(alice), modern.queue_id);
    const offline = off.presences[String(carol.userId)];
    expect(now - offline.idle_timestamp).toBeGreaterThan(140);
    expect(now - offline.idle_timestamp).toBeLessThan(400);
    const [offLegacy] = await poll(t.client(bob), legacy.queue_id);
    expect(offLegacy).toMatchObject({ type: 'presence', user_id: carol.userId, presence: { website: { status: 'idle' } } });

    await setPresenceEnabled(carol, true);
    const events = await poll(t.client(alice), modern.queue_id);
    const on = events[events.length - 1].presences[String(carol.userId)];
    expect(Math.abs(on.active_timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect((await report(alice, { slim_presence: true })).presences[String(carol.userId)]).toEqual(on);
  });
});

describe('GET /users/{user_id_or_email}/presence', () => {
  it('gives the website and aggregated presence, by ID or email', async () => {
    await report(bob);
    for (const key of [String(bob.userId), bob.email]) {
      const res = await t.client(alice).get(`/users/${encodeURIComponent(key)}/presence`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.presence.website.status).toBe('active');
      expect(res.body.presence.aggregated).toEqual(res.body.presence.website);
    }
  });

  it('says offline in the aggregate once the last report is old', async () => {
    await report(carol, { status: 'idle' });
    await age(carol, 3600);
    const res = await t.client(alice).get(`/users/${carol.userId}/presence`);
    expect(res.body.presence.aggregated.status).toBe('offline');
    expect(res.body.presence.website.status).toBe('active');
  });

  it('refuses unknown users, bots, users without presence data and other organizations\' users', async () => {
    const quiet = await makeUser(t, { fullName: 'Quiet' });
    expectError(await t.client(alice).get('/users/999999/presence'), 'No such user');
    expectError(await t.client(alice).get('/users/nobody@example.com/presence'), 'No such user');
    expectError(await t.client(alice).get(`/users/${bot.userId}/presence`), 'Presence is not supported for bot users.');
    expectError(await t.client(alice).get(`/users/${quiet.email}/presence`), `No presence data for ${quiet.email}`);
    // The owner of another organization, with presence data of their own there.
    const stranger = await makeOtherRealmOwner(t, 'elsewhere');
    expect((await t.client(stranger, stranger.host).post('/users/me/presence', { status: 'active' })).status).toBe(200);
    expect((await t.client(stranger, stranger.host).get(`/users/${stranger.userId}/presence`)).status).toBe(200);
    expectError(await t.client(alice).get(`/users/${stranger.userId}/presence`), 'No such user');
    expect((await t.client(alice).get('/realm/presence')).body.presences[stranger.email]).toBeUndefined();
    expect((await t.db.user.findUniqueOrThrow({ where: { id: stranger.userId } })).realmId).not.toBe(t.realmId);
  });
});

describe('GET /realm/presence', () => {
  it('lists the legacy format without presence_last_update_id', async () => {
    await report(alice);
    const res = await t.client(bob).get('/realm/presence');
    expect(res.status).toBe(200);
    expect(res.body.presences[alice.email].aggregated.status).toBe('active');
    expect(res.body.presence_last_update_id).toBeUndefined();
    expect(typeof res.body.server_timestamp).toBe('number');
  });
});

describe('guests who may not see everyone', () => {
  it('see and hear only the users they can access', async () => {
    const realm = await t.db.realm.findUniqueOrThrow({ where: { id: t.realmId } });
    const members = await t.db.userGroup.findFirstOrThrow({ where: { realmId: t.realmId, name: 'role:members' } });
    await updateRealm(t, { can_access_all_users_group: { new: members.id } });
    const channels = await leaveAllChannels(t, guest);
    try {
      await age(bob, 600);
      const q = await register(t.client(guest), { slim_presence: true });
      expect(q.presences[String(bob.userId)]).toBeUndefined();
      await report(bob);
      expect(await poll(t.client(guest), q.queue_id)).toEqual([]);
      const own = await report(guest, { slim_presence: true });
      expect(Object.keys(own.presences)).toEqual([String(guest.userId)]);
      expectError(await t.client(guest).get(`/users/${bob.userId}/presence`), 'Insufficient permission');
    } finally {
      await subscribeUsers(t, channels, [guest.userId]);
      await updateRealm(t, { can_access_all_users_group: { new: realm.canAccessAllUsersGroupId } });
    }
  });
});

describe('POST /register presences', () => {
  it('agree with POST /users/me/presence in both formats, with the same presence_last_update_id', async () => {
    await report(bob);
    const fetched = await report(alice, { last_update_id: -1 });
    const slim = await register(t.client(alice), { slim_presence: true });
    expect(slim.presences).toEqual(fetched.presences);
    expect(slim.presence_last_update_id).toBe(fetched.presence_last_update_id);
    const legacy = await register(t.client(alice));
    const legacyFetched = await report(alice);
    expect(Object.keys(legacy.presences).sort()).toEqual(Object.keys(legacyFetched.presences).sort());
    const modernCapable = await register(t.client(alice), { client_capabilities: { simplified_presence_events: true } });
    expect(Object.keys(modernCapable.presences)).toContain(String(bob.userId));
    const limited = await register(t.client(alice), { slim_presence: true, presence_history_limit_days: 1 });
    expect(Object.keys(limited.presences)).toContain(String(bob.userId));
    await report(carol);
    await age(carol, 20 * 86400);
    expect((await register(t.client(alice), { slim_presence: true })).presences[String(carol.userId)]).toBeUndefined();
    expect((await register(t.client(alice), { slim_presence: true, presence_history_limit_days: 30 })).presences[String(carol.userId)]).toBeDefined();
    expect((await report(alice, { slim_presence: true, history_limit_days: 30 })).presences[String(carol.userId)]).toBeDefined();
  });
});
