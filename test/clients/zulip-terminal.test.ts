// zulip-terminal (zulip/zulip-terminal, zulipterminal/model.py and core.py), through the Python
// `zulip` package: GET parameters in the query string, the rest form-encoded, every non-string value
// JSON-encoded with Python's json.dumps (so lists are written "[1, 2]"). One test per request
// shape it sends (docs/clients.md lists them), checking the fields it reads; the session itself is
// scripts/clients/zulip-terminal.sh.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendDirect, sendToChannel, type MadeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { expectMessageRecord, type Wire } from './support.ts';
import { only, openQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const UA = { 'user-agent': 'ZulipTerminal/0.7.0+git ZulipPython/0.9.0 (Debian GNU/Linux; 12)' };

let designId: number;
const t = useTestServer();
const { me, bob } = useTeam(t, ['me', 'bob'], { me: { fullName: 'Terry Terminal' } });
const ids: Record<string, number> = {};

// What zulip-terminal registers for (model.py: event_actions and initial_data_to_fetch).
const EVENT_TYPES = '["message", "update_message", "reaction", "submessage", "subscription", "typing", "update_message_flags", "user_settings", "realm_emoji", "realm_user"]';
const FETCH_TYPES = '["realm", "presence", "subscription", "message", "starred_messages", "update_message_flags", "muted_topics", "realm_user", "realm_user_groups", "user_settings", "realm_emoji", "custom_profile_fields", "zulip_version"]';
const REGISTER: Wire = { event_types: EVENT_TYPES, narrow: '[]', fetch_event_types: FETCH_TYPES, client_gravatar: 'true', apply_markdown: 'true', include_subscribers: 'true' };

const zt = (user: MadeUser): ApiClient => t.client(user);
const send = (client: ApiClient, method: string, path: string, params: Wire) =>
  client.request(method, path, params, method === 'GET' ? 'query' : 'urlencoded', UA);

beforeAll(async () => {
  designId = await makeChannel(t.client(me), 'design', { principals: [me.userId, bob.userId] });
  ids.read = await sendToChannel(t.client(me), 'design', 'colours', 'my own, so read');
  ids.unread1 = await sendToChannel(t.client(bob), 'design', 'colours', 'first unread');
  ids.unread2 = await sendToChannel(t.client(bob), 'design', 'fonts', 'serif or sans?');
  ids.dm = await sendDirect(t.client(bob), [me.userId], 'hello terry');
});

describe('zulip-terminal: GET /server_settings (zulip.Client() calls it before anything else)', () => {
  it('answers with zulip_version and zulip_feature_level', async () => {
    const res = await send(zt(me), 'GET', '/server_settings', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ zulip_version: expect.any(String), zulip_feature_level: expect.any(Number) });
  });
});

