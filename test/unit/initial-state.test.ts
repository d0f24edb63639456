// The register response's initial data (resolvers/events/initial-state): shapes checked against
// zulip.yaml's POST /register 200 schema, and the rules that depend on the viewer, the fetch types,
// include_subscribers and the client capabilities.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Realm, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { buildInitialState, type InitialStateOptions } from '../../resolvers/events/initial-state/index.ts';
import {
  INACCESSIBLE_USER_NAME, PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE, TYPING_STARTED_EXPIRY_MS, TYPING_STARTED_WAIT_MS, TYPING_STOPPED_WAIT_MS,
} from '../../resolvers/limits.ts';
import { REPORT_MESSAGE_TYPES } from '../../resolvers/reports/report.ts';
import { makeChannel, makeChannelFolder, makeBot, makeUser, updateRealm, sendDirect, sendToChannel, type MadeUser, deactivate, reactivate } from '../support/factories.ts';
import { validateResponse } from '../support/openapi.ts';
import type { ApiResponse } from '../support/client.ts';
import type { Db } from '../../prisma/database.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

// Fields of feature level 496 that zulip.yaml (level 378) does not know; removed before validating
// (test/support/openapi.ts strips the channel-record ones itself).
const NEWER_TOP_LEVEL = [
  'navigation_views', 'reminders', 'server_report_message_types', 'has_provider_token', 'channel_folders',
  'realm_can_set_delete_message_policy_group',
];
const NEWER_LINKIFIER_FIELDS = ['example_input', 'reverse_template', 'alternative_url_templates'];

type State = Record<string, any>;

let realm: Realm;
let botId: number;
let ownerName: string;
// With Gravatar enabled, so that client_gravatar leaves default avatars to the client (test/rest/avatars.test.ts: without).
const t = useTestServer({ gravatarEnabled: true });
let db: Db;
// dana shares no channel or conversation with the guest.
const { alice, bob, guest, dana } = useTeam(t, ['alice', 'bob', 'guest', 'dana'], {
  alice: { fullName: 'Alice Anders' }, bob: { fullName: 'Bob Brown' }, guest: { fullName: 'Gwen Guest', role: 600 }, dana: { fullName: 'Dana Dark' },
});
const ch = {} as Record<'general' | 'design' | 'secret' | 'lobby' | 'attic', number>;
const msg = {} as Record<'mention' | 'plain' | 'emptyTopic' | 'design' | 'attic' | 'dm' | 'groupDm' | 'selfDm', number>;

function options(overrides: Partial<InitialStateOptions> = {}): InitialStateOptions {
  return {
    fetchEventTypes: null,
    applyMarkdown: true,
    clientGravatar: false,
    includeSubscribers: 'false',
    slimPresence: false,
    presenceHistoryLimitDays: 14,
    capabilities: {},
    narrow: [],
    allPublicStreams: false,
    ...overrides,
  };
}

async function contextFor(userId: number | null, database: Context['db'] = db): Promise<{ ctx: Context; user: User | null }> {
  realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
  const user = userId == null ? null : await db.user.findUniqueOrThrow({ where: { id: userId } });
  const ctx: Context = { db: database, config: t.server.config, events: t.server.events, queues: t.server.queues, files: t.server.files, realm, user, clientName: 'test' };
  return { ctx, user };
}

async function stateFor(userId: number | null, overrides: Partial<InitialStateOptions> = {}): Promise<State> {
  const { ctx, user } = await contextFor(userId);
  return buildInitialState(ctx, user, options(overrides));
}

/** Validates the state as the body of a POST /register response. */
function validate(state: State): void {
  const body: State = { ...state };
  for (const key of NEWER_TOP_LEVEL) delete body[key];
  if (Array.isArray(body.realm_linkifiers)) {
    body.realm_linkifiers = body.realm_linkifiers.map((l: State) => {
      const copy = { ...l };
      for (const key of NEWER_LINKIFIER_FIELDS) delete copy[key];
      return copy;
    });
  }
  // idle_queue_timeout_secs (spec: Event queue) is newer than the yaml too, so it is left out here.
  validateResponse('POST', '/register', 200, { result: 'success', msg: '', queue_id: 'x', last_event_id: -1, ...body });
}

