import { describe, expect, it } from 'vitest';
import { makeBot, leaveAllChannels, subscribeUsers, updateRealm } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { unicodeEmojiByName } from '../../resolvers/emoji/unicode.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const SMILE = unicodeEmojiByName('smile')!.code;

const t = useTestServer();
const { alice, bob, admin, moderator, guest } = useTeam(t, ['alice', 'bob', 'admin', 'moderator', 'guest']);

const register = (client: ApiClient, params: Record<string, unknown> = {}) => registerQueue(client, { event_types: ['user_status', 'user_settings'], fetch_event_types: ['user_status'], ...params });

async function statusOf(user: Credentials, viewer: Credentials = t.owner) {
  const res = await t.client(viewer).get(`/users/${user.userId}/status`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.status;
}

function expectError(res: { status: number; body: any }, msg: string, status = 400) {
  expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
  expect(res.status).toBe(status);
}

describe('POST /users/me/status', () => {
  it('sets text and emoji, and GET /users/{user_id}/status shows them', async () => {
    const res = await t.client(alice).post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await statusOf(alice, bob)).toEqual({ status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  });

  it('changes only the parameters passed', async () => {
    await t.client(alice).post('/users/me/status', { status_text: 'in a meeting' });
    expect(await statusOf(alice)).toEqual({ status_text: 'in a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    await t.client(alice).post('/users/me/status', { emoji_name: 'smile' });
    expect(await statusOf(alice)).toMatchObject({ status_text: 'in a meeting', emoji_name: 'smile', emoji_code: SMILE });
  });

  it('clears the text and the emoji with empty strings', async () => {
    await t.client(alice).post('/users/me/status', { emoji_name: '' });
    expect(await statusOf(alice)).toEqual({ status_text: 'in a meeting' });
    await t.client(alice).post('/users/me/status', { status_text: '' });
    expect(await statusOf(alice)).toEqual({});
  });

  it('trims the text and counts Unicode code points, not UTF-16 units', async () => {
    const sixtyEmoji = '😀'.repeat(60);
    const res = await t.client(bob).post('/users/me/status', { status_text: `  ${sixtyEmoji}  ` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await statusOf(bob)).status_text).toBe(sixtyEmoji);
  });

  it('accepts the explicit code and type of Unicode, custom-less `zulip` and checks them', async () => {
    const ok = await t.client(bob).post('/users/me/status', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await statusOf(bob)).toMatchObject({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    const unicode = await t.client(bob).post('/users/me/status', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect(unicode.status).toBe(200);
  });

  describe('validation (400 BAD_REQUEST, nothing written)', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['no new values', {}, 'Client did not pass any new values.'],
      ['only emoji_code', { emoji_code: '1f697' }, 'Client did not pass any new values.'],
      ['text over 60 code points', { status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
      ['emoji_code without emoji_name', { status_text: 'In a meeting', emoji_code: '1f4bb' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      ['reaction_type without emoji_name', { status_text: 'In a meeting', reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      ['an emoji name that does not exist', { emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
      ['an unknown name with a code', { status_text: 'x', emoji_code: '1f4bb', emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
      ['a name that does not match the code', { emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
      ['a name with the wrong code (type looked up)', { emoji_code: '1f4bb', emoji_name: 'car' }, 'Invalid emoji name.'],
      ['a Unicode code that does not exist', { emoji_code: 'ffffff', emoji_name: 'car', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
      ['an unknown custom emoji', { emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
      ['a bad zulip extra emoji code', { emoji_code: 'nope', emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code.'],
      ['an unknown reaction type', { emoji_code: '1f697', emoji_name: 'car', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ];
    for (const [what, params, msg] of cases) {
      it(`refuses ${what}`, async () => {
        await t.client(moderator).post('/users/me/status', { status_text: 'before', emoji_name: 'smile' });
        const queue = await register(t.client(bob));
        const res = await t.client(moderator).post('/users/me/status', params);
        expectError(res, msg);
        expect(await statusOf(moderator)).toEqual({ status_text: 'before', emoji_name: 'smile', emoji_code: SMILE, reaction_type: 'unicode_emoji' });
        expect(await allEvents(t.client(bob), queue.queue_id)).toEqual([]);
      });
    }
  });

  it('is not for bots', async () => {
    const db = t.db;
    const bot = await makeBot(t, alice, { fullName: 'Status Bot' });
    const res = await t.client(bot).post('/users/me/status', { status_text: 'beep' });
    expectError(res, 'This endpoint does not accept bot requests.');
    expect(await db.userStatus.findUnique({ where: { userId: bot.userId } })).toBeNull();
  });

  it('needs credentials', async () => {
    const res = await t.client().post('/users/me/status', { status_text: 'x' });
    expect(res.status).toBe(401);
  });
});

describe('user_status events', () => {
  it('reach the realm with only the values that changed', async () => {
    const queues = await Promise.all([alice, bob, admin].map(async (u) => ({ u, q: await register(t.client(u)) })));
    await t.client(bob).post('/users/me/status', { status_text: 'lunch', emoji_name: 'car' });
    await t.client(bob).post('/users/me/status', { status_text: 'still lunch' });
    for (const { u, q } of queues) {
      const events = await allEvents(t.client(u), q.queue_id);
      expect(events.map(({ id: _id, ...e }) => e)).toEqual([
        { type: 'user_status', user_id: bob.userId, status_text: 'lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
        { type: 'user_status', user_id: bob.userId, status_text: 'still lunch' },
      ]);
    }
  });

  it('do not reach guests who cannot access the user', async () => {
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { id: (await db.user.findUniqueOrThrow({ where: { id: guest.userId } })).realmId } });
    const members = await db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: 'role:members' } });
    const before = realm.canAccessAllUsersGroupId;
    await updateRealm(t, { can_access_all_users_group: { new: members.id } });
    // A guest sharing no channel and no conversation with Bob.
    const channels = await leaveAllChannels(t, guest);
    try {
      const bot = await makeBot(t, alice, { fullName: 'Visible Bot' });
      const q = await register(t.client(guest));
      await t.client(bob).post('/users/me/status', { status_text: 'hidden from guests' });
      await t.client(guest).post('/users/me/status', { status_text: 'guest here' });
      // Bots stay accessible to every guest, as in the register response.
      await t.client(admin).post(`/users/${bot.userId}/status`, { status_text: 'beeping' });
      const events = await allEvents(t.client(guest), q.queue_id);
      expect(events.map((e) => e.user_id)).toEqual([guest.userId, bot.userId]);
      expect((await t.client(guest).get(`/users/${bot.userId}/status`)).status).toBe(200);
      const read = await t.client(guest).get(`/users/${bob.userId}/status`);
      expectError(read, 'Insufficient permission');
    } finally {
      await subscribeUsers(t, channels, [guest.userId]);
      await updateRealm(t, { can_access_all_users_group: { new: before } });
    }
  });
});

describe('the deprecated away', () => {
  it('sets presence_enabled to its negation, with a user_settings event to the user', async () => {
    const mine = await register(t.client(alice));
    const theirs = await register(t.client(bob));
    const res = await t.client(alice).post('/users/me/status', { away: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const settings = await t.client(alice).post('/register', { fetch_event_types: ['user_settings', 'user_status'] });
    expect(settings.body.user_settings.presence_enabled).toBe(false);
    expect(settings.body.user_status[String(alice.userId)]).toEqual({ away: true });
    expect(await statusOf(alice, bob)).toEqual({ away: true });
    const own = await allEvents(t.client(alice), mine.queue_id);
    expect(own.map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { type: 'user_status', user_id: alice.userId, away: true },
    ]);
    const others = await allEvents(t.client(bob), theirs.queue_id);
    expect(others.map(({ id: _id, ...e }) => e)).toEqual([{ type: 'user_status', user_id: alice.userId, away: true }]);

    await t.client(alice).post('/users/me/status', { away: false });
    expect(await statusOf(alice)).toEqual({});
    const back = await t.client(alice).post('/register', { fetch_event_types: ['user_settings'] });
    expect(back.body.user_settings.presence_enabled).toBe(true);
  });

  it('is refused when not a boolean', async () => {
    const res = await t.client(alice).post('/users/me/status', { away: 'maybe' });
    expect(res.status).toBe(400);
  });
});

describe('POST /users/{user_id}/status', () => {
  it('lets organization administrators and owners change another user\'s status', async () => {
    for (const actor of [admin, t.owner]) {
      const text = `set by ${actor.userId}`;
      const res = await t.client(actor).post(`/users/${bob.userId}/status`, { status_text: text, emoji_name: 'smile' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await statusOf(bob)).toMatchObject({ status_text: text, emoji_name: 'smile' });
    }
  });

  it('refuses everyone else with Insufficient permission, writing nothing', async () => {
    await t.client(bob).post('/users/me/status', { status_text: 'mine' });
    for (const actor of [moderator, alice, guest, bob]) {
      const res = await t.client(actor).post(`/users/${bob.userId}/status`, { status_text: 'hijacked' });
      expectError(res, 'Insufficient permission');
    }
    expect((await statusOf(bob)).status_text).toBe('mine');
  });

  it('applies the same validation', async () => {
    expectError(await t.client(admin).post(`/users/${bob.userId}/status`, {}), 'Client did not pass any new values.');
    expectError(await t.client(admin).post(`/users/${bob.userId}/status`, { status_text: 'y'.repeat(61) }), 'status_text is too long (limit: 60 characters)');
    expectError(await t.client(admin).post(`/users/${bob.userId}/status`, { emoji_name: 'nope' }), "Emoji 'nope' does not exist");
  });

  it('does not take away (it is the user\'s own setting)', async () => {
    const res = await t.client(admin).post(`/users/${bob.userId}/status`, { status_text: 'x', away: true });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['away']);
    expect(await statusOf(bob)).toEqual({ status_text: 'x', emoji_name: 'smile', emoji_code: SMILE, reaction_type: 'unicode_emoji' });
  });

  it('knows no users of other organizations', async () => {
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    const { owner: stranger } = await createRealm(t.db, { stringId: 'elsewhere', name: 'Elsewhere', ownerEmail: 'x@elsewhere.example.com', ownerPassword: 'pw-elsewhere' });
    expectError(await t.client(admin).post(`/users/${stranger.id}/status`, { status_text: 'x' }), 'No such user');
    expectError(await t.client(admin).get(`/users/${stranger.id}/status`), 'No such user');
    expectError(await t.client(admin).get(`/users/999999/status`), 'No such user');
  });
});