describe('zulip-terminal: GET /messages, as model.get_messages loads every view', () => {
  // anchor 0 with use_first_unread_anchor=true: the deprecated flag wins (Zulip's parse_anchor_value).
  const load = (narrow: string, extra: Wire = {}) => send(zt(me), 'GET', '/messages', {
    anchor: '0', num_before: '30', num_after: '10', apply_markdown: 'true', use_first_unread_anchor: 'true',
    client_gravatar: 'true', narrow, ...extra,
  });

  it('at start (narrow []): the first unread message is the anchor, messages as it indexes them', async () => {
    const res = await load('[]');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.anchor).toBe(ids.unread1);
    expect(res.body.found_newest).toBe(true);
    const messages = res.body.messages as Record<string, any>[];
    expect(messages.map((m) => m.id)).toEqual([ids.read, ids.unread1, ids.unread2, ids.dm]);
    for (const m of messages) expectMessageRecord(m);
    expect(messages[0]!.flags).toContain('read');
    expect(messages[1]!.flags).not.toContain('read');
    expect(messages[0]!.content).toBe('<p>my own, so read</p>');
  });

  it('a channel, a topic, direct messages, starred and mentions: the legacy [operator, operand] narrows', async () => {
    const channel = await load('[["stream", "design"]]');
    expect(channel.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.read, ids.unread1, ids.unread2]);
    const topic = await load('[["stream", "design"], ["topic", "fonts"]]');
    expect(topic.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.unread2]);
    expect(topic.body.anchor).toBe(ids.unread2);
    const pm = await load(`[["pm-with", "${bob.email}"]]`);
    expect(pm.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.dm]);
    const allDms = await load('[["is", "private"]]');
    expect(allDms.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.dm]);
    for (const narrow of ['[["is", "starred"]]', '[["is", "mentioned"]]']) {
      const res = await load(narrow);
      expect(res.status).toBe(200);
      expect(res.body.messages).toEqual([]);
      // Nothing unread there: Zulip's first_unread falls back to "newest", which the client checks.
      expect(res.body.anchor).toBe(10000000000000000);
    }
  });

  it('scrolling: a message ID anchor with use_first_unread_anchor=false', async () => {
    const res = await load('[]', { anchor: String(ids.unread2), use_first_unread_anchor: 'false', num_before: '1', num_after: '0' });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.unread1, ids.unread2]);
    expect(res.body.found_anchor).toBe(true);
  });

  it('search: anchor=10000000000, num_before=30, num_after=0, narrow [["search", text]]', async () => {
    const res = await load('[["search", "serif"]]', { anchor: '10000000000', num_after: '0', use_first_unread_anchor: 'false' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.unread2]);
  });

  it('latest message in a topic: anchor=10000000000000000 and an object narrow by channel ID', async () => {
    const res = await send(zt(me), 'GET', '/messages', {
      anchor: '10000000000000000', num_before: '1', num_after: '0',
      narrow: `[{"operator": "stream", "operand": ${designId}}, {"operator": "topic", "operand": "colours"}]`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.unread1]);
  });
});

describe('zulip-terminal: POST /register (model._register_desired_events)', () => {
  it('gives every initial-data field the terminal reads', async () => {
    const res = await send(zt(me), 'POST', '/register', REGISTER);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      queue_id: expect.any(String), last_event_id: -1, max_message_id: ids.dm,
      zulip_version: expect.any(String), zulip_feature_level: expect.any(Number),
      user_id: me.userId, email: me.email, full_name: 'Terry Terminal', realm_name: expect.any(String),
      realm_allow_message_editing: expect.any(Boolean), realm_allow_edit_history: expect.any(Boolean),
      realm_message_retention_days: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number'),
      max_stream_name_length: 60, max_topic_length: 60, max_message_length: 10000,
      server_presence_ping_interval_seconds: expect.any(Number), server_presence_offline_threshold_seconds: expect.any(Number),
      starred_messages: [], realm_emoji: expect.any(Object), custom_profile_fields: expect.any(Array),
      cross_realm_bots: expect.any(Array), realm_user_groups: expect.any(Array), presences: expect.any(Object),
    });
    // user_settings carries the three settings it reads; the top-level copies are gone since 439.
    expect(s.user_settings).toMatchObject({ send_private_typing_notifications: expect.any(Boolean), twenty_four_hour_time: expect.any(Boolean), pm_content_in_desktop_notifications: expect.any(Boolean) });
    // muted_topics: [stream name, topic, date muted] triples (feature level 1), asserted on.
    expect(s.muted_topics).toEqual([]);
    const self = s.realm_users.find((u: { user_id: number }) => u.user_id === me.userId);
    expect(self).toMatchObject({ email: me.email, full_name: 'Terry Terminal', is_bot: false, role: 400, profile_data: {} });
    const design = s.subscriptions.find((sub: { stream_id: number }) => sub.stream_id === designId);
    expect(design).toMatchObject({
      name: 'design', color: expect.stringMatching(/^#[0-9a-f]{6}$/i), description: expect.any(String), invite_only: false,
      // No notification_settings_null capability: the user's default, resolved (false), not null.
      pin_to_top: false, is_muted: false, desktop_notifications: false, history_public_to_subscribers: true,
      rendered_description: expect.any(String), date_created: expect.any(Number), stream_weekly_traffic: null,
    });
    // include_subscribers=true: the list the stream info popup counts.
    expect([...design.subscribers].sort()).toEqual([me.userId, bob.userId].sort());
    // unread_msgs as helper.classify_unread_counts reads it, legacy keys included.
    const unread = s.unread_msgs;
    expect(unread.pms).toEqual([expect.objectContaining({ sender_id: bob.userId, unread_message_ids: [ids.dm] })]);
    expect(unread.streams).toEqual(expect.arrayContaining([
      expect.objectContaining({ stream_id: designId, topic: 'colours', unread_message_ids: [ids.unread1] }),
      expect.objectContaining({ stream_id: designId, topic: 'fonts', unread_message_ids: [ids.unread2] }),
    ]));
    expect(unread.huddles).toEqual([]);
    expect(unread.mentions).toEqual([]);
  });

  it('re-registers after BAD_EVENT_QUEUE_ID without fetch_event_types (None is left out)', async () => {
    const { fetch_event_types: _f, ...again } = REGISTER;
    const res = await send(zt(me), 'POST', '/register', again);
    expect(res.body).toMatchObject({ queue_id: expect.any(String), last_event_id: -1, max_message_id: expect.any(Number) });
  });
});

