// PATCH /settings (Zulip's json_change_settings): every personal setting with Zulip's validation,
// name, password and time zone; `user_settings` events (and the legacy forms for clients without
// `user_settings_object`); and what the privacy settings change for others: typing, read receipts,
// presence, and which e-mail address others see.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeBot, makeUser, sendDirect, sendToChannel, updateRealm } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ scheduledPollMs: 0 });
const { admin, bob, guest } = useTeam(t, ['admin', 'bob', 'guest']);

beforeAll(async () => {
  await makeChannel(t.client(bob), 'settings-talk');
  for (const u of [admin, guest]) await t.client(u).post('/users/me/subscriptions', { subscriptions: [{ name: 'settings-talk' }] });
});

const queue = async (c: ApiClient, params: Record<string, unknown> = {}) => (await registerQueue(c, { event_types: ['user_settings', 'realm_user'], ...params })).queue_id;
const events = async (c: ApiClient, queueId: string) => withoutIds(await allEvents(c, queueId));
async function settingsOf(c: ApiClient): Promise<Record<string, any>> {
  return (await c.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
}
const patch = (c: ApiClient, params: Record<string, unknown>) => c.patch('/settings', params);

describe('PATCH /settings: personal settings', () => {
  it('changes booleans, integers and strings, announcing each changed one to the user only', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    const mine = await queue(c, { client_capabilities: { user_settings_object: true } });
    const others = await queue(t.client(bob));
    const res = await patch(c, { twenty_four_hour_time: true, color_scheme: 2, emojiset: 'text', web_home_view: 'all_messages', enter_sends: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await settingsOf(c)).toMatchObject({ twenty_four_hour_time: true, color_scheme: 2, emojiset: 'text', web_home_view: 'all_messages', enter_sends: false });
    // enter_sends kept its default: nothing to announce. Events follow the settings' order, as Zulip's.
    expect(await events(c, mine)).toEqual([
      { type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true },
      { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 },
      { type: 'user_settings', op: 'update', property: 'web_home_view', value: 'all_messages' },
      { type: 'user_settings', op: 'update', property: 'emojiset', value: 'text' },
    ]);
    expect(await events(t.client(bob), others)).toEqual([]);
  });

  it('adds the legacy update_display_settings / update_global_notifications events for clients without user_settings_object', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    const legacy = await queue(c, { event_types: ['user_settings', 'update_display_settings', 'update_global_notifications'] });
    const modern = await queue(c, { event_types: ['user_settings', 'update_display_settings', 'update_global_notifications'], client_capabilities: { user_settings_object: true } });
    expect((await patch(c, { default_language: 'de', enable_sounds: false, web_font_size_px: 18 })).status).toBe(200);
    expect(await events(c, legacy)).toEqual([
      { type: 'user_settings', op: 'update', property: 'web_font_size_px', value: 18 },
      { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'German' },
      { type: 'update_display_settings', user: carol.email, setting_name: 'default_language', setting: 'de', language_name: 'German' },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      { type: 'update_global_notifications', user: carol.email, notification_name: 'enable_sounds', setting: false },
    ]);
    expect((await events(c, modern)).map((e) => e.type)).toEqual(['user_settings', 'user_settings', 'user_settings']);
    // The legacy top-level fields of register follow too.
    const state = (await c.post('/register', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] })).body;
    expect(state).toMatchObject({ default_language: 'de', enable_sounds: false });
  });

  it('takes JSON bodies and the deprecated /settings/display and /settings/notifications paths', async () => {
    const c = t.client(await makeUser(t));
    expect((await c.patch('/settings', { starred_message_counts: false, notification_sound: 'ding' }, 'json')).status).toBe(200);
    expect((await c.patch('/settings/display', { left_side_userlist: true })).status).toBe(200);
    expect((await c.patch('/settings/notifications', { enable_digest_emails: false })).status).toBe(200);
    expect(await settingsOf(c)).toMatchObject({ starred_message_counts: false, notification_sound: 'ding', left_side_userlist: true, enable_digest_emails: false });
  });

  it('refuses values outside each setting\'s choices with Zulip\'s wording, and writes nothing', async () => {
    const c = t.client(await makeUser(t));
    const cases: [Record<string, unknown>, string][] = [
      [{ color_scheme: 7 }, 'Invalid color_scheme'],
      [{ emojiset: 'comic-sans' }, 'Invalid emojiset'],
      [{ web_home_view: 'nowhere' }, 'Invalid web_home_view'],
      [{ default_language: 'xx' }, 'Invalid default_language'],
      [{ notification_sound: 'foghorn' }, "Invalid notification sound 'foghorn'"],
      [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
      [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
      [{ enter_sends: 'perhaps' }, 'enter_sends is not a boolean'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone is not a recognized time zone'],
    ];
    for (const [params, msg] of cases) {
      const res = await patch(c, { twenty_four_hour_time: true, ...params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect((await settingsOf(c)).twenty_four_hour_time).toBe(false);
    // "none" turns sounds off and is not in the list of sounds.
    expect((await patch(c, { notification_sound: 'none' })).status).toBe(200);
  });

  it('reports unknown parameters as ignored', async () => {
    const res = await patch(t.client(await makeUser(t)), { dense_mode: true, fluid_layout_width: true });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['dense_mode']);
  });

  it('is for humans only', async () => {
    const robot = await makeBot(t, bob, { fullName: 'Robot' });
    const res = await patch(t.client(robot), { enter_sends: true });
    expect(res.body).toMatchObject({ result: 'error', msg: 'This endpoint does not accept bot requests.' });
  });

  it('needs credentials', async () => {
    expect((await t.client().patch('/settings', { enter_sends: true })).status).toBe(401);
  });
});

// Zulip 11.0 and 12.0 settings (feature levels 385, 398, 411, 431): a server reporting those levels
// must keep them, or the clients' changes are lost.
describe('PATCH /settings: channel folders, the unread summary and resolved-topic notices', () => {
  const NEW_SETTINGS = {
    web_left_sidebar_unreads_count_summary: false,
    web_left_sidebar_show_channel_folders: false,
    web_inbox_show_channel_folders: false,
    resolved_topic_notice_auto_read_policy: 'never',
  };

  it('start at Zulip\'s defaults', async () => {
    expect(await settingsOf(t.client(await makeUser(t)))).toMatchObject({
      web_left_sidebar_unreads_count_summary: true,
      web_left_sidebar_show_channel_folders: true,
      web_inbox_show_channel_folders: true,
      resolved_topic_notice_auto_read_policy: 'except_followed',
    });
  });

  it('are stored, returned by register and announced to the user', async () => {
    const c = t.client(await makeUser(t));
    const mine = await queue(c, { client_capabilities: { user_settings_object: true } });
    const res = await patch(c, {
      web_left_sidebar_unreads_count_summary: 'false', web_left_sidebar_show_channel_folders: 'false',
      web_inbox_show_channel_folders: 'false', resolved_topic_notice_auto_read_policy: 'never',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await settingsOf(c)).toMatchObject(NEW_SETTINGS);
    expect(await events(c, mine)).toEqual([
      { type: 'user_settings', op: 'update', property: 'web_inbox_show_channel_folders', value: false },
      { type: 'user_settings', op: 'update', property: 'web_left_sidebar_show_channel_folders', value: false },
      { type: 'user_settings', op: 'update', property: 'web_left_sidebar_unreads_count_summary', value: false },
      { type: 'user_settings', op: 'update', property: 'resolved_topic_notice_auto_read_policy', value: 'never' },
    ]);
    expect((await patch(c, { resolved_topic_notice_auto_read_policy: 'always' })).status).toBe(200);
    expect((await settingsOf(c)).resolved_topic_notice_auto_read_policy).toBe('always');
  });

  it('refuse other values with Zulip\'s wording, and write nothing', async () => {
    const c = t.client(await makeUser(t));
    const cases: [Record<string, unknown>, string][] = [
      [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
      [{ resolved_topic_notice_auto_read_policy: 2 }, 'Invalid resolved_topic_notice_auto_read_policy'],
      [{ web_inbox_show_channel_folders: 'perhaps' }, 'web_inbox_show_channel_folders is not a boolean'],
      [{ web_left_sidebar_show_channel_folders: 'perhaps' }, 'web_left_sidebar_show_channel_folders is not a boolean'],
      [{ web_left_sidebar_unreads_count_summary: 'perhaps' }, 'web_left_sidebar_unreads_count_summary is not a boolean'],
    ];
    for (const [params, msg] of cases) {
      const res = await patch(c, { web_inbox_show_channel_folders: false, ...params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect(await settingsOf(c)).toMatchObject({ web_inbox_show_channel_folders: true, resolved_topic_notice_auto_read_policy: 'except_followed' });
  });

  it('through GraphQL, with the same rules', async () => {
    const erin = await makeUser(t);
    const CHANGE = `mutation($policy: String) { updateSettings(settings: {
      webInboxShowChannelFolders: false, webLeftSidebarShowChannelFolders: false, webLeftSidebarUnreadsCountSummary: false, resolvedTopicNoticeAutoReadPolicy: $policy,
    }) { webInboxShowChannelFolders webLeftSidebarShowChannelFolders webLeftSidebarUnreadsCountSummary resolvedTopicNoticeAutoReadPolicy } }`;
    const { error } = await fails(t, CHANGE, { policy: 'sometimes' }, erin);
    expect(error).toMatchObject({ message: 'Invalid resolved_topic_notice_auto_read_policy', extensions: { code: 'BAD_REQUEST' } });
    expect((await settingsOf(t.client(erin))).web_inbox_show_channel_folders).toBe(true);
    const changed = { webInboxShowChannelFolders: false, webLeftSidebarShowChannelFolders: false, webLeftSidebarUnreadsCountSummary: false, resolvedTopicNoticeAutoReadPolicy: 'never' };
    expect((await ok(t, CHANGE, { policy: 'never' }, erin)).updateSettings).toEqual(changed);
    expect((await ok(t, `{ mySettings { ${Object.keys(changed).join(' ')} } }`, {}, erin)).mySettings).toEqual(changed);
    expect(await settingsOf(t.client(erin))).toMatchObject(NEW_SETTINGS);
  });
});

describe('PATCH /settings: time zone and name', () => {
  it('sets the profile time zone, canonical, and tells everyone who can see the user', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    const watcher = await queue(t.client(bob));
    expect((await patch(c, { timezone: 'US/Pacific' })).status).toBe(200);
    const me = (await c.get(`/users/${carol.userId}`)).body.user;
    expect(me.timezone).toBe('America/Los_Angeles');
    expect((await settingsOf(c)).timezone).toBe('America/Los_Angeles');
    expect(await events(t.client(bob), watcher)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: carol.userId, email: carol.email, timezone: 'America/Los_Angeles' } },
    ]);
    expect((await patch(c, { timezone: 'Asia/Kolkata' })).status).toBe(200);
    expect((await c.get(`/users/${carol.userId}`)).body.user.timezone).toBe('Asia/Kolkata');
  });

  it('renames the user (checked as Zulip does) and announces it', async () => {
    const carol = await makeUser(t, { fullName: 'Carol' });
    const watcher = await queue(t.client(bob));
    expect((await patch(t.client(carol), { full_name: '  Caroline  ' })).status).toBe(200);
    expect((await t.client(bob).get(`/users/${carol.userId}`)).body.user.full_name).toBe('Caroline');
    expect(await events(t.client(bob), watcher)).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: carol.userId, full_name: 'Caroline' } }]);
    expect((await patch(t.client(carol), { full_name: '   ' })).body.msg).toBe('Name too short!');
    expect((await patch(t.client(carol), { full_name: 'x'.repeat(101) })).body.msg).toBe('Name too long!');
    expect((await patch(t.client(carol), { full_name: 'Evil *bold*' })).body.msg).toBe('Invalid characters in name!');
  });

  it('ignores members\' renames where the organization disables name changes, but not administrators\'', async () => {
    const carol = await makeUser(t, { fullName: 'Carol Fixed' });
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
    await updateRealm(t, { name_changes_disabled: true });
    try {
      expect((await patch(t.client(carol), { full_name: 'Carol Free' })).status).toBe(200);
      expect((await t.client(carol).get(`/users/${carol.userId}`)).body.user.full_name).toBe('Carol Fixed');
      expect((await patch(t.client(admin), { full_name: 'Ada the Admin' })).status).toBe(200);
      expect((await t.client(carol).get(`/users/${admin.userId}`)).body.user.full_name).toBe('Ada the Admin');
    } finally {
      await updateRealm(t, { name_changes_disabled: false });
    }
  });
});