/** Fails the setup on any refused request. */
async function must(request: Promise<ApiResponse>): Promise<any> {
  const res = await request;
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The channel or user with this ID in a list (undefined when absent). */
const byId = (list: State[], id: number): State => list.find((x) => x.stream_id === id || x.user_id === id) as State;

beforeAll(async () => {
  db = t.db;
  realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
  const owner = t.client(t.owner);
  botId = (await makeBot(t, alice, { fullName: 'Helper Bot' })).userId;

  ch.general = (await db.channel.findFirstOrThrow({ where: { realmId: realm.id, name: 'general' } })).id;
  ch.design = await makeChannel(owner, 'design', { principals: [alice.userId, guest.userId, t.owner.userId] });
  ch.secret = await makeChannel(owner, 'secret', { invite_only: true });
  ch.lobby = await makeChannel(owner, 'lobby');
  ch.attic = await makeChannel(owner, 'attic');
  await updateRealm(t, { enable_spectator_access: true });
  // Written directly, as is the archiving below: through the API the notification bot would announce
  // both in the channels, and the message counts asserted below would change with it.
  await db.channel.update({ where: { id: ch.lobby }, data: { isWebPublic: true } });

  const aliceClient = t.client(alice);
  ownerName = (await db.user.findUniqueOrThrow({ where: { id: t.owner.userId } })).fullName;
  msg.mention = await sendToChannel(aliceClient, 'general', 'greetings', `hello @**${ownerName}**`);
  msg.plain = await sendToChannel(aliceClient, 'general', 'greetings', 'second');
  msg.emptyTopic = await sendToChannel(aliceClient, 'general', '', 'in the general chat');
  msg.design = await sendToChannel(aliceClient, 'design', 'mockups', 'new mockups');
  msg.attic = await sendToChannel(owner, 'attic', 'old', 'to be archived');
  msg.dm = await sendDirect(aliceClient, [t.owner.userId], 'hi owner');
  msg.groupDm = await sendDirect(t.client(bob), [t.owner.userId, alice.userId], 'hi both');
  msg.selfDm = await sendDirect(owner, [t.owner.userId], 'note to self');
  await db.channel.update({ where: { id: ch.attic }, data: { isArchived: true } });
  await must(owner.post('/messages/flags', { messages: [msg.plain], op: 'add', flag: 'starred' }));

  // Personal data of the owner.
  await must(owner.post('/user_topics', { stream_id: ch.general, topic: '', visibility_policy: 3 }));
  await must(owner.post('/user_topics', { stream_id: ch.design, topic: 'mockups', visibility_policy: 1 }));
  await must(owner.post('/saved_snippets', { title: 'Greeting', content: 'Hello!' }));
  await must(owner.post('/navigation_views', { fragment: 'inbox', is_pinned: true }));
  await must(owner.post('/navigation_views', { fragment: 'narrow/channel/1', is_pinned: false, name: 'Mine' }));
  // Written directly: a token comes from the provider's OAuth flow (test/rest/calls.test.ts runs it against a fake one).
  await db.videoProviderToken.create({ data: { userId: t.owner.userId, provider: 'zoom', token: 'secret-token' } });
  const inSeconds = (ms: number) => Math.floor((Date.now() + ms) / 1000);
  await must(owner.post('/scheduled_messages', { type: 'stream', to: ch.general, topic: '', content: 'later', scheduled_delivery_timestamp: inSeconds(3_600_000) }));
  await must(owner.post('/reminders', { message_id: msg.dm, scheduled_delivery_timestamp: inSeconds(7_200_000) }));

  // Realm data.
  await must(owner.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' }));
  // Written directly: this file's client sends no files (test/rest/custom-emoji.test.ts uploads emoji through the API).
  await db.customEmoji.create({
    data: { realmId: realm.id, name: 'parrot', fileName: 'parrot.gif', contentType: 'image/gif', content: Buffer.from('GIF89a'), isAnimated: true, authorId: alice.userId },
  });
  await must(owner.post('/realm/domains', { domain: 'example.com', allow_subdomains: true }));
  const field = (await must(owner.post('/realm/profile_fields', { name: 'Team', hint: '', field_type: 1 }))).id;
  await must(aliceClient.patch('/users/me/profile_data', { data: [{ id: field, value: 'Design' }] }));
  await makeChannelFolder(owner, 'Projects');

  // Groups: a named group whose manager is an explicit set, and a deactivated one.
  await must(aliceClient.post('/user_groups/create', {
    name: 'designers', description: 'Design team', members: [alice.userId, bob.userId],
    can_manage_group: { direct_members: [alice.userId], direct_subgroups: [] },
  }));
  const retired = (await must(owner.post('/user_groups/create', { name: 'retired', description: '', members: [] }))).group_id;
  await must(owner.post(`/user_groups/${retired}/deactivate`));

  // Presence and status; presence written directly, as reports made in the past.
  const now = Date.now();
  await db.userPresence.create({ data: { userId: alice.userId, realmId: realm.id, lastActiveTime: new Date(now - 10_000), lastConnectedTime: new Date(now - 5_000) } });
  await db.userPresence.create({ data: { userId: bob.userId, realmId: realm.id, lastActiveTime: new Date(now - 3_600_000), lastConnectedTime: new Date(now - 60_000) } });
  await db.userPresence.create({ data: { userId: t.owner.userId, realmId: realm.id, lastActiveTime: new Date(now - 40 * 86_400_000), lastConnectedTime: new Date(now - 40 * 86_400_000) } });
  await must(aliceClient.post('/users/me/status', { status_text: 'Designing', emoji_name: 'art', emoji_code: '1f3a8' }));
  await must(t.client(bob).post('/users/me/status', { status_text: 'Out sick' }));
  await must(t.client(dana).delete('/users/me/subscriptions', { subscriptions: ['general'] }));
  await db.userPresence.create({ data: { userId: dana.userId, realmId: realm.id, lastActiveTime: new Date(now - 1000), lastConnectedTime: new Date(now - 1000) } });
  await must(t.client(dana).post('/users/me/status', { status_text: 'Hidden' }));
  // Written directly: stored settings the API would refuse, which register must not pass on.
  await db.user.update({
    where: { id: alice.userId },
    data: { settings: { enter_sends: true, emojiset: 'text', presence_enabled: 'nope', secret_key: 'leak?' } },
  });
});

describe('shape', () => {
  it('matches zulip.yaml for an owner with every fetch type', async () => {
    const state = await stateFor(t.owner.userId, { includeSubscribers: 'true' });
    validate(state);
    for (const key of [
      'zulip_version', 'zulip_feature_level', 'zulip_merge_base', 'realm_name', 'realm_users', 'realm_non_active_users',
      'cross_realm_bots', 'subscriptions', 'unsubscribed', 'never_subscribed', 'streams', 'max_message_id', 'unread_msgs',
      'recent_private_conversations', 'realm_user_groups', 'navigation_views', 'saved_snippets', 'realm_linkifiers',
      'realm_emoji', 'presences', 'server_timestamp', 'presence_last_update_id', 'user_settings', 'user_status',
      'user_topics', 'starred_messages', 'drafts', 'scheduled_messages', 'reminders', 'muted_users', 'alert_words',
      'custom_profile_fields', 'realm_default_streams', 'realm_default_stream_groups', 'realm_domains',
      'realm_playgrounds', 'realm_bots', 'onboarding_steps', 'has_provider_token', 'server_report_message_types',
      'realm_empty_topic_display_name', 'realm_incoming_webhook_bots', 'channel_folders',
    ]) {
      expect(state, key).toHaveProperty(key);
    }
    expect(state).not.toHaveProperty('queue_id');
    expect(state).not.toHaveProperty('last_event_id');
    expect(state).not.toHaveProperty('idle_queue_timeout_secs');
  });

  it('matches zulip.yaml for a member, a guest and with every capability', async () => {
    const all = {
      notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true,
      stream_typing_notifications: true, user_settings_object: true, linkifier_url_template: true,
      user_list_incomplete: true, include_deactivated_groups: true, archived_channels: true, empty_topic_name: true,
      simplified_presence_events: true, individual_emoji_changes: true,
    };
    validate(await stateFor(alice.userId, { capabilities: all, includeSubscribers: 'partial', slimPresence: true }));
    validate(await stateFor(guest.userId, { includeSubscribers: 'true' }));
    validate(await stateFor(bob.userId, { clientGravatar: true }));
  });

  it('sends the limits and typing timings', async () => {
    const state = await stateFor(alice.userId, { fetchEventTypes: ['realm'] });
    expect(state.max_message_length).toBe(10000);
    expect(state.max_topic_length).toBe(60);
    expect(state.max_stream_name_length).toBe(60);
    expect(state.max_stream_description_length).toBe(1024);
    expect(state.server_typing_started_wait_period_milliseconds).toBe(TYPING_STARTED_WAIT_MS);
    expect(state.server_typing_stopped_wait_period_milliseconds).toBe(TYPING_STOPPED_WAIT_MS);
    expect(state.server_typing_started_expiry_period_milliseconds).toBe(TYPING_STARTED_EXPIRY_MS);
    expect([TYPING_STARTED_WAIT_MS, TYPING_STOPPED_WAIT_MS, TYPING_STARTED_EXPIRY_MS]).toEqual([30000, 12000, 45000]);
    expect(state.realm_empty_topic_display_name).toBe(realm.emptyTopicDisplayName);
    expect(state.server_report_message_types).toEqual(REPORT_MESSAGE_TYPES);
    expect(state.server_report_message_types.map((r: State) => r.key).sort()).toEqual(['harassment', 'inappropriate', 'norms', 'other', 'spam']);
    expect(state.realm_new_stream_announcements_stream_id).toBe(ch.general);
    expect(state.realm_moderation_request_channel_id).toBe(-1);
    // Group settings: a named group's ID; the deprecated policies follow the system group.
    const groups = await db.userGroup.findMany({ where: { realmId: realm.id, isSystemGroup: true } });
    const id = (name: string) => groups.find((g) => g.name === name)!.id;
    expect(state.realm_can_create_web_public_channel_group).toBe(id('role:owners'));
    expect(state.realm_can_access_all_users_group).toBe(id('role:everyone'));
    expect(state.realm_create_public_stream_policy).toBe(1);
    expect(state.realm_wildcard_mention_policy).toBe(5);
  });
});

describe('fetch_event_types', () => {
  it('includes only the requested types, plus the version', async () => {
    const state = await stateFor(alice.userId, { fetchEventTypes: ['message'] });
    expect(Object.keys(state).sort()).toEqual(['max_message_id', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);
    validate(state);

    const unread = await stateFor(alice.userId, { fetchEventTypes: ['message', 'update_message_flags'] });
    expect(Object.keys(unread).sort()).toEqual(['max_message_id', 'unread_msgs', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);

    const users = await stateFor(alice.userId, { fetchEventTypes: ['realm_user'] });
    expect(users).toHaveProperty('realm_users');
    expect(users).toHaveProperty('avatar_source');
    expect(users).toHaveProperty('can_create_public_streams');
    expect(users).not.toHaveProperty('realm_name');
    expect(users).not.toHaveProperty('subscriptions');

    const subs = await stateFor(alice.userId, { fetchEventTypes: ['subscription'] });
    expect(Object.keys(subs).sort()).toEqual(['never_subscribed', 'subscriptions', 'unsubscribed', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);

    const presence = await stateFor(alice.userId, { fetchEventTypes: ['presence'] });
    expect(Object.keys(presence).sort()).toEqual(['presence_last_update_id', 'presences', 'server_timestamp', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);

    const none = await stateFor(alice.userId, { fetchEventTypes: [] });
    expect(Object.keys(none).sort()).toEqual(['zulip_feature_level', 'zulip_merge_base', 'zulip_version']);
  });

  it('leaves out the deprecated muted_topics when user_topic is requested too', async () => {
    const both = await stateFor(t.owner.userId, { fetchEventTypes: ['user_topic', 'muted_topics'] });
    expect(both).toHaveProperty('user_topics');
    expect(both).not.toHaveProperty('muted_topics');
    const legacy = await stateFor(t.owner.userId, { fetchEventTypes: ['muted_topics'] });
    expect(legacy.muted_topics).toEqual([['design', 'mockups', expect.any(Number)]]);
    expect((await stateFor(t.owner.userId)).muted_topics).toHaveLength(1);
  });
});

describe('users', () => {
  it('lists active and deactivated users separately, without is_active', async () => {
    await deactivate(t, bob.userId);
    try {
      const state = await stateFor(alice.userId, { fetchEventTypes: ['realm_user'] });
      expect(byId(state.realm_non_active_users, bob.userId)).toBeDefined();
      expect(byId(state.realm_users, bob.userId)).toBeUndefined();
      const me = byId(state.realm_users, alice.userId);
      expect(me).not.toHaveProperty('is_active');
      expect(me.profile_data).toEqual({ [String((await db.customProfileField.findFirstOrThrow()).id)]: { value: 'Design', rendered_value: '<p>Design</p>' } });
      const bot = byId(state.realm_users, botId);
      expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: alice.userId });
      expect(bot).not.toHaveProperty('profile_data');
      expect(state.user_id).toBe(alice.userId);
      expect(state.is_admin).toBe(false);
      expect(state.can_create_public_streams).toBe(true);
      expect(state.can_create_web_public_streams).toBe(false);
    } finally {
      await reactivate(t, bob.userId);
    }
  });

  it('omits avatar URLs of long-idle users only with user_avatar_url_field_optional', async () => {
    // Written directly: only time makes a user long idle.
    await db.user.update({ where: { id: bob.userId }, data: { dateJoined: new Date(Date.now() - 400 * 86_400_000), lastActivity: null } });
    const without = await stateFor(alice.userId, { fetchEventTypes: ['realm_user'] });
    expect(byId(without.realm_users, bob.userId).avatar_url).toEqual(expect.any(String));
    const withCap = await stateFor(alice.userId, { fetchEventTypes: ['realm_user'], capabilities: { user_avatar_url_field_optional: true } });
    expect(byId(withCap.realm_users, bob.userId)).not.toHaveProperty('avatar_url');
    expect(byId(withCap.realm_users, alice.userId).avatar_url).toEqual(expect.any(String));
    // client_gravatar: gravatar users whose address the viewer may see get null.
    const gravatar = await stateFor(alice.userId, { fetchEventTypes: ['realm_user'], clientGravatar: true });
    expect(byId(gravatar.realm_users, bob.userId).avatar_url).toBeNull();
  });

  it('limits guests outside can_access_all_users_group to the people they share something with', async () => {
    const members = await db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: 'role:members' } });
    const everyone = await db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: 'role:everyone' } });
    await updateRealm(t, { can_access_all_users_group: { new: members.id } });
    try {
      // Without the capability, inaccessible users appear as "Unknown user" placeholders.
      const full = await stateFor(guest.userId, { fetchEventTypes: ['realm_user', 'presence', 'user_status'] });
      validate(full);
      const ids = full.realm_users.map((u: State) => u.user_id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      expect(byId(full.realm_users, alice.userId).full_name).toBe('Alice Anders'); // shares #design
      expect(byId(full.realm_users, t.owner.userId).full_name).toBe(ownerName); // shares #design
      expect(byId(full.realm_users, botId).full_name).toBe('Helper Bot'); // bots are always visible
      const hidden = byId(full.realm_users, dana.userId);
      expect(hidden).toMatchObject({ full_name: INACCESSIBLE_USER_NAME, delivery_email: null, role: 400, is_bot: false });
      expect(hidden.email).toMatch(new RegExp(`^user${dana.userId}@`));
      // Presence and status of inaccessible users are not sent.
      expect(full.presences).not.toHaveProperty(dana.email);
      expect(full.presences).toHaveProperty(alice.email);
      expect(full.user_status).not.toHaveProperty(String(dana.userId));
      expect(full.user_status).toHaveProperty(String(alice.userId));

      // With user_list_incomplete, they are left out.
      const partial = await stateFor(guest.userId, { fetchEventTypes: ['realm_user'], capabilities: { user_list_incomplete: true } });
      expect(byId(partial.realm_users, dana.userId)).toBeUndefined();
      expect(byId(partial.realm_users, alice.userId)).toBeDefined();
      expect(partial.realm_users.some((u: State) => u.full_name === INACCESSIBLE_USER_NAME)).toBe(false);

      // Members always see everyone.
      const member = await stateFor(alice.userId, { fetchEventTypes: ['realm_user'] });
      expect(byId(member.realm_users, dana.userId).full_name).toBe('Dana Dark');
    } finally {
      await updateRealm(t, { can_access_all_users_group: { new: everyone.id } });
    }
    // With can_access_all_users_group = everyone, guests see everyone too.
    const open = await stateFor(guest.userId, { fetchEventTypes: ['realm_user'], capabilities: { user_list_incomplete: true } });
    expect(byId(open.realm_users, dana.userId).full_name).toBe('Dana Dark');
  });

  it('lists bots the viewer administers', async () => {
    expect((await stateFor(alice.userId, { fetchEventTypes: ['realm_bot'] })).realm_bots.map((b: State) => b.user_id)).toEqual([botId]);
    expect((await stateFor(bob.userId, { fetchEventTypes: ['realm_bot'] })).realm_bots).toEqual([]);
    const owners = await stateFor(t.owner.userId, { fetchEventTypes: ['realm_bot'] });
    expect(owners.realm_bots[0]).toMatchObject({ user_id: botId, owner_id: alice.userId, api_key: expect.any(String), services: [] });
  });

  it('sends presence in legacy or modern format, within the history limit', async () => {
    const legacy = await stateFor(bob.userId, { fetchEventTypes: ['presence'] });
    expect(Object.keys(legacy.presences).sort()).toEqual([alice.email, bob.email, dana.email].sort());
    expect(legacy.presences[alice.email].aggregated).toMatchObject({ client: 'website', status: 'active' });
    expect(legacy.presences[bob.email].website).toMatchObject({ status: 'idle', pushable: false });
    // Alice's presence_enabled holds a string: ignored, so the default (true) applies.
    const slim = await stateFor(bob.userId, { fetchEventTypes: ['presence'], slimPresence: true });
    expect(slim.presences[String(alice.userId)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(slim.presences).not.toHaveProperty(String(t.owner.userId)); // 40 days old
    const simplified = await stateFor(bob.userId, { fetchEventTypes: ['presence'], capabilities: { simplified_presence_events: true } });
    expect(simplified.presences).toHaveProperty(String(alice.userId));
    const longer = await stateFor(bob.userId, { fetchEventTypes: ['presence'], slimPresence: true, presenceHistoryLimitDays: 60 });
    expect(longer.presences).toHaveProperty(String(t.owner.userId));
  });

  it('sends user statuses with empty parts left out', async () => {
    const state = await stateFor(t.owner.userId, { fetchEventTypes: ['user_status'] });
    expect(state.user_status[String(alice.userId)]).toEqual({ status_text: 'Designing', emoji_name: 'art', emoji_code: '1f3a8', reaction_type: 'unicode_emoji' });
    expect(state.user_status[String(bob.userId)]).toEqual({ status_text: 'Out sick' });
  });

  it('merges stored settings over Zulip\'s defaults, ignoring unknown keys and wrong types', async () => {
    const state = await stateFor(alice.userId, { fetchEventTypes: ['user_settings', 'realm_user_settings_defaults'] });
    expect(state.user_settings).toMatchObject({ enter_sends: true, emojiset: 'text', presence_enabled: true, web_home_view: 'inbox', timezone: '' });
    expect(state.user_settings).not.toHaveProperty('secret_key');
    expect(state.realm_user_settings_defaults).toMatchObject({ enter_sends: false, emojiset: 'google' });
    expect(state.realm_user_settings_defaults).not.toHaveProperty('timezone');
  });
});

describe('groups', () => {
  it('lists named groups with group-setting values; deactivated ones only with include_deactivated_groups', async () => {
    const state = await stateFor(alice.userId, { fetchEventTypes: ['realm_user_groups'] });
    const names = state.realm_user_groups.map((g: State) => g.name);
    expect(names).toContain('role:everyone');
    expect(names).toContain('designers');
    expect(names).not.toContain('retired');
    expect(names).not.toContain(null); // anonymous groups are never listed
    const designers = state.realm_user_groups.find((g: State) => g.name === 'designers');
    expect(designers.members).toEqual([alice.userId, bob.userId].sort((a, b) => a - b));
    expect(designers.can_manage_group).toEqual({ direct_members: [alice.userId], direct_subgroups: [] });
    expect(designers.creator_id).toBe(alice.userId);
    const everyone = state.realm_user_groups.find((g: State) => g.name === 'role:everyone');
    expect(everyone.is_system_group).toBe(true);
    expect(everyone.direct_subgroup_ids).toEqual([state.realm_user_groups.find((g: State) => g.name === 'role:members').id]);

    const withDeactivated = await stateFor(alice.userId, { fetchEventTypes: ['realm_user_groups'], capabilities: { include_deactivated_groups: true } });
    const retired = withDeactivated.realm_user_groups.find((g: State) => g.name === 'retired');
    expect(retired.deactivated).toBe(true);
  });
});

describe('channels', () => {
  it('splits channels into subscribed, unsubscribed and never subscribed', async () => {
    expect((await t.client(alice).delete('/users/me/subscriptions', { subscriptions: ['design'] })).status).toBe(200);
    try {
      const state = await stateFor(alice.userId, { fetchEventTypes: ['subscription', 'stream'] });
      const ids = (list: State[]) => list.map((c) => c.stream_id);
      expect(ids(state.subscriptions)).toEqual([ch.general]);
      expect(ids(state.unsubscribed)).toEqual([ch.design]);
      // Public channels she never joined; not the private one, not the archived one.
      expect(ids(state.never_subscribed).sort()).toEqual([ch.lobby].sort());
      expect(ids(state.streams)).not.toContain(ch.secret);
      expect(ids(state.streams)).not.toContain(ch.attic);
      const names = state.subscriptions.concat(state.never_subscribed).map((c: State) => c.name);
      expect(state.never_subscribed.map((c: State) => c.name)).toEqual([...state.never_subscribed.map((c: State) => c.name)].sort());
      expect(names).not.toContain('secret');
    } finally {
      expect((await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    }
    // Administrators see private channels they are not in.
    const admin = await stateFor(t.owner.userId, { fetchEventTypes: ['subscription', 'stream'] });
    expect(admin.streams.map((c: State) => c.stream_id)).toContain(ch.secret);
    // Guests learn only web-public channels beyond their own.
    const guestState = await stateFor(guest.userId, { fetchEventTypes: ['subscription', 'stream'] });
    expect(guestState.subscriptions.map((c: State) => c.stream_id)).toEqual([ch.design, ch.general]);
    expect(guestState.never_subscribed.map((c: State) => c.stream_id)).toEqual([ch.lobby]);
  });

  it('leaves archived channels out without archived_channels', async () => {
    const without = await stateFor(t.owner.userId, { fetchEventTypes: ['subscription', 'stream'] });
    expect(without.subscriptions.map((c: State) => c.stream_id)).not.toContain(ch.attic);
    expect(without.streams.map((c: State) => c.stream_id)).not.toContain(ch.attic);
    const withCap = await stateFor(t.owner.userId, { fetchEventTypes: ['subscription', 'stream'], capabilities: { archived_channels: true } });
    expect(byId(withCap.subscriptions, ch.attic).is_archived).toBe(true);
    expect(withCap.streams.map((c: State) => c.stream_id)).toContain(ch.attic);
  });

  it('sends subscriber lists according to include_subscribers', async () => {
    const none = await stateFor(alice.userId, { fetchEventTypes: ['subscription'], includeSubscribers: 'false' });
    expect(none.subscriptions[0]).not.toHaveProperty('subscribers');
    expect(none.never_subscribed[0]).not.toHaveProperty('subscribers');

    const full = await stateFor(alice.userId, { fetchEventTypes: ['subscription'], includeSubscribers: 'true' });
    expect(byId(full.subscriptions, ch.design).subscribers).toEqual([alice.userId, guest.userId, t.owner.userId].sort((a, b) => a - b));
    expect(byId(full.never_subscribed, ch.lobby).subscribers).toEqual([t.owner.userId]);

    // A guest may not see who is in a public channel they are not in (but may in web-public ones).
    const guestState = await stateFor(guest.userId, { fetchEventTypes: ['subscription'], includeSubscribers: 'true' });
    expect(byId(guestState.never_subscribed, ch.lobby).subscribers).toEqual([t.owner.userId]);
    expect(byId(guestState.subscriptions, ch.design).subscribers).toContain(alice.userId);
  });

  it('sends partial_subscribers (bots and recently active users) for large channels with partial', async () => {
    const crowd = await makeChannel(t.client(t.owner), 'crowd');
    const stamp = Date.now();
    // Written directly: this many accounts through POST /users would take most of a minute, and only
    // the database can date a user's last activity back.
    const extra = Array.from({ length: PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE }, (_, i) => ({
      realmId: realm.id, email: `crowd${i}-${stamp}@example.com`, deliveryEmail: `crowd${i}-${stamp}@example.com`,
      fullName: `Crowd ${i}`, apiKey: `crowd-${stamp}-${i}`,
      lastActivity: i < 3 ? new Date() : i < 6 ? new Date(Date.now() - 30 * 86_400_000) : null,
    }));
    await db.user.createMany({ data: extra });
    const crowdUsers = await db.user.findMany({ where: { email: { startsWith: 'crowd' } }, orderBy: { id: 'asc' } });
    await db.subscription.createMany({
      data: [...crowdUsers.map((u) => ({ userId: u.id, channelId: crowd })), { userId: botId, channelId: crowd }],
    });
    try {
      const state = await stateFor(t.owner.userId, { fetchEventTypes: ['subscription'], includeSubscribers: 'partial' });
      const record = byId(state.subscriptions, crowd);
      expect(record).not.toHaveProperty('subscribers');
      // The owner created the channel over the API, so counts as recently active too.
      expect(record.partial_subscribers).toEqual([t.owner.userId, ...crowdUsers.slice(0, 3).map((u) => u.id), botId].sort((a, b) => a - b));
      // Small channels still get the full list.
      expect(byId(state.subscriptions, ch.design).subscribers).toHaveLength(3);
      expect(byId(state.subscriptions, ch.design)).not.toHaveProperty('partial_subscribers');
      validate(state);

      const full = await stateFor(t.owner.userId, { fetchEventTypes: ['subscription'], includeSubscribers: 'true' });
      expect(byId(full.subscriptions, crowd).subscribers).toHaveLength(PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE + 2);
    } finally {
      await db.subscription.updateMany({ where: { channelId: crowd, userId: { not: t.owner.userId } }, data: { active: false } });
    }
  });

  it('fills null notification settings from the user\'s defaults without notification_settings_null', async () => {
    const legacy = await stateFor(alice.userId, { fetchEventTypes: ['subscription'] });
    expect(byId(legacy.subscriptions, ch.general)).toMatchObject({
      desktop_notifications: false, audible_notifications: false, push_notifications: false, email_notifications: false,
      wildcard_mentions_notify: true,
    });
    const modern = await stateFor(alice.userId, { fetchEventTypes: ['subscription'], capabilities: { notification_settings_null: true } });
    expect(byId(modern.subscriptions, ch.general).desktop_notifications).toBeNull();
  });

  it('sends default channels to members only', async () => {
    expect((await stateFor(alice.userId, { fetchEventTypes: ['default_streams'] })).realm_default_streams).toEqual([ch.general]);
    expect((await stateFor(guest.userId, { fetchEventTypes: ['default_streams'] })).realm_default_streams).toEqual([]);
  });
});

describe('messages', () => {
  it('counts unread messages like Zulip', async () => {
    const state = await stateFor(t.owner.userId, { fetchEventTypes: ['message', 'update_message_flags'] });
    const unread = state.unread_msgs;
    // Direct: Alice's one-to-one message; the group conversation; not the owner's own note (read by sender).
    expect(unread.pms).toEqual([{ other_user_id: alice.userId, sender_id: alice.userId, unread_message_ids: [msg.dm] }]);
    expect(unread.huddles).toEqual([{
      user_ids_string: [t.owner.userId, alice.userId, bob.userId].sort((a, b) => a - b).join(','),
      unread_message_ids: [msg.groupDm],
    }]);
    // The empty topic shows as the display name without the empty_topic_name capability.
    const general = unread.streams.filter((s: State) => s.stream_id === ch.general);
    expect(general).toEqual(expect.arrayContaining([
      { stream_id: ch.general, topic: 'greetings', unread_message_ids: [msg.mention, msg.plain] },
      { stream_id: ch.general, topic: realm.emptyTopicDisplayName, unread_message_ids: [msg.emptyTopic] },
    ]));
    // #design › mockups is muted for the owner: listed, but not counted.
    expect(unread.streams.find((s: State) => s.stream_id === ch.design).unread_message_ids).toEqual([msg.design]);
    expect(unread.count).toBe(1 + 1 + 3);
    expect(unread.mentions).toEqual([msg.mention]);
    expect(unread.old_unreads_missing).toBe(false);

    const withEmpty = await stateFor(t.owner.userId, { fetchEventTypes: ['message', 'update_message_flags'], capabilities: { empty_topic_name: true } });
    expect(withEmpty.unread_msgs.streams.some((s: State) => s.stream_id === ch.general && s.topic === '')).toBe(true);
    expect(state.max_message_id).toBe(msg.selfDm);
  });

  it('lists recent direct conversations, newest first, without the viewer', async () => {
    const state = await stateFor(t.owner.userId, { fetchEventTypes: ['recent_private_conversations'] });
    expect(state.recent_private_conversations).toEqual([
      { max_message_id: msg.selfDm, user_ids: [] },
      { max_message_id: msg.groupDm, user_ids: [alice.userId, bob.userId].sort((a, b) => a - b) },
      { max_message_id: msg.dm, user_ids: [alice.userId] },
    ]);
  });

  it('sends starred messages, scheduled messages and reminders', async () => {
    const state = await stateFor(t.owner.userId, { fetchEventTypes: ['starred_messages', 'scheduled_messages', 'reminders', 'drafts'] });
    expect(state.starred_messages).toEqual([msg.plain]);
    expect(state.scheduled_messages).toEqual([expect.objectContaining({ type: 'stream', to: ch.general, topic: realm.emptyTopicDisplayName, failed: false })]);
    expect(state.reminders).toEqual([expect.objectContaining({ reminder_id: expect.any(Number), to: [t.owner.userId], reminder_target_message_id: msg.dm })]);
    expect(state.drafts).toEqual([]);
  });
});

describe('personal data and realm lists', () => {
  it('replaces the empty topic in user_topics without empty_topic_name', async () => {
    const state = await stateFor(t.owner.userId, { fetchEventTypes: ['user_topic'] });
    expect(state.user_topics).toEqual(expect.arrayContaining([
      { stream_id: ch.general, topic_name: realm.emptyTopicDisplayName, last_updated: expect.any(Number), visibility_policy: 3 },
      { stream_id: ch.design, topic_name: 'mockups', last_updated: expect.any(Number), visibility_policy: 1 },
    ]));
    const modern = await stateFor(t.owner.userId, { fetchEventTypes: ['user_topic'], capabilities: { empty_topic_name: true } });
    const generalTopics = modern.user_topics.filter((u: State) => u.stream_id === ch.general).map((u: State) => u.topic_name);
    expect(generalTopics).toContain('');
    expect(generalTopics).not.toContain(realm.emptyTopicDisplayName);
  });

  it('sends navigation views, saved snippets and has_provider_token', async () => {
    const state = await stateFor(t.owner.userId, { fetchEventTypes: ['navigation_views', 'saved_snippets', 'video_calls'] });
    expect(state.navigation_views).toEqual([{ fragment: 'inbox', is_pinned: true }, { fragment: 'narrow/channel/1', is_pinned: false, name: 'Mine' }]);
    expect(state.saved_snippets).toEqual([{ id: expect.any(Number), title: 'Greeting', content: 'Hello!', date_created: expect.any(Number) }]);
    expect(state.has_provider_token).toBe(true);
    expect(state.has_zoom_token).toBe(true);
    expect((await stateFor(alice.userId, { fetchEventTypes: ['has_provider_token'] })).has_provider_token).toBe(false);
  });

  it('sends linkifiers only to clients with linkifier_url_template', async () => {
    expect((await stateFor(alice.userId, { fetchEventTypes: ['realm_linkifiers'] })).realm_linkifiers).toEqual([]);
    const state = await stateFor(alice.userId, { fetchEventTypes: ['realm_linkifiers'], capabilities: { linkifier_url_template: true } });
    expect(state.realm_linkifiers).toEqual([expect.objectContaining({ id: expect.any(Number), pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' })]);
  });

  it('sends custom emoji keyed by ID, and the realm\'s domains', async () => {
    const state = await stateFor(alice.userId, { fetchEventTypes: ['realm_emoji', 'realm_domains', 'custom_profile_fields'] });
    const [emoji] = Object.values(state.realm_emoji) as State[];
    expect(state.realm_emoji[emoji!.id]).toMatchObject({ name: 'parrot', deactivated: false, author_id: alice.userId, still_url: expect.any(String) });
    expect(state.realm_domains).toEqual([{ domain: 'example.com', allow_subdomains: true }]);
    expect(state.custom_profile_fields).toEqual([expect.objectContaining({ name: 'Team', type: 1, order: 1 })]);
    expect(state.custom_profile_field_types.PRONOUNS).toEqual({ id: 8, name: 'Pronouns' });
  });
});

describe('spectators', () => {
  it('get realm data and the web-public channels, and nothing personal', async () => {
    const state = await stateFor(null);
    validate(state);
    expect(state.subscriptions.map((c: State) => c.stream_id)).toEqual([ch.lobby]);
    expect(state.streams.map((c: State) => c.stream_id)).toEqual([ch.lobby]);
    expect(state.unsubscribed).toEqual([]);
    expect(state.never_subscribed).toEqual([]);
    expect(state.presences).toEqual({});
    expect(state).not.toHaveProperty('presence_last_update_id');
    expect(state.max_message_id).toBe(-1);
    expect(state.unread_msgs.count).toBe(0);
    expect(state.recent_private_conversations).toEqual([]);
    expect(state.realm_default_streams).toEqual([]);
    expect(state.custom_profile_fields).toEqual([]);
    expect(state.user_id).toBe(0);
    expect(state.is_guest).toBe(true);
    expect(state.realm_allow_message_editing).toBe(false);
    expect(state.realm_presence_disabled).toBe(true);
    expect(state.user_settings.web_home_view).toBe('recent_topics');
    const anyUser = byId(state.realm_users, alice.userId);
    expect(anyUser).not.toHaveProperty('timezone');
    expect(anyUser).not.toHaveProperty('profile_data');
    expect(anyUser.delivery_email).toBeNull();
    expect(anyUser.date_joined).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('see no channels when the realm does not allow spectators', async () => {
    await updateRealm(t, { enable_spectator_access: false });
    try {
      const state = await stateFor(null, { fetchEventTypes: ['subscription', 'stream'] });
      expect(state.subscriptions).toEqual([]);
      expect(state.streams).toEqual([]);
    } finally {
      await updateRealm(t, { enable_spectator_access: true });
    }
  });
});

describe('batching', () => {
  /** Counts database calls made through the context's `db`. */
  function counting(target: Context['db']) {
    let calls = 0;
    const wrap = (obj: any): any => new Proxy(obj, {
      get(o, prop) {
        const value = Reflect.get(o, prop);
        if (typeof value === 'function') return (...args: unknown[]) => { calls++; return value.apply(o, args); };
        if (value && typeof value === 'object' && typeof prop === 'string' && !prop.startsWith('_')) return wrap(value);
        return value;
      },
    });
    return { db: wrap(target) as Context['db'], calls: () => calls };
  }

  async function queriesFor(userId: number, overrides: Partial<InitialStateOptions>): Promise<number> {
    const counter = counting(db);
    const { ctx, user } = await contextFor(userId, counter.db);
    await buildInitialState(ctx, user, options(overrides));
    return counter.calls();
  }

  it('makes the same number of queries however many users and channels the realm has', async () => {
    const heavy: Partial<InitialStateOptions> = { includeSubscribers: 'true' };
    const owner = t.client(t.owner);
    const more: MadeUser[] = [];
    let round = 0;
    // Each round adds users, a channel (alternately private), channel and group messages, presence and status.
    async function addRound(): Promise<void> {
      const users = [await makeUser(t), await makeUser(t)];
      more.push(...users);
      const name = `extra-${round}`;
      await makeChannel(owner, name, { principals: [t.owner.userId, guest.userId, ...users.map((u) => u.userId)], invite_only: round % 2 === 1 });
      await sendToChannel(t.client(users[0]!), name, `topic ${round}`, 'hello');
      await sendDirect(t.client(users[1]!), [t.owner.userId, guest.userId], 'group hello');
      await sendDirect(t.client(users[0]!), [t.owner.userId], 'hello owner');
      for (const user of users) {
        await must(t.client(user).post('/users/me/presence', { status: 'active' }));
        await must(t.client(user).post('/users/me/status', { status_text: 'busy' }));
      }
      round++;
    }
    await addRound();
    const before = await queriesFor(t.owner.userId, heavy);
    const beforeGuest = await queriesFor(guest.userId, heavy);
    for (let i = 0; i < 4; i++) await addRound();
    expect(await queriesFor(t.owner.userId, heavy)).toBe(before);
    expect(await queriesFor(guest.userId, heavy)).toBe(beforeGuest);
    expect(before).toBeLessThan(50);
  });
});
