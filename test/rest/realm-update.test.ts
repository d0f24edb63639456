// PATCH /realm (Zulip's update_realm): every organization setting of register, with Zulip's checks,
// owner-only settings, permission settings as `{new, old}`, `realm` update / update_dict events, and
// the settings enforced where they apply (message editing and deletion, read receipts, edit history).
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let groups: Record<string, number>;
const t = useTestServer({ scheduledPollMs: 0 });
const owner = t.ownerClient;
const { admin, moderator, member } = useTeam(t, ['admin', 'moderator', 'member']);

const realmState = async (c: ApiClient) => (await c.post('/register', { fetch_event_types: ['realm'] })).body;

const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['realm'] })).queue_id;
const events = async (c: ApiClient, queueId: string) => withoutIds(await allEvents(c, queueId));

beforeAll(async () => {
  await makeChannel(t.client(member), 'edits');
  await t.client(admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'edits' }] });
  const list = (await owner.get('/user_groups')).body.user_groups as { id: number; name: string }[];
  groups = Object.fromEntries(list.map((g) => [g.name, g.id]));
});

describe('PATCH /realm: settings', () => {
  it('changes settings, answers what changed, and announces each to everyone', async () => {
    const watcher = await queue(t.client(member));
    const res = await t.client(admin).patch('/realm', {
      name: 'Renamed Org', description: 'We *talk* here', enable_read_receipts: false, allow_message_editing: true,
      message_content_edit_limit_seconds: 'unlimited', waiting_period_threshold_ignored: 3, digest_weekday: 4,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // allow_message_editing kept its value; the unknown parameter is ignored.
    expect(res.body).toMatchObject({ name: 'updated', description: 'updated', enable_read_receipts: false, message_content_edit_limit_seconds: null, digest_weekday: 4 });
    expect(res.body.allow_message_editing).toBeUndefined();
    expect(res.body.ignored_parameters_unsupported).toEqual(['waiting_period_threshold_ignored']);
    expect(await realmState(t.client(member))).toMatchObject({
      realm_name: 'Renamed Org', realm_description: 'We *talk* here', realm_enable_read_receipts: false,
      realm_message_content_edit_limit_seconds: null, realm_digest_weekday: 4,
    });
    expect(await events(t.client(member), watcher)).toEqual([
      { type: 'realm', op: 'update', property: 'name', value: 'Renamed Org' },
      { type: 'realm', op: 'update', property: 'description', value: 'We *talk* here' },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
      { type: 'realm', op: 'update', property: 'digest_weekday', value: 4 },
      { type: 'realm', op: 'update', property: 'enable_read_receipts', value: false },
    ]);
    expect((await t.client().get('/server_settings')).body.realm_name).toBe('Renamed Org');
    await t.client(admin).patch('/realm', { enable_read_receipts: true, message_content_edit_limit_seconds: 600 });
  });

  it('takes the deprecated spellings and announces both forms', async () => {
    const watcher = await queue(t.client(member));
    expect((await t.client(admin).patch('/realm', { mandatory_topics: true })).body).toMatchObject({ mandatory_topics: true });
    expect(await events(t.client(member), watcher)).toEqual([
      { type: 'realm', op: 'update', property: 'topics_policy', value: 'disable_empty_topic' },
      { type: 'realm', op: 'update', property: 'mandatory_topics', value: true },
    ]);
    expect(await realmState(t.client(member))).toMatchObject({ realm_topics_policy: 'disable_empty_topic', realm_mandatory_topics: true });
    const refused = await t.client(member).post('/messages', { type: 'stream', to: 'edits', topic: '', content: 'no topic' });
    expect(refused.status).toBe(400);
    expect((await t.client(admin).patch('/realm', { topics_policy: 'allow_empty_topic', allow_edit_history: false })).status).toBe(200);
    expect(await realmState(t.client(member))).toMatchObject({
      realm_mandatory_topics: false, realm_allow_edit_history: false, realm_message_edit_history_visibility_policy: 'none',
    });
    await t.client(admin).patch('/realm', { message_edit_history_visibility_policy: 'all' });
  });

  it('refuses bad values with Zulip\'s wording, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
      [{ description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
      [{ default_language: 'klingon' }, "Invalid language 'klingon'"],
      [{ video_chat_provider: 42 }, 'Invalid video_chat_provider 42'],
      [{ giphy_rating: 9 }, 'Invalid giphy_rating 9'],
      [{ message_content_delete_limit_seconds: 0 }, "Bad value for 'message_content_delete_limit_seconds': 0"],
      [{ move_messages_within_stream_limit_seconds: 'soon' }, "Bad value for 'move_messages_within_stream_limit_seconds': soon"],
      [{ message_edit_history_visibility_policy: 'some' }, 'Invalid message_edit_history_visibility_policy'],
      [{ topics_policy: 'empty_topic_only' }, 'Invalid topics_policy'],
      [{ digest_weekday: 7 }, 'Invalid digest_weekday'],
      [{ jitsi_server_url: 'ftp://jitsi.example.com' }, 'jitsi_server_url is not an allowed_type'],
      [{ invite_required: 'maybe' }, 'invite_required is not a boolean'],
    ];
    for (const [params, msg] of cases) {
      const res = await owner.patch('/realm', { enable_guest_user_indicator: false, ...params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect((await realmState(owner)).realm_enable_guest_user_indicator).toBe(true);
    expect((await owner.patch('/realm', { jitsi_server_url: 'https://jitsi.example.com' })).status).toBe(200);
    expect((await realmState(owner)).realm_jitsi_server_url).toBe('https://jitsi.example.com');
    expect((await owner.patch('/realm', { jitsi_server_url: 'default' })).status).toBe(200);
    expect((await realmState(owner)).realm_jitsi_server_url).toBeNull();
  });

  it('is for administrators; some settings for owners only', async () => {
    for (const who of [member, moderator]) {
      expect((await t.client(who).patch('/realm', { name: 'Mine now' })).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
    const ownerOnly: Record<string, unknown>[] = [
      { waiting_period_threshold: 3 }, { message_retention_days: 30 }, { invite_required: false },
      { emails_restricted_to_domains: true }, { disallow_disposable_email_addresses: false },
      { can_invite_users_group: { new: groups['role:administrators'] } }, { can_manage_all_groups: { new: groups['role:administrators'] } },
      { can_create_groups: { new: groups['role:administrators'] } }, { create_multiuse_invite_group: { new: groups['role:owners'] } },
    ];
    for (const params of ownerOnly) {
      const res = await t.client(admin).patch('/realm', { name: 'Not applied', ...params });
      expect(res.body, JSON.stringify(params)).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    }
    expect((await realmState(owner)).realm_name).not.toBe('Not applied');
    const res = await owner.patch('/realm', { waiting_period_threshold: 3, message_retention_days: 30 });
    expect(res.body).toMatchObject({ waiting_period_threshold: 3, message_retention_days: 30 });
    expect((await owner.patch('/realm', { waiting_period_threshold: -1 })).body.msg).toBe('waiting_period_threshold is too small');
    expect((await owner.patch('/realm', { message_retention_days: 'unlimited' })).body.message_retention_days).toBe(-1);
    expect((await realmState(owner)).realm_message_retention_days).toBe(-1);
  });
});

describe('PATCH /realm: permission settings', () => {
  it('sets a group setting from {new, old}, announcing it with update_dict', async () => {
    const watcher = await queue(t.client(member));
    const stale = await t.client(admin).patch('/realm', { can_add_custom_emoji_group: { new: groups['role:administrators'], old: groups['role:moderators'] } });
    expect(stale.body.msg).toBe("'old' value does not match the expected value.");
    const res = await t.client(admin).patch('/realm', { can_add_custom_emoji_group: { new: groups['role:administrators'], old: groups['role:members'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.can_add_custom_emoji_group).toBe(groups['role:administrators']);
    expect((await realmState(t.client(member))).realm_can_add_custom_emoji_group).toBe(groups['role:administrators']);
    expect(await events(t.client(member), watcher)).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_add_custom_emoji_group: groups['role:administrators'] } },
    ]);
    // An explicit set of users and groups.
    const set = { direct_members: [member.userId], direct_subgroups: [groups['role:moderators']] };
    expect((await t.client(admin).patch('/realm', { can_add_custom_emoji_group: { new: set } })).status).toBe(200);
    expect((await realmState(t.client(member))).realm_can_add_custom_emoji_group).toEqual(set);
  });

  it('refuses groups the setting may not name', async () => {
    const res = await owner.patch('/realm', { can_manage_all_groups: { new: groups['role:nobody'] } });
    expect(res.body.msg).toBe("'can_manage_all_groups' setting cannot be set to 'role:nobody' group.");
    expect((await owner.patch('/realm', { can_access_all_users_group: { new: groups['role:moderators'] } })).body.msg)
      .toBe("'can_access_all_users_group' setting cannot be set to 'role:moderators' group.");
    expect((await owner.patch('/realm', { can_delete_own_message_group: { new: 999999 } })).body.msg).toBe('Invalid user group');
    expect((await owner.patch('/realm', { can_delete_own_message_group: groups['role:members'] })).body.msg).toBe("can_delete_own_message_group is not a dict with 'new'");
  });
});

describe('PATCH /realm: settings enforced', () => {
  /** Only the database can make a message older. */
  async function backdate(messageId: number, seconds: number) {
    await t.db.message.update({ where: { id: messageId }, data: { dateSent: new Date(Date.now() - seconds * 1000) } });
  }

  it('allow_message_editing and message_content_edit_limit_seconds decide content edits', async () => {
    const id = await sendToChannel(t.client(member), 'edits', 'limits', 'first draft');
    await backdate(id, 3600);
    await t.client(admin).patch('/realm', { message_content_edit_limit_seconds: 1800 });
    expect((await t.client(member).patch(`/messages/${id}`, { content: 'second' })).body.msg).toBe('The time limit for editing this message has passed');
    await t.client(admin).patch('/realm', { message_content_edit_limit_seconds: 'unlimited' });
    expect((await t.client(member).patch(`/messages/${id}`, { content: 'second' })).status).toBe(200);
    await t.client(admin).patch('/realm', { allow_message_editing: false });
    expect((await t.client(member).patch(`/messages/${id}`, { content: 'third' })).body.msg).toBe('Your organization has turned off message editing');
    await t.client(admin).patch('/realm', { allow_message_editing: true, message_content_edit_limit_seconds: 600 });
  });

  it('message_content_delete_limit_seconds and can_delete_own_message_group decide deleting one\'s messages', async () => {
    const old = await sendToChannel(t.client(member), 'edits', 'limits', 'old words');
    await backdate(old, 3600);
    await t.client(admin).patch('/realm', { message_content_delete_limit_seconds: 60 });
    expect((await t.client(member).delete(`/messages/${old}`)).body.msg).toBe('The time limit for deleting this message has passed');
    await t.client(admin).patch('/realm', { message_content_delete_limit_seconds: 'unlimited' });
    expect((await t.client(member).delete(`/messages/${old}`)).status).toBe(200);
    await t.client(admin).patch('/realm', { can_delete_own_message_group: { new: groups['role:moderators'] } });
    const fresh = await sendToChannel(t.client(member), 'edits', 'limits', 'fresh words');
    expect((await t.client(member).delete(`/messages/${fresh}`)).body.msg).toBe("You don't have permission to delete this message");
    await t.client(admin).patch('/realm', { can_delete_own_message_group: { new: groups['role:everyone'] } });
    expect((await t.client(member).delete(`/messages/${fresh}`)).status).toBe(200);
  });

  it('enable_read_receipts and message_edit_history_visibility_policy decide what readers see', async () => {
    const id = await sendToChannel(t.client(member), 'edits', 'receipts', 'read me');
    await t.client(admin).patch('/realm', { enable_read_receipts: false, message_edit_history_visibility_policy: 'none' });
    expect((await t.client(admin).get(`/messages/${id}/read_receipts`)).body.msg).toBe('Read receipts are disabled in this organization.');
    expect((await t.client(admin).get(`/messages/${id}/history`)).body.msg).toBe('Message edit history is disabled in this organization');
    await t.client(admin).patch('/realm', { enable_read_receipts: true, message_edit_history_visibility_policy: 'all' });
    expect((await t.client(admin).get(`/messages/${id}/read_receipts`)).status).toBe(200);
    expect((await t.client(admin).get(`/messages/${id}/history`)).status).toBe(200);
  });

  it('can_resolve_topics_group decides who resolves topics, without the topic-move time limit', async () => {
    const id = await sendToChannel(t.client(member), 'edits', 'to resolve', 'done?');
    await backdate(id, 30 * 86400);
    await t.client(admin).patch('/realm', { can_resolve_topics_group: { new: groups['role:moderators'] } });
    expect((await t.client(member).patch(`/messages/${id}`, { topic: '✔ to resolve' })).body.msg).toBe("You don't have permission to edit this message");
    expect((await t.client(moderator).patch(`/messages/${id}`, { topic: '✔ to resolve' })).status).toBe(200);
    await t.client(admin).patch('/realm', { can_resolve_topics_group: { new: groups['role:everyone'] } });
    // Past the move limit (a week by default): unresolving is still allowed.
    expect((await t.client(member).patch(`/messages/${id}`, { topic: 'to resolve' })).status).toBe(200);
    // A rename is a move, with its own rule and time limit.
    expect((await t.client(member).patch(`/messages/${id}`, { topic: 'renamed' })).body.msg).toBe("The time limit for editing this message's topic has passed.");
  });

  it('name_changes_disabled stops members renaming themselves', async () => {
    await t.client(admin).patch('/realm', { name_changes_disabled: true });
    await t.client(member).patch('/settings', { full_name: 'Someone Else' });
    expect((await t.client(member).get('/users/me')).body.full_name).toBe('Mel Member');
    await t.client(admin).patch('/realm', { name_changes_disabled: false });
  });
});

describe('updateRealm (GraphQL)', () => {
  it('changes settings with the same rules', async () => {
    const data = await ok(t, 'mutation { updateRealm(settings: { enableGuestUserDmWarning: false, moveMessagesWithinStreamLimitSeconds: 86400 }) }', {}, admin);
    expect(data.updateRealm).toEqual({ enable_guest_user_dm_warning: false, move_messages_within_stream_limit_seconds: 86400 });
    const { error } = await fails(t, 'mutation { updateRealm(settings: { waitingPeriodThreshold: 1 }) }', {}, admin);
    expect(error.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
    const group = await ok(t, 'mutation($v: JSON) { updateRealm(settings: { canResolveTopicsGroup: $v }) }', { v: { new: groups['role:members'] } }, admin);
    expect(group.updateRealm).toEqual({ can_resolve_topics_group: groups['role:members'] });
  });
});
