// PATCH /realm/user_settings_defaults (Zulip's update_realm_user_settings_defaults): administrators
// choose the personal settings new users start with; register's realm_user_settings_defaults and
// realm_user_settings_defaults events follow; new accounts get a copy, existing ones keep theirs.
import { describe, expect, it } from 'vitest';
import { makeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ scheduledPollMs: 0 });
const { admin, member } = useTeam(t, ['admin', 'member']);

const defaultsOf = async (c: ApiClient) => (await c.post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).body.realm_user_settings_defaults;
const settingsOf = async (c: ApiClient) => (await c.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes the defaults and tells everyone, each changed setting once', async () => {
    const watcher = (await registerQueue(t.client(member), { event_types: ['realm_user_settings_defaults'] })).queue_id;
    const res = await t.client(admin).patch('/realm/user_settings_defaults', { left_side_userlist: true, emojiset: 'twitter', enter_sends: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await defaultsOf(t.client(member))).toMatchObject({ left_side_userlist: true, emojiset: 'twitter', enter_sends: false });
    expect(withoutIds(await allEvents(t.client(member), watcher, { keepHeartbeats: true }))).toEqual([
      { type: 'realm_user_settings_defaults', op: 'update', property: 'left_side_userlist', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'twitter' },
    ]);
    // The administrator's own settings are not the defaults.
    expect((await settingsOf(t.client(admin))).emojiset).toBe('google');
  });

  it('is for administrators, checks values as PATCH /settings does, and leaves out per-user settings', async () => {
    expect((await t.client(member).patch('/realm/user_settings_defaults', { enter_sends: true })).body)
      .toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    const bad = await t.client(admin).patch('/realm/user_settings_defaults', { enter_sends: true, color_scheme: 9 });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid color_scheme' });
    expect((await t.client(admin).patch('/realm/user_settings_defaults', { notification_sound: 'foghorn' })).body.msg).toBe("Invalid notification sound 'foghorn'");
    expect((await defaultsOf(t.client(admin))).enter_sends).toBe(false);
    const ignored = await t.client(admin).patch('/realm/user_settings_defaults', { enable_login_emails: false, default_language: 'de', timezone: 'UTC' });
    expect(ignored.status).toBe(200);
    expect(ignored.body.ignored_parameters_unsupported.sort()).toEqual(['default_language', 'enable_login_emails', 'timezone']);
  });

  it('offers the channel-folder, unread-summary and resolved-topic notice settings, checked as PATCH /settings checks them', async () => {
    const bad = await t.client(admin).patch('/realm/user_settings_defaults', { web_inbox_show_channel_folders: false, resolved_topic_notice_auto_read_policy: 'sometimes' });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid resolved_topic_notice_auto_read_policy' });
    expect((await defaultsOf(t.client(member))).web_inbox_show_channel_folders).toBe(true);
    const watcher = (await registerQueue(t.client(member), { event_types: ['realm_user_settings_defaults'] })).queue_id;
    const changed = {
      web_left_sidebar_unreads_count_summary: false, web_left_sidebar_show_channel_folders: false,
      web_inbox_show_channel_folders: false, resolved_topic_notice_auto_read_policy: 'always',
    };
    const res = await t.client(admin).patch('/realm/user_settings_defaults', {
      web_left_sidebar_unreads_count_summary: 'false', web_left_sidebar_show_channel_folders: 'false',
      web_inbox_show_channel_folders: 'false', resolved_topic_notice_auto_read_policy: 'always',
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    try {
      expect(await defaultsOf(t.client(member))).toMatchObject(changed);
      expect(withoutIds(await allEvents(t.client(member), watcher)).map((e) => e.property)).toEqual([
        'web_inbox_show_channel_folders', 'web_left_sidebar_show_channel_folders', 'web_left_sidebar_unreads_count_summary', 'resolved_topic_notice_auto_read_policy',
      ]);
      expect(await settingsOf(t.client(await makeUser(t)))).toMatchObject(changed);
      const data = await ok(t, 'mutation { updateRealmUserSettingsDefaults(settings: { resolvedTopicNoticeAutoReadPolicy: "never" }) { resolvedTopicNoticeAutoReadPolicy webInboxShowChannelFolders } }', {}, admin);
      expect(data.updateRealmUserSettingsDefaults).toEqual({ resolvedTopicNoticeAutoReadPolicy: 'never', webInboxShowChannelFolders: false });
    } finally {
      // Later tests make users and compare their settings with Zulip's defaults.
      await t.client(admin).patch('/realm/user_settings_defaults', {
        web_left_sidebar_unreads_count_summary: 'true', web_left_sidebar_show_channel_folders: 'true',
        web_inbox_show_channel_folders: 'true', resolved_topic_notice_auto_read_policy: 'except_followed',
      });
    }
  });

  it('gives new users a copy of the defaults, hidden addresses included; existing users keep theirs', async () => {
    const before = await makeUser(t);
    await t.client(admin).patch('/realm/user_settings_defaults', { twenty_four_hour_time: true, email_address_visibility: 4, color_scheme: 2 });
    const fresh = await makeUser(t);
    expect(await settingsOf(t.client(fresh))).toMatchObject({ twenty_four_hour_time: true, email_address_visibility: 4, color_scheme: 2, emojiset: 'twitter' });
    expect(await settingsOf(t.client(before))).toMatchObject({ twenty_four_hour_time: false, email_address_visibility: 1, color_scheme: 1 });
    const seen = (await t.client(member).get(`/users/${fresh.userId}`)).body.user;
    expect(seen).toMatchObject({ email: `user${fresh.userId}@localhost`, delivery_email: null });
    expect((await t.client(fresh).get('/users/me')).body.delivery_email).toBe(fresh.email);
    // Later changes of the defaults leave that account alone.
    await t.client(admin).patch('/realm/user_settings_defaults', { twenty_four_hour_time: false, email_address_visibility: 1 });
    expect(await settingsOf(t.client(fresh))).toMatchObject({ twenty_four_hour_time: true, email_address_visibility: 4 });
  });
});

describe('realmUserSettingsDefaults and updateRealmUserSettingsDefaults (GraphQL)', () => {
  it('read and change the defaults with the same rules', async () => {
    const data = await ok(t, 'mutation { updateRealmUserSettingsDefaults(settings: { webHomeView: "recent_topics" }) { webHomeView } }', {}, admin);
    expect(data.updateRealmUserSettingsDefaults).toEqual({ webHomeView: 'recent_topics' });
    expect((await ok(t, '{ realmUserSettingsDefaults { webHomeView } }', {}, member)).realmUserSettingsDefaults).toEqual({ webHomeView: 'recent_topics' });
    const { error } = await fails(t, 'mutation { updateRealmUserSettingsDefaults(settings: { webHomeView: "inbox" }) { webHomeView } }', {}, member);
    expect(error.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
  });
});
