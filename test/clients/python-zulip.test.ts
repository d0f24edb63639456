// The Python `zulip` package (zulip/python-zulip-api, zulip/zulip/__init__.py): every Client
// method's request, as do_api_query sends it. GET parameters go in the query string, the others in
// a form body; a value that is not a string is JSON-encoded with json.dumps (lists "[1, 2]", objects
// '{"a": 1}'), so booleans arrive as "true"/"false" and numbers as digits; None values are left
// out; files go as multipart parts named by the file's path, with no Content-Type header. The
// User-Agent is "ZulipPython/<version> (<OS>; <version>)". zulip-terminal's shapes are in
// zulip-terminal.test.ts; the ones below are the rest of the library.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendToChannel } from '../support/factories.ts';
import { ApiClient, graphql, type Credentials } from '../support/client.ts';
import { multipart, PNG, type Wire } from './support.ts';
import { only, openQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const UA = { 'user-agent': 'ZulipPython/0.9.1 (Debian GNU/Linux; 12)' };

let denmarkId: number;
const t = useTestServer();
const { admin, hamlet, cordelia } = useTeam(t, ['admin', 'hamlet', 'cordelia'], { admin: { fullName: 'Iago', role: 200 }, hamlet: { fullName: 'King Hamlet' }, cordelia: { fullName: "Cordelia, Lear's daughter" } });

const py = (who: Credentials): ApiClient => t.client(who);
const call = (who: Credentials, method: string, path: string, params: Wire = {}) =>
  py(who).request(method, path, params, method === 'GET' ? 'query' : 'urlencoded', UA);

beforeAll(async () => {
  denmarkId = await makeChannel(t.client(admin), 'Denmark', { principals: [admin.userId, hamlet.userId, cordelia.userId] });
  await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'Something is rotten in the state of Denmark.');
});

describe('python-zulip: Client() and get_server_settings()', () => {
  it('GET /server_settings answers whatever the credentials: the constructor calls it first', async () => {
    for (const who of [admin, { ...admin, apiKey: 'X'.repeat(32) }, { ...admin, email: 'nobody@example.com' }]) {
      const res = await call(who, 'GET', '/server_settings');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ zulip_version: expect.any(String), zulip_feature_level: expect.any(Number) });
    }
  });

  it('GET /server_settings answers a deactivated user too; the next request is the one refused', async () => {
    const gone = await makeUser(t, { fullName: 'Gone Soon' });
    await t.client(admin).delete(`/users/${gone.userId}`);
    expect((await call(gone, 'GET', '/server_settings')).status).toBe(200);
    expect((await call(gone, 'GET', '/users/me')).status).toBe(401);
  });
});