describe('zulip-terminal: GET /events (model.poll_for_events) and DELETE /events (core.deregister_client)', () => {
  it('long-polls with queue_id and last_event_id, retries with dont_block=true, deletes the queue on exit', async () => {
    const q = await send(zt(me), 'POST', '/register', REGISTER);
    await sendToChannel(t.client(bob), 'design', 'colours', 'while polling');
    const poll = await send(zt(me), 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1' });
    expect(poll.body.events.map((e: { type: string }) => e.type)).toContain('message');
    // zulip.Client's error_retry adds dont_block=true to the same request.
    const retry = await send(zt(me), 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1', dont_block: 'true' });
    expect(retry.status).toBe(200);
    const gone = await send(zt(me), 'DELETE', '/events', { queue_id: q.body.queue_id });
    expect(gone.status).toBe(200);
    const after = await send(zt(me), 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1', dont_block: 'true' });
    expect(after.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});

describe('zulip-terminal: the events it handles, as its handlers read them', () => {
  it('message: the record with flags beside it; reaction add and remove by another user with the legacy user object', async () => {
    const q = await openQueue(zt(me), REGISTER);
    const id = await sendToChannel(t.client(bob), 'design', 'colours', 'react to me');
    const message = only(await q.events(), 'message');
    expectMessageRecord(message.message);
    expect(message.message).toMatchObject({ id, subject: 'colours', display_recipient: 'design', stream_id: designId });
    expect(message.flags).toEqual([]);
    await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    const added = only(await q.events(), 'reaction', 'add');
    // _handle_reaction_event copies `user` and asserts a user ID from user.user_id or user_id.
    expect(added).toMatchObject({
      message_id: id, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: bob.userId,
      user: { user_id: bob.userId, email: bob.email, full_name: 'Bob Builder' },
    });
    await t.client(bob).delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    const removed = only(await q.events(), 'reaction', 'remove');
    expect(removed).toMatchObject({ message_id: id, emoji_code: '1f419', user_id: bob.userId, user: { user_id: bob.userId } });
  });

  it('update_message (content and topic), update_message_flags, typing, subscription update and peer_add', async () => {
    const q = await openQueue(zt(me), REGISTER);
    const id = await sendToChannel(t.client(me), 'design', 'colours', 'to be edited');
    await q.events();
    await t.client(me).patch(`/messages/${id}`, { content: 'edited' });
    expect(only(await q.events(), 'update_message')).toMatchObject({ message_id: id, rendered_content: '<p>edited</p>', is_me_message: false });
    await t.client(me).patch(`/messages/${id}`, { topic: 'colors', propagate_mode: 'change_one' });
    expect(only(await q.events(), 'update_message')).toMatchObject({ message_id: id, subject: 'colors', orig_subject: 'colours', stream_id: designId, message_ids: [id] });
    await t.client(me).post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    expect(only(await q.events(), 'update_message_flags')).toMatchObject({ op: 'add', flag: 'starred', messages: [id], all: false });
    await t.client(bob).post('/typing', { op: 'start', to: [me.userId] });
    expect(only(await q.events(), 'typing')).toMatchObject({ op: 'start', sender: { user_id: bob.userId, email: bob.email } });
    await t.client(me).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: designId, property: 'is_muted', value: true }] });
    const muted = (await q.events()).filter((e) => e.type === 'subscription' && e.op === 'update');
    expect(muted).toEqual(expect.arrayContaining([expect.objectContaining({ stream_id: designId, property: 'is_muted', value: true })]));
    const carol = await makeUser(t, { fullName: 'Carol Singer' });
    await t.client(me).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [carol.userId] });
    expect(only(await q.events(), 'subscription', 'peer_add')).toMatchObject({ stream_ids: [designId], user_ids: [carol.userId] });
  });
});