describe('PATCH /settings: password and e-mail', () => {
  it('changes the password only with the old one, and only to a strong one', async () => {
    const carol = await makeUser(t, { email: `carol-pw-${Date.now()}@example.com` });
    const c = t.client(carol);
    const old = `pw-${carol.email}`;
    expect((await patch(c, { new_password: 'Vq8!marble-otter' })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Wrong password!' });
    expect((await patch(c, { old_password: 'guess', new_password: 'Vq8!marble-otter' })).body.msg).toBe('Wrong password!');
    expect((await patch(c, { old_password: old, new_password: 'password1' })).body.msg).toBe('New password is too weak!');
    expect((await patch(c, { old_password: old, new_password: 'abc' })).body.msg).toBe('New password is too weak!');
    expect((await t.client().post('/fetch_api_key', { username: carol.email, password: old })).status).toBe(200);
    expect((await patch(c, { old_password: old, new_password: 'Vq8!marble-otter' })).status).toBe(200);
    expect((await t.client().post('/fetch_api_key', { username: carol.email, password: old })).status).toBe(401);
    expect((await t.client().post('/fetch_api_key', { username: carol.email, password: 'Vq8!marble-otter' })).status).toBe(200);
  });

  it('checks a new e-mail address as Zulip does; a good one changes nothing until confirmed (email-change.test.ts)', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    expect((await patch(c, { email: 'not an address' })).body.msg).toBe('Invalid address: not an address');
    expect((await patch(c, { email: bob.email })).body.msg).toBe('Already has an account.');
    const res = await patch(c, { email: 'fresh@example.com' });
    expect(res.status).toBe(200);
    expect((await c.get('/users/me')).body.delivery_email).toBe(carol.email);
    // The current address is no change at all.
    const me = await makeUser(t);
    expect((await patch(t.client(me), { email: me.email })).status).toBe(200);
  });
});

describe('PATCH /settings: privacy settings and their effects', () => {
  it('send_stream_typing_notifications and send_private_typing_notifications off: POST /typing is refused', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'settings-talk' }] });
    const channelId = (await c.get('/get_stream_id', { stream: 'settings-talk' })).body.stream_id;
    const typing = { type: 'stream', stream_id: channelId, topic: 't', op: 'start' };
    expect((await c.post('/typing', typing)).status).toBe(200);
    await patch(c, { send_stream_typing_notifications: false, send_private_typing_notifications: false });
    expect((await c.post('/typing', typing)).body.msg).toBe('User has disabled typing notifications for channel messages');
    expect((await c.post('/typing', { to: [bob.userId], op: 'start' })).body.msg).toBe('User has disabled typing notifications for direct messages');
  });

  it('send_read_receipts off: the user\'s reads leave no receipts', async () => {
    const carol = await makeUser(t);
    const id = await sendDirect(t.client(bob), [carol.userId, admin.userId], 'read me');
    for (const u of [carol, admin]) await t.client(u).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    expect((await t.client(bob).get(`/messages/${id}/read_receipts`)).body.user_ids).toContain(carol.userId);
    await patch(t.client(carol), { send_read_receipts: false });
    expect((await t.client(bob).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([admin.userId]);
  });

  it('presence_enabled off: others see the user go offline and get no presence for them', async () => {
    const carol = await makeUser(t);
    const c = t.client(carol);
    await c.post('/users/me/presence', { status: 'active' });
    expect((await t.client(bob).get(`/users/${carol.userId}/presence`)).status).toBe(200);
    const watcher = await registerQueue(t.client(bob), { event_types: ['presence'] });
    expect((await patch(c, { presence_enabled: false })).status).toBe(200);
    expect((await t.client(bob).get(`/users/${carol.userId}/presence`)).body.msg).toBe(`No presence data for ${carol.userId}`);
    const got = await events(t.client(bob), watcher.queue_id);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: 'presence', user_id: carol.userId });
    const realm = (await t.client(bob).get('/realm/presence')).body.presences;
    expect(realm[carol.email]).toBeUndefined();
  });

  it('enable_drafts_synchronization off deletes the drafts kept on the server', async () => {
    const c = t.client(await makeUser(t));
    expect((await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'half a thought', timestamp: 1700000000 }] })).status).toBe(200);
    await patch(c, { enable_drafts_synchronization: false });
    await patch(c, { enable_drafts_synchronization: true });
    expect((await c.get('/drafts')).body.drafts).toEqual([]);
  });
});