describe('python-zulip: messages', () => {
  it('send_message to a channel (type stream, to a name, topic) and get_raw_message', async () => {
    const sent = await call(admin, 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'Castle', content: 'I come not, friends, to steal away your hearts.' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const raw = await call(admin, 'GET', `/messages/${sent.body.id}`, { apply_markdown: 'true' });
    expect(raw.body).toMatchObject({ raw_content: 'I come not, friends, to steal away your hearts.', message: { client: 'ZulipPython' } });
  });

  it('send_message as ZulipStream writes it: the topic as `subject`', async () => {
    const sent = await call(admin, 'POST', '/messages', { type: 'stream', to: 'Denmark', subject: 'logs', content: 'a line' });
    expect((await call(admin, 'GET', `/messages/${sent.body.id}`)).body.message.subject).toBe('logs');
  });

  it('send_message (direct): to a JSON list of IDs; an unknown email is a BAD_REQUEST', async () => {
    const sent = await call(admin, 'POST', '/messages', { type: 'private', to: `[${hamlet.userId}]`, content: 'With mirth and laughter let old wrinkles come.' });
    expect(sent.status).toBe(200);
    const bad = await call(admin, 'POST', '/messages', { type: 'private', to: 'eeshan@zulip.com', content: 'x' });
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('send_message to a channel that does not exist: STREAM_DOES_NOT_EXIST', async () => {
    const res = await call(admin, 'POST', '/messages', { type: 'stream', to: 'nonexistent-channel', topic: 'Castle', content: 'x' });
    expect(res.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'nonexistent-channel' });
  });

  it('get_messages: narrow a JSON list of {operator, operand} objects, anchor "newest"', async () => {
    const res = await call(admin, 'GET', '/messages', {
      anchor: 'newest', num_before: '100', num_after: '0',
      narrow: `[{"operator": "sender", "operand": "${hamlet.email}"}, {"operator": "channel", "operand": "Denmark"}]`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages.map((m: { sender_id: number }) => m.sender_id)).toEqual([hamlet.userId]);
    // get_users_messages (the report example) narrows by sender ID.
    const byId = await call(admin, 'GET', '/messages', { anchor: 'newest', num_before: '100', num_after: '0', narrow: `[{"operator": "sender", "operand": ${hamlet.userId}}]` });
    expect(byId.body.messages.length).toBeGreaterThan(0);
  });

  it('update_message: message_id in the body beside content; a non-sender gets a BAD_REQUEST', async () => {
    const id = await sendToChannel(t.client(admin), 'Denmark', 'Castle', 'old');
    const res = await call(admin, 'PATCH', `/messages/${id}`, { message_id: String(id), content: 'New content' });
    expect(res.body).toMatchObject({ result: 'success' });
    expect((await call(admin, 'GET', `/messages/${id}`)).body.raw_content).toBe('New content');
    const denied = await call(cordelia, 'PATCH', `/messages/${id}`, { message_id: String(id), content: 'mine now' });
    expect(denied.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('move_topic: get_stream_id twice, the newest message of the topic, then PATCH with stream_id and both notification flags', async () => {
    const target = await makeChannel(t.client(admin), 'Elsinore');
    await sendToChannel(t.client(admin), 'Denmark', 'boat party', 'row row row');
    const from = (await call(admin, 'GET', '/get_stream_id?stream=Denmark')).body.stream_id;
    const to = (await call(admin, 'GET', '/get_stream_id?stream=Elsinore')).body.stream_id;
    expect([from, to]).toEqual([denmarkId, target]);
    const newest = await call(admin, 'GET', '/messages', { anchor: 'newest', narrow: `[{"operator": "stream", "operand": ${from}}, {"operator": "topic", "operand": "boat party"}]`, num_before: '1', num_after: '0' });
    const id = newest.body.messages[0].id;
    const moved = await call(admin, 'PATCH', `/messages/${id}`, { stream_id: String(to), propagate_mode: 'change_all', send_notification_to_old_thread: 'true', send_notification_to_new_thread: 'true' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await call(admin, 'GET', `/messages/${id}`)).body.message.stream_id).toBe(to);
  });

  it('delete_message: DELETE /messages/{id}; a member may not delete another\'s', async () => {
    const id = await sendToChannel(t.client(admin), 'Denmark', 'Castle', 'doomed');
    expect((await call(cordelia, 'DELETE', `/messages/${id}`)).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await call(admin, 'DELETE', `/messages/${id}`)).status).toBe(200);
  });

  it('add_reaction and remove_reaction: message_id in the body, the emoji by name alone', async () => {
    const id = await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'react');
    expect((await call(admin, 'POST', `/messages/${id}/reactions`, { message_id: String(id), emoji_name: 'octopus' })).status).toBe(200);
    expect((await call(admin, 'DELETE', `/messages/${id}/reactions`, { message_id: String(id), emoji_name: 'octopus' })).status).toBe(200);
  });

  it('update_message_flags, mark_all_as_read, mark_stream_as_read, mark_topic_as_read', async () => {
    const ids = [await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'a'), await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'b')];
    const flags = await call(admin, 'POST', '/messages/flags', { messages: `[${ids.join(', ')}]`, op: 'add', flag: 'read' });
    expect(flags.body.messages).toEqual(ids);
    expect((await call(admin, 'POST', '/messages/flags', { messages: `[${ids.join(', ')}]`, op: 'remove', flag: 'starred' })).status).toBe(200);
    expect((await call(admin, 'POST', '/mark_all_as_read')).status).toBe(200);
    expect((await call(admin, 'POST', '/mark_stream_as_read', { stream_id: String(denmarkId) })).status).toBe(200);
    expect((await call(admin, 'POST', '/mark_topic_as_read', { stream_id: String(denmarkId), topic_name: 'Castle' })).status).toBe(200);
  });

  it('set_typing_status: direct (to a list of IDs) and channel (type, stream_id, topic)', async () => {
    expect((await call(admin, 'POST', '/typing', { op: 'start', to: `[${hamlet.userId}, ${cordelia.userId}]` })).status).toBe(200);
    expect((await call(admin, 'POST', '/typing', { type: 'stream', op: 'start', stream_id: String(denmarkId), topic: 'typing status' })).status).toBe(200);
  });

  it('check_messages_match_narrow: msg_ids and narrow JSON-encoded in the query string', async () => {
    const id = await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'see https://zulip.com');
    const res = await call(admin, 'GET', '/messages/matches_narrow', { msg_ids: `[${id}]`, narrow: '[{"operator": "has", "operand": "link"}]' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.messages)).toEqual([String(id)]);
  });

  it('get_message_history: GET /messages/{id}/history', async () => {
    const id = await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'first words');
    await t.client(hamlet).patch(`/messages/${id}`, { content: 'second words' });
    const res = await call(admin, 'GET', `/messages/${id}/history`);
    expect(res.body.message_history.map((s: { content: string }) => s.content)).toEqual(['first words', 'second words']);
  });

  it('render_message: content in the body', async () => {
    expect((await call(admin, 'POST', '/messages/render', { content: 'foo **bar**' })).body.rendered).toBe('<p>foo <strong>bar</strong></p>');
  });
  it('upload_file: a multipart part named by the file\'s path, no Content-Type; get_attachments and the attachment\'s deletion', async () => {
    // requests names the part after f.name and takes the part's file name from its basename.
    const res = await multipart(t.baseUrl, 'POST', '/user_uploads', admin, {}, [
      { name: 'zerver/tests/images/img.png', filename: 'img.png', bytes: PNG },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ url: expect.stringMatching(/^\/user_uploads\/\d+\/.+\/img\.png$/), filename: 'img.png' });
    const list = await call(admin, 'GET', '/attachments');
    const mine = (list.body.attachments as { id: number; path_id: string; name: string }[]).find((a) => res.body.url.endsWith(a.path_id));
    expect(mine, JSON.stringify(list.body)).toMatchObject({ id: expect.any(Number), name: 'img.png' });
    expect((await call(admin, 'DELETE', `/attachments/${mine!.id}`)).status).toBe(200);
    expect(((await call(admin, 'GET', '/attachments')).body.attachments as { id: number }[]).map((a) => a.id)).not.toContain(mine!.id);
  });
});