describe('zulip-terminal: POST /users/me/presence (model._notify_server_of_presence, every minute)', () => {
  it('status and new_user_input; the legacy presences keyed by email with per-client entries', async () => {
    await send(zt(bob), 'POST', '/users/me/presence', { status: 'active', new_user_input: 'true' });
    const res = await send(zt(me), 'POST', '/users/me/presence', { status: 'idle', new_user_input: 'false' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = res.body.presences[bob.email];
    expect(entry.aggregated).toMatchObject({ status: 'active', timestamp: expect.any(Number) });
    for (const [client, data] of Object.entries(entry as Record<string, any>)) {
      if (client !== 'aggregated') expect(data).toMatchObject({ status: expect.any(String), timestamp: expect.any(Number) });
    }
  });
});

describe('zulip-terminal: reactions (model.toggle_message_reaction)', () => {
  it('adds and removes with emoji_name, emoji_code, reaction_type and a string message_id in the body', async () => {
    const spec = { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', message_id: String(ids.unread1) };
    const add = await send(zt(me), 'POST', `/messages/${ids.unread1}/reactions`, spec);
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const fetched = await t.client(me).get(`/messages/${ids.unread1}`);
    expect(fetched.body.message.reactions).toEqual([expect.objectContaining({ emoji_code: '1f44d', user_id: me.userId })]);
    const remove = await send(zt(me), 'DELETE', `/messages/${ids.unread1}/reactions`, spec);
    expect(remove.status).toBe(200);
  });
});

describe('zulip-terminal: POST /messages/flags (starring, and marking read as it scrolls)', () => {
  it('messages is a JSON list; flag and op as strings', async () => {
    const star = await send(zt(me), 'POST', '/messages/flags', { messages: `[${ids.unread2}]`, flag: 'starred', op: 'add' });
    expect(star.body).toMatchObject({ result: 'success', messages: [ids.unread2] });
    const read = await send(zt(me), 'POST', '/messages/flags', { messages: `[${ids.unread1}, ${ids.unread2}]`, flag: 'read', op: 'add' });
    expect(read.body.messages).toEqual([ids.unread1, ids.unread2]);
    const unstar = await send(zt(me), 'POST', '/messages/flags', { messages: `[${ids.unread2}]`, flag: 'starred', op: 'remove' });
    expect(unstar.status).toBe(200);
  });
});

describe('zulip-terminal: POST /typing (direct messages only, no type)', () => {
  it('to is a JSON list of user IDs', async () => {
    const q = await openQueue(t.client(bob), { event_types: '["typing"]' });
    const res = await send(zt(me), 'POST', '/typing', { to: `[${bob.userId}]`, op: 'start' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(only(await q.events(), 'typing')).toMatchObject({ op: 'start', message_type: 'direct' });
    expect((await send(zt(me), 'POST', '/typing', { to: `[${bob.userId}]`, op: 'stop' })).status).toBe(200);
  });
});

describe('zulip-terminal: POST /messages', () => {
  it('to a channel: type=stream, the channel by name, the topic as `subject`, read_by_sender=true', async () => {
    const res = await send(zt(me), 'POST', '/messages', { type: 'stream', to: 'design', subject: 'colours', content: 'sent from the terminal', read_by_sender: 'true' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = await t.client(bob).get(`/messages/${res.body.id}`);
    expect(got.body.message).toMatchObject({ subject: 'colours', display_recipient: 'design' });
  });

  it('a direct message: type=private, to a JSON list of user IDs', async () => {
    const res = await send(zt(me), 'POST', '/messages', { type: 'private', to: `[${bob.userId}]`, content: 'direct from the terminal', read_by_sender: 'true' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = await t.client(bob).get(`/messages/${res.body.id}`);
    expect(got.body.message.type).toBe('private');
  });
});

describe('zulip-terminal: PATCH /messages/{message_id} (edit mode of the compose box)', () => {
  it('a direct message: message_id and content in the body', async () => {
    const id = await sendDirect(t.client(me), [bob.userId], 'typo');
    const res = await send(zt(me), 'PATCH', `/messages/${id}`, { message_id: String(id), content: 'fixed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(me).get(`/messages/${id}`)).body.raw_content).toBe('fixed');
  });

  it('a channel message: topic, propagate_mode, content and the two notification flags', async () => {
    const id = await sendToChannel(t.client(me), 'design', 'drafts', 'first draft');
    const res = await send(zt(me), 'PATCH', `/messages/${id}`, {
      message_id: String(id), propagate_mode: 'change_one', topic: 'final', content: 'second draft',
      send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = await t.client(me).get(`/messages/${id}`);
    expect(got.body).toMatchObject({ raw_content: 'second draft', message: { subject: 'final' } });
  });
});

describe('zulip-terminal: GET /messages/{message_id} (the raw message popup and the edit box)', () => {
  it('apply_markdown=true; reads raw_content', async () => {
    const res = await send(zt(me), 'GET', `/messages/${ids.read}`, { apply_markdown: 'true' });
    expect(res.body).toMatchObject({ raw_content: 'my own, so read', message: { id: ids.read, content: '<p>my own, so read</p>' } });
  });
});

describe('zulip-terminal: GET /users/me/{stream_id}/topics (the topic list)', () => {
  it('reads each topic\'s name', async () => {
    const res = await send(zt(me), 'GET', `/users/me/${designId}/topics`, {});
    expect(res.body.topics.map((topic: { name: string }) => topic.name)).toEqual(expect.arrayContaining(['colours', 'fonts']));
  });
});

describe('zulip-terminal: POST /users/me/subscriptions/properties (mute, pin, visual notifications)', () => {
  it('subscription_data is a JSON list of {stream_id, property, value}', async () => {
    for (const property of ['is_muted', 'pin_to_top', 'desktop_notifications']) {
      const res = await send(zt(me), 'POST', '/users/me/subscriptions/properties', {
        subscription_data: `[{"stream_id": ${designId}, "property": "${property}", "value": true}]`,
      });
      expect(res.status, `${property}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const sub = (await t.client(me).get(`/users/me/subscriptions/${designId}`)).body;
    expect(sub).toBeDefined();
  });
});

describe('zulip-terminal: GET /messages/{message_id}/history (the edit history popup)', () => {
  it('reads each snapshot\'s content, topic, timestamp and user_id, and prev_topic/prev_content where an edit changed them', async () => {
    const id = await sendToChannel(t.client(me), 'design', 'colours', 'teal');
    await t.client(me).patch(`/messages/${id}`, { content: 'teal, or cyan', topic: 'palette' });
    const res = await send(zt(me), 'GET', `/messages/${id}/history`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [original, edited] = res.body.message_history;
    expect(original).toMatchObject({ content: 'teal', topic: 'colours', user_id: me.userId, timestamp: expect.any(Number) });
    expect(edited).toMatchObject({ content: 'teal, or cyan', topic: 'palette', prev_topic: 'colours', prev_content: 'teal', user_id: me.userId });
  });
});

describe('zulip-terminal: GET /streams/{stream_id}/email_address (the channel information popup)', () => {
  it('reads email (empty: Parley has no email gateway)', async () => {
    const res = await send(zt(me), 'GET', `/streams/${designId}/email_address`, {});
    expect(res.body).toMatchObject({ result: 'success', email: '' });
  });
});