describe('PATCH /settings: email_address_visibility', () => {
  it('gives others user<ID>@<host> instead of the real address, which only those allowed still see', async () => {
    const carol = await makeUser(t, { email: `carol-hidden-${Date.now()}@example.com` });
    const c = t.client(carol);
    const bobQueue = await queue(t.client(bob));
    const adminQueue = await queue(t.client(admin));
    const fake = `user${carol.userId}@localhost`;
    // 3: administrators only.
    expect((await patch(c, { email_address_visibility: 3 })).status).toBe(200);
    const seenByBob = (await t.client(bob).get(`/users/${carol.userId}`)).body.user;
    expect(seenByBob).toMatchObject({ email: fake, delivery_email: null });
    const seenByAdmin = (await t.client(admin).get(`/users/${carol.userId}`)).body.user;
    expect(seenByAdmin).toMatchObject({ email: fake, delivery_email: carol.email });
    expect((await c.get('/users/me')).body).toMatchObject({ email: fake, delivery_email: carol.email });
    expect(await events(t.client(bob), bobQueue)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: carol.userId, delivery_email: null } },
      { type: 'realm_user', op: 'update', person: { user_id: carol.userId, new_email: fake } },
      { type: 'realm_user', op: 'update', person: expect.objectContaining({ user_id: carol.userId, avatar_source: 'G' }) },
    ]);
    expect((await events(t.client(admin), adminQueue)).map((e) => Object.keys(e.person))).toEqual([
      ['user_id', 'new_email'], ['user_id', 'avatar_source', 'avatar_url', 'avatar_url_medium', 'avatar_version'],
    ]);
    // Messages show the API address; the real one still logs in and authenticates.
    const id = await sendToChannel(c, 'settings-talk', 'hidden', 'who am I');
    expect((await t.client(bob).get(`/messages/${id}`)).body.message.sender_email).toBe(fake);
    expect((await t.client().post('/fetch_api_key', { username: carol.email, password: `pw-${carol.email}` })).body.email).toBe(carol.email);
    expect((await t.client({ ...carol, email: fake }).get('/users/me')).status).toBe(200);

    // 4: nobody, administrators included.
    await patch(c, { email_address_visibility: 4 });
    expect((await t.client(admin).get(`/users/${carol.userId}`)).body.user.delivery_email).toBeNull();
    // 2: members, not guests.
    await patch(c, { email_address_visibility: 2 });
    expect((await t.client(bob).get(`/users/${carol.userId}`)).body.user.delivery_email).toBe(carol.email);
    expect((await t.client(guest).get(`/users/${carol.userId}`)).body.user.delivery_email).toBeNull();
    // 1: everyone; the API address is the real one again.
    await patch(c, { email_address_visibility: 1 });
    expect((await t.client(guest).get(`/users/${carol.userId}`)).body.user).toMatchObject({ email: carol.email, delivery_email: carol.email });
  });
});

describe('updateSettings and mySettings (GraphQL)', () => {
  it('change and read settings with the same rules', async () => {
    const erin = await makeUser(t);
    const data = await ok(t, `mutation { updateSettings(timezone: "Europe/Paris", settings: { colorScheme: 3, sendReadReceipts: false }) { colorScheme sendReadReceipts timezone } }`, {}, erin);
    expect(data.updateSettings).toEqual({ colorScheme: 3, sendReadReceipts: false, timezone: 'Europe/Paris' });
    expect((await ok(t, '{ mySettings { colorScheme emojiset } }', {}, erin)).mySettings).toEqual({ colorScheme: 3, emojiset: 'google' });
    const { error } = await fails(t, 'mutation { updateSettings(settings: { colorScheme: 9 }) { colorScheme } }', {}, erin);
    expect(error.message).toBe('Invalid color_scheme');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });
});