describe('python-zulip: events', () => {
  it('register() with no event types sends narrow=[] alone; get_events; deregister', async () => {
    const q = await call(admin, 'POST', '/register', { narrow: '[]' });
    expect(q.body).toMatchObject({ queue_id: expect.any(String), last_event_id: -1 });
    const events = await call(admin, 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1', dont_block: 'true' });
    expect(events.body).toMatchObject({ result: 'success', events: [] });
    expect((await call(admin, 'DELETE', '/events', { queue_id: q.body.queue_id })).status).toBe(200);
    expect((await call(admin, 'DELETE', '/events', { queue_id: q.body.queue_id })).body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('call_on_each_message: register(["message"], narrow) and the message events, ids for last_event_id', async () => {
    const q = await openQueue(py(admin), { event_types: '["message"]', narrow: '[["stream", "Denmark"]]' });
    await sendToChannel(t.client(hamlet), 'Denmark', 'Castle', 'for the bot');
    await t.client(hamlet).post('/messages', { type: 'direct', to: [admin.userId], content: 'not in the narrow' });
    const event = only(await q.events(), 'message');
    expect(event.id).toEqual(expect.any(Number));
    // register() sends no apply_markdown: Zulip's default for queues is raw Markdown.
    expect(event.message).toMatchObject({ content: 'for the bot', content_type: 'text/x-markdown', display_recipient: 'Denmark' });
  });
});

describe('python-zulip: users', () => {
  it('get_profile: GET /users/me', async () => {
    const res = await call(admin, 'GET', '/users/me');
    expect(res.body).toMatchObject({ user_id: admin.userId, full_name: 'Iago', is_admin: true });
  });

  it('get_members({"client_gravatar": False}) and ({"include_custom_profile_fields": True}): bots have no profile_data', async () => {
    // The organization's Notification Bot (created when first needed) is the bot in the list.
    const { notificationBot } = await import('../../resolvers/users/system-bots.ts');
    const realm = await t.db.realm.findFirstOrThrow({ where: { stringId: '' } });
    await notificationBot(t.db, realm.id);
    const plain = await call(admin, 'GET', '/users', { client_gravatar: 'false' });
    expect(plain.body.members.every((m: { avatar_url: unknown }) => m.avatar_url !== null)).toBe(true);
    const res = await call(admin, 'GET', '/users', { include_custom_profile_fields: 'true' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.members.some((m: { is_bot: boolean }) => m.is_bot)).toBe(true);
    for (const member of res.body.members) {
      // What Zulip's example checks: member.get("profile_data", None) is None for bots only.
      if (member.is_bot) expect(member.profile_data ?? null).toBeNull();
      else expect(member.profile_data).toEqual(expect.any(Object));
    }
  });

  // Zulip's format_user_row gives bots no profile_data key at all.
  it('get_members({"include_custom_profile_fields": True}): a bot\'s record has no profile_data key', async () => {
    const res = await call(admin, 'GET', '/users', { include_custom_profile_fields: 'true' });
    for (const member of res.body.members.filter((m: { is_bot: boolean }) => m.is_bot)) expect(member).not.toHaveProperty('profile_data');
  });

  it('GraphQL: a bot\'s profileData is null, a human\'s an object', async () => {
    const res = await graphql(t.baseUrl, '{ users { isBot profileData } }', {}, admin);
    expect(res.body.errors).toBeUndefined();
    for (const u of res.body.data.users) expect(u.isBot ? u.profileData === null : typeof u.profileData === 'object' && u.profileData !== null).toBe(true);
  });

  it('get_user_by_id(include_custom_profile_fields=True), GET /users/{email}', async () => {
    expect((await call(admin, 'GET', `/users/${cordelia.userId}`, { include_custom_profile_fields: 'true' })).body.user).toMatchObject({ user_id: cordelia.userId, profile_data: {} });
    expect((await call(admin, 'GET', `/users/${cordelia.email}`)).body.user.user_id).toBe(cordelia.userId);
  });

  it('create_user, deactivate_user_by_id, reactivate_user_by_id, update_user_by_id (full_name as a plain string since 106)', async () => {
    const created = await call(admin, 'POST', '/users', { email: 'newbie@example.com', password: 'temp', full_name: 'New User' });
    expect(created.body.user_id).toEqual(expect.any(Number));
    const again = await call(admin, 'POST', '/users', { email: 'newbie@example.com', password: 'temp', full_name: 'New User' });
    expect(again.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    const id = created.body.user_id;
    expect((await call(admin, 'DELETE', `/users/${id}`)).status).toBe(200);
    expect((await call(admin, 'POST', `/users/${id}/reactivate`)).status).toBe(200);
    expect((await call(admin, 'PATCH', `/users/${id}`, { full_name: 'New Name' })).status).toBe(200);
    expect((await call(admin, 'GET', `/users/${id}`)).body.user.full_name).toBe('New Name');
  });

  it('presence: update_presence (ping_only, new_user_input, last_update_id), get_user_presence by email, get_realm_presence', async () => {
    const res = await call(admin, 'POST', '/users/me/presence', { status: 'active', ping_only: 'false', new_user_input: 'false', last_update_id: '-1' });
    expect(res.body).toMatchObject({ result: 'success', presences: expect.any(Object) });
    expect((await call(admin, 'GET', `/users/${admin.email}/presence`)).body.presence).toMatchObject({ aggregated: { status: 'active' } });
    expect((await call(admin, 'GET', '/realm/presence')).body.presences).toEqual(expect.any(Object));
  });

  it('user groups: create_user_group, get_user_groups, update_user_group (group_id in the body), update_user_group_members, remove_user_group', async () => {
    const created = await call(admin, 'POST', '/user_groups/create', { name: 'leadership', description: 'The leadership team.', members: `[${hamlet.userId}, ${cordelia.userId}]` });
    expect(created.body.group_id).toEqual(expect.any(Number));
    const id = created.body.group_id;
    const groups = await call(admin, 'GET', '/user_groups');
    expect(groups.body.user_groups.find((g: { id: number }) => g.id === id)).toMatchObject({ name: 'leadership', members: [hamlet.userId, cordelia.userId] });
    expect((await call(admin, 'PATCH', `/user_groups/${id}`, { group_id: String(id), name: 'leaders', description: 'The leadership team.' })).status).toBe(200);
    expect((await call(admin, 'POST', `/user_groups/${id}/members`, { delete: `[${hamlet.userId}]`, add: `[${admin.userId}]` })).status).toBe(200);
    const remove = await call(admin, 'DELETE', `/user_groups/${id}`);
    // Zulip has no DELETE on /user_groups/{id} any more (groups are deactivated); the library still
    // sends it and gets Zulip's 405 for a path that exists with other methods.
    expect(remove.status).toBe(405);
  });

  it('get_alert_words, add_alert_words (alert_words a JSON list), remove_alert_words', async () => {
    expect((await call(admin, 'POST', '/users/me/alert_words', { alert_words: '["foo", "bar"]' })).body.alert_words).toEqual(expect.arrayContaining(['foo', 'bar']));
    expect((await call(admin, 'GET', '/users/me/alert_words')).body.alert_words).toEqual(expect.arrayContaining(['foo', 'bar']));
    expect((await call(admin, 'DELETE', '/users/me/alert_words', { alert_words: '["foo", "bar"]' })).body.alert_words).toEqual([]);
  });
  it('update_notification_settings: PATCH /settings/notifications, booleans JSON-encoded', async () => {
    const res = await call(cordelia, 'PATCH', '/settings/notifications', { enable_offline_push_notifications: 'false', enable_online_push_notifications: 'false' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    try {
      const settings = (await call(cordelia, 'POST', '/register', { fetch_event_types: '["user_settings"]' })).body.user_settings;
      expect(settings).toMatchObject({ enable_offline_push_notifications: false, enable_online_push_notifications: false });
    } finally {
      await call(cordelia, 'PATCH', '/settings/notifications', { enable_offline_push_notifications: 'true', enable_online_push_notifications: 'true' });
    }
  });

  it('update_storage (PUT, storage a JSON object) and get_storage (keys a JSON list in the query)', async () => {
    expect((await call(hamlet, 'PUT', '/bot_storage', { storage: '{"marco": "polo", "income": "cash"}' })).status).toBe(200);
    const got = await call(hamlet, 'GET', '/bot_storage', { keys: '["marco"]' });
    expect(got.body).toMatchObject({ result: 'success', storage: { marco: 'polo' } });
    expect((await call(hamlet, 'GET', '/bot_storage')).body.storage).toEqual({ income: 'cash', marco: 'polo' });
  });
});

describe('python-zulip: channels', () => {
  it('add_subscriptions: subscriptions a JSON list of objects, principals by ID or email; authorization_errors_fatal', async () => {
    const res = await call(admin, 'POST', '/users/me/subscriptions', { subscriptions: '[{"name": "python-test", "description": "Channel for testing Python"}]' });
    expect(res.body).toMatchObject({ result: 'success', subscribed: { [String(admin.userId)]: ['python-test'] } });
    const others = await call(admin, 'POST', '/users/me/subscriptions', { subscriptions: '[{"name": "python-test"}]', principals: `[${hamlet.userId}]` });
    expect(others.body.subscribed).toEqual({ [String(hamlet.userId)]: ['python-test'] });
    const already = await call(admin, 'POST', '/users/me/subscriptions', { subscriptions: '[{"name": "python-test"}]', principals: `["${hamlet.email}"]` });
    expect(already.body.already_subscribed).toEqual({ [String(hamlet.userId)]: ['python-test'] });
    await t.client(admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'private-channel' }], invite_only: true });
    const soft = await call(cordelia, 'POST', '/users/me/subscriptions', { subscriptions: '[{"name": "private-channel"}]', authorization_errors_fatal: 'false' });
    expect(soft.body).toMatchObject({ result: 'success', unauthorized: ['private-channel'] });
    const hard = await call(cordelia, 'POST', '/users/me/subscriptions', { subscriptions: '[{"name": "private-channel"}]', authorization_errors_fatal: 'true' });
    expect(hard.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('get_subscriptions, get_streams(include_public=False), get_stream_id (name quoted into the path)', async () => {
    const subs = await call(admin, 'GET', '/users/me/subscriptions');
    expect(subs.body.subscriptions.find((s: { name: string }) => s.name === 'python-test')).toMatchObject({ description: 'Channel for testing Python' });
    const streams = await call(admin, 'GET', '/streams', { include_public: 'false' });
    expect(streams.status).toBe(200);
    const id = await call(admin, 'GET', `/get_stream_id?stream=${encodeURIComponent('python-test')}`);
    expect(id.body.stream_id).toEqual(expect.any(Number));
    const missing = await call(admin, 'GET', '/get_stream_id?stream=nonexistent');
    expect(missing.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "Invalid channel name 'nonexistent'" });
  });

  it('get_subscribers: GET /get_stream_id, then GET /streams/{id}/members with `stream` still in the query', async () => {
    const id = (await call(admin, 'GET', '/get_stream_id?stream=python-test')).body.stream_id;
    const res = await call(admin, 'GET', `/streams/${id}/members`, { stream: 'python-test' });
    expect(res.status).toBe(200);
    expect([...res.body.subscribers].sort()).toEqual([admin.userId, hamlet.userId].sort());
  });

  it('update_stream: stream_id in the body beside is_private; get_subscription_status; get_stream_topics', async () => {
    const id = (await call(admin, 'GET', '/get_stream_id?stream=python-test')).body.stream_id;
    expect((await call(admin, 'PATCH', `/streams/${id}`, { stream_id: String(id), is_private: 'true' })).status).toBe(200);
    expect((await call(admin, 'GET', `/users/${hamlet.userId}/subscriptions/${id}`)).body.is_subscribed).toBe(true);
    expect((await call(admin, 'GET', `/users/me/${denmarkId}/topics`)).body.topics).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Castle', max_id: expect.any(Number) })]));
  });

  it('remove_subscriptions: subscriptions a JSON list of names, principals a list of emails', async () => {
    const mine = await call(admin, 'DELETE', '/users/me/subscriptions', { subscriptions: '["python-test"]' });
    expect(mine.body).toMatchObject({ removed: ['python-test'], not_removed: [] });
    const theirs = await call(admin, 'DELETE', '/users/me/subscriptions', { subscriptions: '["python-test"]', principals: `["${hamlet.email}"]` });
    expect(theirs.body.removed).toEqual(['python-test']);
  });

  it('delete_stream: DELETE /streams/{id} archives it', async () => {
    const id = await makeChannel(t.client(admin), 'example to archive');
    expect((await call(admin, 'DELETE', `/streams/${id}`)).status).toBe(200);
  });

  it('mute_topic: PATCH /users/me/subscriptions/muted_topics by channel name, op add and remove', async () => {
    expect((await call(hamlet, 'PATCH', '/users/me/subscriptions/muted_topics', { stream: 'Denmark', topic: 'Castle', op: 'add' })).status).toBe(200);
    expect((await call(hamlet, 'PATCH', '/users/me/subscriptions/muted_topics', { stream: 'Denmark', topic: 'Castle', op: 'remove' })).status).toBe(200);
  });
  it('add_default_stream: stream_id in the body; remove through call_endpoint DELETE', async () => {
    expect((await call(admin, 'POST', '/default_streams', { stream_id: String(denmarkId) })).status).toBe(200);
    expect((await call(admin, 'DELETE', '/default_streams', { stream_id: String(denmarkId) })).status).toBe(200);
  });

  it('get_stream_email_address: GET /streams/{id}/email_address reads email', async () => {
    expect((await call(hamlet, 'GET', `/streams/${denmarkId}/email_address`)).body).toMatchObject({ result: 'success', email: '' });
  });

  it('call_endpoint channels/create: name, description and subscribers', async () => {
    const res = await call(admin, 'POST', '/channels/create', { name: 'music_group', description: 'Channel for music.', subscribers: `[${hamlet.userId}]` });
    expect(res.body).toMatchObject({ result: 'success', id: expect.any(Number) });
  });
});

describe('python-zulip: organization', () => {
  it('upload_custom_emoji: a multipart part named by the file\'s path, with a file name and no Content-Type', async () => {
    const res = await multipart(t.baseUrl, 'POST', '/realm/emoji/my_custom_emoji', admin, {}, [
      { name: 'zerver/tests/images/img.png', filename: 'img.png', bytes: PNG },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const emoji = await call(admin, 'GET', '/realm/emoji');
    const mine = Object.values(emoji.body.emoji as Record<string, { name: string; deactivated: boolean }>).find((e) => e.name === 'my_custom_emoji');
    expect(mine).toMatchObject({ deactivated: false });
    expect((await call(admin, 'DELETE', '/realm/emoji/my_custom_emoji')).status).toBe(200);
  });

  it('linkifiers: get_realm_linkifiers, add_realm_filter (url_template since 176), remove_realm_filter', async () => {
    const added = await call(admin, 'POST', '/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' });
    expect(added.body.id).toEqual(expect.any(Number));
    const list = await call(admin, 'GET', '/realm/linkifiers');
    expect(list.body.linkifiers).toEqual([expect.objectContaining({ id: added.body.id, pattern: '#(?P<id>[0-9]+)' })]);
    expect((await call(admin, 'DELETE', `/realm/filters/${added.body.id}`)).status).toBe(200);
  });

  it('custom profile fields: create (field_type a JSON number), get, reorder (order a JSON list), update, remove', async () => {
    const created = await call(admin, 'POST', '/realm/profile_fields', { name: 'Phone', hint: 'Contact No.', field_type: '1' });
    expect(created.body.id).toEqual(expect.any(Number));
    const fields = (await call(admin, 'GET', '/realm/profile_fields')).body.custom_fields as { id: number }[];
    expect((await call(admin, 'PATCH', '/realm/profile_fields', { order: `[${fields.map((f) => f.id).reverse().join(', ')}]` })).status).toBe(200);
    expect((await call(admin, 'PATCH', `/realm/profile_fields/${created.body.id}`, { name: 'Email' })).status).toBe(200);
    expect((await call(admin, 'DELETE', `/realm/profile_fields/${created.body.id}`)).status).toBe(200);
  });
});
