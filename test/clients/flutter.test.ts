// Zulip's Flutter app (zulip/zulip-flutter, lib/api/route/*.dart): every request it makes, as
// ApiConnection sends it (lib/api/core.dart): GET parameters in the query string, the rest as a
// form body; a RawParameter goes as is, every other value through jsonEncode (so strings get
// quotes, lists and maps no spaces). Responses and events are checked against what the app's JSON
// decoders require (test/clients/flutter-models.json, generated from lib/api/*/*.g.dart by
// scripts/clients/flutter-models.mjs): a missing required key, or one of the wrong type, is a
// decode failure in the app.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendDirect, sendToChannel } from '../support/factories.ts';
import { graphql, rawRequest, type ApiClient, type Credentials } from '../support/client.ts';
import { multipart, PNG, type Wire } from './support.ts';
import { only, openQueue, type ZulipEventOut } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

interface FieldSpec { key: string; required: boolean; type?: string; model?: string; items?: string; values?: string; custom?: boolean; enum?: boolean; reader?: string }
const MODELS: Record<string, { fields: FieldSpec[] }> = JSON.parse(readFileSync(new URL('./flutter-models.json', import.meta.url), 'utf8')).models;

const UA = { 'user-agent': 'ZulipFlutter/30.0.264+264 (Android 14)' };

/** What the app's decoder for `model` would reject in `value` (empty when it decodes). */
function decodeProblems(value: unknown, model: string, at = model): string[] {
  // Hand-written decoders the generator cannot read, written out here from lib/api/model/.
  if (model === 'Message') {
    const type = (value as { type?: string })?.type;
    // Message._reactionsFromJson and _flagsFromJson cast to lists: both keys are required.
    const lists = ['reactions', 'flags'].filter((k) => !Array.isArray((value as Record<string, unknown>)?.[k])).map((k) => `${at}.${k}: required list`);
    if (type === 'stream') return [...lists, ...decodeProblems(value, 'StreamMessage', at), ...decodeProblems(value, 'StreamConversation', at)];
    if (type === 'private') return [...lists, ...decodeProblems(value, 'DmMessage', at)];
    return [`${at}: message type ${JSON.stringify(type)}`];
  }
  if (model === 'StreamConversation') {
    const v = value as Record<string, unknown>;
    return [
      ...(typeof v.stream_id === 'number' ? [] : [`${at}.stream_id: not a number`]),
      ...(typeof v.subject === 'string' ? [] : [`${at}.subject: not a string`]),
      ...(typeof v.display_recipient === 'string' ? [] : [`${at}.display_recipient: required string`]),
    ];
  }
  if (model === 'GroupSettingValue') {
    if (typeof value === 'number') return [];
    const v = value as Record<string, unknown>;
    return Array.isArray(v?.direct_members) && Array.isArray(v?.direct_subgroups) ? [] : [`${at}: not a group setting value`];
  }
  const spec = MODELS[model];
  if (!spec) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${at}: not an object`];
  const problems: string[] = [];
  const record = value as Record<string, unknown>;
  for (const field of spec.fields) {
    let v = record[field.key];
    const where = `${at}.${field.key}`;
    if (field.reader) {
      // InitialSnapshot's user lists: required lists whose users may lack is_active (the reader
      // fills it in). Other readers compute their value from elsewhere: checked by hand below.
      const fallback = /IsActiveFallback(True|False)$/.exec(field.reader);
      if (!fallback) continue;
      if (!Array.isArray(v)) {
        problems.push(`${where}: required list`);
        continue;
      }
      v = v.map((user) => ({ is_active: fallback[1] === 'True', ...(user as object) }));
    }
    if (v === undefined || v === null) {
      if (field.required) problems.push(`${where}: required`);
      continue;
    }
    const actual = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
    if (field.type && field.type !== actual) problems.push(`${where}: ${actual}, not ${field.type}`);
    if (field.model) problems.push(...decodeProblems(v, field.model, where));
    if (field.items && Array.isArray(v)) v.forEach((item, i) => problems.push(...decodeProblems(item, field.items!, `${where}[${i}]`)));
    if (field.values && actual === 'object') for (const [k, item] of Object.entries(v)) problems.push(...decodeProblems(item, field.values, `${where}[${k}]`));
  }
  return problems;
}

function expectDecodes(value: unknown, model: string) {
  expect(decodeProblems(value, model), `${model} decoding ${JSON.stringify(value).slice(0, 3000)}`).toEqual([]);
}

/** Event.fromJson's dispatch (lib/api/model/events.dart): type and op → the decoder. */
const EVENT_MODELS: Record<string, string | Record<string, string>> = {
  realm_emoji: { add: 'RealmEmojiAddEvent', update_one: 'RealmEmojiUpdateOneEvent', update: 'RealmEmojiUpdateEvent' },
  alert_words: 'AlertWordsEvent',
  user_settings: { update: 'UserSettingsUpdateEvent' },
  custom_profile_fields: 'CustomProfileFieldsEvent',
  user_group: { add: 'UserGroupAddEvent', update: 'UserGroupUpdateEvent', add_members: 'UserGroupAddMembersEvent', remove_members: 'UserGroupRemoveMembersEvent', add_subgroups: 'UserGroupAddSubgroupsEvent', remove_subgroups: 'UserGroupRemoveSubgroupsEvent', remove: 'UserGroupRemoveEvent' },
  realm_user: { add: 'RealmUserAddEvent', update: 'RealmUserUpdateEvent' },
  channel_folder: { add: 'ChannelFolderAddEvent', update: 'ChannelFolderUpdateEvent' },
  saved_snippets: { add: 'SavedSnippetsAddEvent', update: 'SavedSnippetsUpdateEvent', remove: 'SavedSnippetsRemoveEvent' },
  stream: { create: 'ChannelCreateEvent', delete: 'ChannelDeleteEvent', update: 'ChannelUpdateEvent' },
  subscription: { add: 'SubscriptionAddEvent', remove: 'SubscriptionRemoveEvent', update: 'SubscriptionUpdateEvent', peer_add: 'SubscriptionPeerAddEvent', peer_remove: 'SubscriptionPeerRemoveEvent' },
  user_status: 'UserStatusEvent',
  user_topic: 'UserTopicEvent',
  muted_users: 'MutedUsersEvent',
  message: 'MessageEvent',
  update_message: 'UpdateMessageEvent',
  delete_message: 'DeleteMessageEvent',
  update_message_flags: { add: 'UpdateMessageFlagsAddEvent', remove: 'UpdateMessageFlagsRemoveEvent' },
  submessage: 'SubmessageEvent',
  typing: 'TypingEvent',
  presence: 'PresenceEvent',
  reaction: 'ReactionEvent',
  heartbeat: 'HeartbeatEvent',
};

function expectEventDecodes(event: ZulipEventOut) {
  const entry = EVENT_MODELS[event.type];
  const model = typeof entry === 'string' ? entry : entry?.[event.op];
  if (!model) return; // UnexpectedEvent: the app ignores it
  // MessageEvent reads the message with the event's flags folded in (MessageEvent._readMessageValue).
  if (model === 'MessageEvent') expectDecodes({ ...event.message, flags: event.flags }, 'Message');
  // TypingEvent._readSenderId reads sender.user_id.
  if (model === 'TypingEvent') expect(event.sender?.user_id, 'typing sender.user_id').toEqual(expect.any(Number));
  expectDecodes(event, model);
}

let channelId: number;
const t = useTestServer();
const { me, bob } = useTeam(t, ['me', 'bob'], { me: { fullName: 'Flutter User', role: 200 } });
const ids: Record<string, number> = {};

// registerQueue (lib/api/route/events.dart) with everything but idle_queue_timeout (see below).
const CAPABILITIES = '{"notification_settings_null":true,"bulk_message_deletion":true,"user_avatar_url_field_optional":true,"stream_typing_notifications":true,"user_settings_object":true,"include_deactivated_groups":true,"empty_topic_name":true,"individual_emoji_changes":true}';
const REGISTER: Wire = { apply_markdown: 'true', client_gravatar: 'false', slim_presence: 'true', client_capabilities: CAPABILITIES };

const app = (user: Credentials): ApiClient => t.client(user);
const send = (client: ApiClient, method: string, path: string, params: Wire = {}) =>
  client.request(method, path, params, method === 'GET' ? 'query' : 'urlencoded', UA);

beforeAll(async () => {
  channelId = await makeChannel(t.client(me), 'mobile', { principals: [me.userId, bob.userId] });
  ids.first = await sendToChannel(t.client(bob), 'mobile', 'apps', 'first unread');
  ids.second = await sendToChannel(t.client(bob), 'mobile', '', 'in the general chat');
  ids.dm = await sendDirect(t.client(bob), [me.userId], 'a direct message');
});

describe('flutter: server settings and login', () => {
  it('getServerSettings: GET /server_settings decodes as GetServerSettingsResult', async () => {
    const res = await send(t.client(), 'GET', '/server_settings');
    expectDecodes(res.body, 'GetServerSettingsResult');
  });

  it('fetchApiKey: username and password raw, decodes as FetchApiKeyResult', async () => {
    const res = await send(t.client(), 'POST', '/fetch_api_key', { username: bob.email, password: `pw-${bob.email}` });
    expectDecodes(res.body, 'FetchApiKeyResult');
  });

  it('getOwnUser: GET /users/me decodes as GetOwnUserResult', async () => {
    expectDecodes((await send(app(me), 'GET', '/users/me')).body, 'GetOwnUserResult');
  });
});

describe('flutter: registerQueue and getEvents', () => {
  it('POST /register: the snapshot decodes as InitialSnapshot', async () => {
    const res = await send(app(me), 'POST', '/register', REGISTER);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectDecodes(res.body, 'InitialSnapshot');
    // The empty topic stays "" for a client with empty_topic_name.
    const topics = res.body.unread_msgs.streams.map((s: { topic: string }) => s.topic);
    expect(topics).toEqual(expect.arrayContaining(['apps', '']));
  });

  // The app always adds idle_queue_timeout: jsonEncode("mobile"), i.e. the JSON string "\"mobile\"".
  it('POST /register with idle_queue_timeout "\\"mobile\\"": a 12-hour queue', async () => {
    const res = await send(app(me), 'POST', '/register', { ...REGISTER, idle_queue_timeout: '"mobile"' });
    expect(res.body).toMatchObject({ result: 'success', idle_queue_timeout_secs: 43200 });
    expectDecodes(res.body, 'InitialSnapshot');
    const bad = await send(app(me), 'POST', '/register', { idle_queue_timeout: '"desktop"' });
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('GraphQL registerEventQueue(idleQueueTimeout: "mobile") keeps the queue 12 hours; a number still works', async () => {
    const res = await graphql(t.baseUrl, 'mutation { registerEventQueue(idleQueueTimeout: "mobile", fetchEventTypes: []) { idleQueueTimeoutSecs } }', {}, me);
    expect(res.body.data?.registerEventQueue.idleQueueTimeoutSecs).toBe(43200);
    const seconds = await graphql(t.baseUrl, 'mutation($s: IdleQueueTimeout) { registerEventQueue(idleQueueTimeout: $s, fetchEventTypes: []) { idleQueueTimeoutSecs } }', { s: 3600 }, me);
    expect(seconds.body.data?.registerEventQueue.idleQueueTimeoutSecs).toBe(3600);
    const bad = await graphql(t.baseUrl, 'mutation { registerEventQueue(idleQueueTimeout: "desktop") { idleQueueTimeoutSecs } }', {}, me);
    expect(bad.body.errors?.length).toBeGreaterThan(0);
  });

  it('getEvents: queue_id raw, last_event_id and dont_block JSON; decodes as GetEventsResult', async () => {
    const q = await send(app(me), 'POST', '/register', REGISTER);
    const res = await send(app(me), 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1', dont_block: 'true' });
    expectDecodes(res.body, 'GetEventsResult');
  });
});

describe('flutter: messages', () => {
  const fetch = (narrow: string, extra: Wire = {}) => send(app(me), 'GET', '/messages', {
    narrow, anchor: 'first_unread', num_before: '100', num_after: '100', client_gravatar: 'false', apply_markdown: 'true', allow_empty_topic_name: 'true', ...extra,
  });

  it('getMessages: a channel narrow by ID, anchor first_unread, allow_empty_topic_name; decodes as GetMessagesResult', async () => {
    const res = await fetch(`[{"operator":"channel","operand":${channelId}}]`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectDecodes(res.body, 'GetMessagesResult');
    for (const m of res.body.messages) expectDecodes(m, 'Message');
    expect(res.body.anchor).toBe(ids.first);
    expect(res.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['apps', '']);
  });

  it('getMessages: dm, topic, with, is and search narrows as the app resolves them for a current server', async () => {
    const dm = await fetch(`[{"operator":"dm","operand":[${bob.userId}]}]`);
    expect(dm.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.dm]);
    for (const m of dm.body.messages) expectDecodes(m, 'Message');
    const topic = await fetch(`[{"operator":"channel","operand":${channelId}},{"operator":"topic","operand":""}]`);
    expect(topic.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.second]);
    const withNarrow = await fetch(`[{"operator":"channel","operand":${channelId}},{"operator":"topic","operand":"apps"},{"operator":"with","operand":${ids.first}}]`);
    expect(withNarrow.status, JSON.stringify(withNarrow.body)).toBe(200);
    expect(withNarrow.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.first]);
    for (const operand of ['mentioned', 'starred', 'dm']) expect((await fetch(`[{"operator":"is","operand":"${operand}"}]`)).status).toBe(200);
    expect((await fetch('[{"operator":"search","operand":"general"}]', { anchor: 'newest' })).status).toBe(200);
  });

  it('getMessages: a numeric anchor as a raw string and include_anchor', async () => {
    const res = await fetch('[]', { anchor: String(ids.second), include_anchor: 'false', num_before: '1', num_after: '0' });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.first]);
  });

  it('getMessage: apply_markdown and allow_empty_topic_name; decodes as GetMessageResult', async () => {
    const res = await send(app(me), 'GET', `/messages/${ids.second}`, { apply_markdown: 'true', allow_empty_topic_name: 'true' });
    expectDecodes(res.body.message, 'Message');
    expect(res.body.message.subject).toBe('');
  });

  it('sendMessage to a channel: type channel, `to` the channel ID as JSON, topic raw, read_by_sender', async () => {
    const res = await send(app(me), 'POST', '/messages', { type: 'channel', to: String(channelId), topic: 'apps', content: 'from the app', read_by_sender: 'true' });
    expect(res.body).toMatchObject({ result: 'success', id: expect.any(Number) });
    const empty = await send(app(me), 'POST', '/messages', { type: 'channel', to: String(channelId), topic: '', content: 'to the general chat' });
    expect((await t.client(me).get(`/messages/${empty.body.id}`, { allow_empty_topic_name: true })).body.message.subject).toBe('');
  });

  it('sendMessage direct: type direct, `to` a JSON list of user IDs', async () => {
    const res = await send(app(me), 'POST', '/messages', { type: 'direct', to: `[${bob.userId}]`, content: 'direct from the app' });
    expect(res.body.result).toBe('success');
  });

  // queue_id and local_id make the sender's own message event carry local_message_id (local echo).
  it('sendMessage with queue_id and local_id: the queue\'s message event has local_message_id', async () => {
    const q = await openQueue(app(me), REGISTER);
    const sent = await send(app(me), 'POST', '/messages', { type: 'channel', to: String(channelId), topic: 'apps', content: 'echo', queue_id: q.queueId, local_id: '1234.01' });
    expect(sent.body.ignored_parameters_unsupported).toBeUndefined();
    const event = only(await q.events(), 'message');
    expect(event.local_message_id).toBe('1234.01');
    expectEventDecodes(event);
  });

  it('GraphQL sendMessage(queueId, localId): local_message_id on that queue only, and only for the sender', async () => {
    const mine = await openQueue(app(me), REGISTER);
    const myOther = await openQueue(app(me), REGISTER);
    const bobs = await openQueue(app(bob), REGISTER);
    const send1 = await graphql(t.baseUrl, 'mutation($q: String!) { sendMessage(type: "channel", to: "mobile", topic: "apps", content: "local echo", queueId: $q, localId: "1234.01") }', { q: mine.queueId }, me);
    expect(send1.body.errors, JSON.stringify(send1.body.errors)).toBeUndefined();
    const event = only(await mine.events(), 'message');
    expect(event.local_message_id).toBe('1234.01');
    expectEventDecodes(event);
    expect(only(await myOther.events(), 'message')).not.toHaveProperty('local_message_id');
    expect(only(await bobs.events(), 'message')).not.toHaveProperty('local_message_id');
    // Naming someone else's queue gives them nothing.
    await graphql(t.baseUrl, 'mutation($q: String!) { sendMessage(type: "channel", to: "mobile", topic: "apps", content: "not yours", queueId: $q, localId: "9") }', { q: bobs.queueId }, me);
    expect(only(await bobs.events(), 'message')).not.toHaveProperty('local_message_id');
  });

  it('updateMessage: topic and propagate_mode raw, the notification flags JSON, prev_content_sha256 raw', async () => {
    const id = await sendToChannel(t.client(me), 'mobile', 'apps', 'typo');
    const res = await send(app(me), 'PATCH', `/messages/${id}`, {
      topic: 'apps', propagate_mode: 'change_one', send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'true',
      // The app sends the hash of the content it edited (raw, not JSON).
      content: 'fixed', prev_content_sha256: createHash('sha256').update('typo').digest('hex'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(me).get(`/messages/${id}`)).body.raw_content).toBe('fixed');
  });

  it('deleteMessage: DELETE /messages/{id} with an empty body', async () => {
    const id = await sendToChannel(t.client(me), 'mobile', 'apps', 'gone');
    expect((await send(app(me), 'DELETE', `/messages/${id}`)).body.result).toBe('success');
  });

  it('reportMessage: report_type and description raw', async () => {
    // Reports go to a private channel of the organization's choosing.
    const moderation = await makeChannel(t.client(t.owner), 'moderation', { invite_only: true });
    expect((await t.client(t.owner).patch('/realm', { moderation_request_channel_id: moderation })).body.result).toBe('success');
    const res = await send(app(me), 'POST', `/messages/${ids.first}/report`, { report_type: 'spam', description: 'buy now' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success' });
  });

  it('addReaction and removeReaction: emoji_name, emoji_code and reaction_type raw; the reaction event decodes', async () => {
    const q = await openQueue(app(me), REGISTER);
    const reaction = { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    expect((await send(app(me), 'POST', `/messages/${ids.first}/reactions`, reaction)).body.result).toBe('success');
    expect((await send(app(me), 'DELETE', `/messages/${ids.first}/reactions`, reaction)).body.result).toBe('success');
    const events = await q.events();
    expectEventDecodes(only(events, 'reaction', 'add'));
    expectEventDecodes(only(events, 'reaction', 'remove'));
  });

  it('updateMessageFlags: messages JSON, op and flag raw; decodes as UpdateMessageFlagsResult', async () => {
    const res = await send(app(me), 'POST', '/messages/flags', { messages: `[${ids.first}]`, op: 'add', flag: 'starred' });
    expectDecodes(res.body, 'UpdateMessageFlagsResult');
  });

  it('updateMessageFlagsForNarrow: anchor raw, counts and narrow JSON; decodes as UpdateMessageFlagsForNarrowResult', async () => {
    const res = await send(app(me), 'POST', '/messages/flags/narrow', {
      anchor: 'oldest', include_anchor: 'true', num_before: '0', num_after: '1000',
      narrow: `[{"operator":"channel","operand":${channelId}}]`, op: 'add', flag: 'read',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectDecodes(res.body, 'UpdateMessageFlagsForNarrowResult');
  });

  it('setTypingStatus: to a channel (type channel, stream_id JSON, topic raw) and direct (type direct, to JSON)', async () => {
    expect((await send(app(me), 'POST', '/typing', { op: 'start', type: 'channel', stream_id: String(channelId), topic: 'apps' })).body.result).toBe('success');
    expect((await send(app(me), 'POST', '/typing', { op: 'stop', type: 'direct', to: `[${bob.userId}]` })).body.result).toBe('success');
  });

  it('getReadReceipts: GET /messages/{message_id}/read_receipts; decodes as GetReadReceiptsResult', async () => {
    const id = await sendToChannel(t.client(me), 'mobile', 'apps', 'read me');
    await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    const res = await send(app(me), 'GET', `/messages/${id}/read_receipts`);
    expect(res.body.user_ids).toEqual([bob.userId]);
    expectDecodes(res.body, 'GetReadReceiptsResult');
  });

  it('a /poll message\'s submessages decode (Submessage, PollWidgetData); sendSubmessage: message_id JSON, msg_type and content raw; the submessage event decodes', async () => {
    const q = await openQueue(app(me), REGISTER);
    const id = await sendToChannel(t.client(bob), 'mobile', 'apps', '/poll Dark mode?\nYes\nNo');
    const message = (await send(app(me), 'GET', `/messages/${id}`, { apply_markdown: 'true' })).body.message;
    expect(message.submessages).toHaveLength(1);
    expectDecodes(message.submessages[0], 'Submessage');
    expectDecodes(JSON.parse(message.submessages[0].content), 'PollWidgetData');
    const vote = '{"type":"vote","key":"canned,0","vote":1}';
    const res = await send(app(me), 'POST', '/submessage', { message_id: String(id), msg_type: 'widget', content: vote });
    expect(res.body.result, JSON.stringify(res.body)).toBe('success');
    const event = only(await q.events(), 'submessage');
    expectEventDecodes(event);
    expectDecodes(JSON.parse(event.content as string), 'PollVoteEventSubmessage');
  });
  it('uploadFile: one multipart part named file (octet-stream when the type is unknown); getFileTemporaryUrl', async () => {
    // ApiConnection.postFileFromStream: http.MultipartFile('file', ...), whose content type
    // defaults to application/octet-stream.
    for (const contentType of ['image/png', 'application/octet-stream']) {
      const res = await multipart(t.baseUrl, 'POST', '/user_uploads', me, {}, [{ name: 'file', filename: 'photo.png', bytes: PNG, contentType }], UA['user-agent']);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectDecodes(res.body, 'UploadFileResult');
      // The app reads the legacy `uri`, then asks for a temporary URL by the path after /user_uploads/.
      const path = (res.body.uri as string).replace(/^\/user_uploads\//, '');
      const temporary = await send(app(me), 'GET', `/user_uploads/${path}`);
      expect(temporary.status, JSON.stringify(temporary.body)).toBe(200);
      expectDecodes(temporary.body, 'GetFileTemporaryUrlResult');
      const file = await rawRequest('GET', t.baseUrl + temporary.body.url, {});
      expect(file.status).toBe(200);
    }
  });
});

describe('flutter: the events the app decodes', () => {
  it('message, update_message, delete_message, update_message_flags, typing, subscription and user_topic events decode', async () => {
    const q = await openQueue(app(me), REGISTER);
    const id = await sendToChannel(t.client(bob), 'mobile', 'apps', 'an event');
    await t.client(bob).patch(`/messages/${id}`, { content: 'an edited event' });
    await t.client(me).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    await t.client(me).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    await t.client(bob).post('/typing', { op: 'start', type: 'channel', stream_id: channelId, topic: 'apps' });
    await t.client(me).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channelId, property: 'pin_to_top', value: true }] });
    await t.client(me).post('/user_topics', { stream_id: channelId, topic: 'apps', visibility_policy: 3 });
    await t.client(bob).delete(`/messages/${id}`);
    const events = await q.events();
    for (const type of ['message', 'update_message', 'update_message_flags', 'typing', 'subscription', 'user_topic', 'delete_message']) {
      expect(events.map((e) => e.type), type).toContain(type);
    }
    for (const event of events) expectEventDecodes(event);
  });

  it('realm_user, user_group, custom_profile_fields, saved_snippets, user_status and presence events decode', async () => {
    const q = await openQueue(app(me), REGISTER);
    const carol = await makeUser(t, { fullName: 'Carol Singer' });
    await t.client(t.owner).post('/user_groups/create', { name: 'mobile-team', description: 'The app people', members: [me.userId] });
    await t.client(t.owner).post('/realm/profile_fields', { name: 'Team', field_type: 1, hint: '' });
    await t.client(me).post('/saved_snippets', { title: 'Hi', content: 'Hello there' });
    await t.client(bob).post('/users/me/status', { status_text: 'on a boat' });
    await t.client(bob).post('/users/me/presence', { status: 'active', slim_presence: true });
    await t.client(t.owner).patch(`/users/${carol.userId}`, { full_name: 'Carol S.' });
    const events = await q.events();
    for (const type of ['realm_user', 'user_group', 'custom_profile_fields', 'saved_snippets', 'user_status', 'presence']) {
      expect(events.map((e) => e.type), type).toContain(type);
    }
    for (const event of events) expectEventDecodes(event);
  });
});

describe('flutter: channel folders', () => {
  it('channel_folder add and update events, and register\'s channel_folders, decode', async () => {
    const q = await openQueue(app(me), REGISTER);
    const created = await t.client(me).post('/channel_folders/create', { name: 'Mobile folder', description: 'For **apps**' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await t.client(me).patch(`/channel_folders/${created.body.channel_folder_id}`, { name: 'Mobile', description: 'Apps', is_archived: true });
    const events = await q.events();
    expect(events.filter((e) => e.type === 'channel_folder').map((e) => e.op)).toEqual(['add', 'update', 'update', 'update']);
    for (const event of events) expectEventDecodes(event);
    const snapshot = (await send(app(me), 'POST', '/register', REGISTER)).body;
    expect(snapshot.channel_folders.length).toBeGreaterThan(0);
    for (const folder of snapshot.channel_folders) expectDecodes(folder, 'ChannelFolder');
  });
});

describe('flutter: channels and topics', () => {
  it('subscribeToChannel: subscriptions a JSON list of {name}, principals JSON; unsubscribeFromChannel: a JSON list of names', async () => {
    const sub = await send(app(me), 'POST', '/users/me/subscriptions', { subscriptions: '[{"name":"app-news"}]', principals: `[${bob.userId}]` });
    expect(sub.body.result).toBe('success');
    const unsub = await send(app(me), 'DELETE', '/users/me/subscriptions', { subscriptions: '["app-news"]', principals: `[${bob.userId}]` });
    expect(unsub.body).toMatchObject({ result: 'success', removed: ['app-news'] });
  });

  it('updateSubscriptionSettings: subscription_data a JSON list of one {stream_id, property, value}', async () => {
    const res = await send(app(me), 'POST', '/users/me/subscriptions/properties', { subscription_data: `[{"stream_id":${channelId},"property":"is_muted","value":false}]` });
    expect(res.body.result).toBe('success');
  });

  it('getChannelTopics: allow_empty_topic_name; decodes as GetChannelTopicsResult', async () => {
    const res = await send(app(me), 'GET', `/users/me/${channelId}/topics`, { allow_empty_topic_name: 'true' });
    expectDecodes(res.body, 'GetChannelTopicsResult');
    expect(res.body.topics.map((topic: { name: string }) => topic.name)).toContain('');
  });

  it('updateUserTopic: stream_id JSON, topic raw, visibility_policy JSON', async () => {
    const res = await send(app(me), 'POST', '/user_topics', { stream_id: String(channelId), topic: 'apps', visibility_policy: '1' });
    expect(res.body.result).toBe('success');
  });
});

describe('flutter: users, presence, snippets and push', () => {
  it('updateStatus: status_text, emoji_name, emoji_code and reaction_type raw', async () => {
    const res = await send(app(me), 'POST', '/users/me/status', { status_text: 'commuting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect(res.body.result).toBe('success');
  });

  it('updatePresence: last_update_id, history_limit_days, new_user_input, ping_only JSON, status raw, slim_presence; decodes as UpdatePresenceResult', async () => {
    const res = await send(app(me), 'POST', '/users/me/presence', { last_update_id: '-1', history_limit_days: '14', new_user_input: 'true', ping_only: 'false', status: 'active', slim_presence: 'true' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectDecodes(res.body, 'UpdatePresenceResult');
  });

  it('createSavedSnippet: title and content raw; decodes as CreateSavedSnippetResult', async () => {
    expectDecodes((await send(app(me), 'POST', '/saved_snippets', { title: 'Thanks', content: 'Thank you!' })).body, 'CreateSavedSnippetResult');
  });

  it('registerPushDevice (feature level 468+): device_id and push_key_id JSON, the rest raw; the request is understood', async () => {
    const res = await send(app(me), 'POST', '/mobile_push/register', {
      device_id: '7', push_key_id: '42', push_key: 'AQ'.padEnd(44, 'A'),
      token_kind: 'fcm', token_id: 'token-1', bouncer_public_key: 'key', encrypted_push_registration: 'blob',
    });
    // Push is off on this server: the parameters were read, and the refusal is the configuration's.
    expect(res.body).toMatchObject({ result: 'error', code: 'PUSH_SERVICE_NOT_CONFIGURED' });
  });

  it('addFcmToken and removeFcmToken (before 468): token raw', async () => {
    expect((await send(app(me), 'POST', '/users/me/android_gcm_reg_id', { token: 'fcm-token' })).body.result).toBe('success');
    expect((await send(app(me), 'DELETE', '/users/me/android_gcm_reg_id', { token: 'fcm-token' })).body.result).toBe('success');
  });

  it('fetchServerEmojiData: GET server_emoji_data_url from the snapshot, without credentials; decodes as ServerEmojiData', async () => {
    const snapshot = await send(app(me), 'POST', '/register', { ...REGISTER, fetch_event_types: '["realm"]' });
    const url = new URL(snapshot.body.server_emoji_data_url, t.baseUrl);
    const res = await fetch(new URL(url.pathname + url.search, t.baseUrl));
    expect(res.status).toBe(200);
    const data = await res.json();
    expectDecodes(data, 'ServerEmojiData');
    expect(data.code_to_names['1f44d']).toContain('+1');
  });

  // updateSettings (lib/api/route/settings.dart): each value through jsonEncode, booleans as
  // true/false, except emojiset, a RawParameter.
  it('updateSettings: PATCH /settings with the app\'s six settings; user_settings events and the snapshot decode', async () => {
    const changed: Wire = {
      twenty_four_hour_time: 'true', starred_message_counts: 'false', display_emoji_reaction_users: 'false',
      emojiset: 'text', web_inbox_show_channel_folders: 'false', presence_enabled: 'false',
    };
    const before = (await send(app(me), 'POST', '/register', { ...REGISTER, fetch_event_types: '["user_settings"]' })).body.user_settings;
    const q = await openQueue(app(me), REGISTER);
    try {
      const res = await send(app(me), 'PATCH', '/settings', changed);
      expect(res.body).toEqual({ result: 'success', msg: '' });
      const events = (await q.events()).filter((e) => e.type === 'user_settings');
      expect(events.map((e) => [e.property, e.value])).toEqual([
        ['twenty_four_hour_time', true], ['starred_message_counts', false], ['display_emoji_reaction_users', false],
        ['emojiset', 'text'], ['web_inbox_show_channel_folders', false], ['presence_enabled', false],
      ]);
      for (const event of events) expectEventDecodes(event);
      const after = (await send(app(me), 'POST', '/register', { ...REGISTER, fetch_event_types: '["user_settings"]' })).body.user_settings;
      expectDecodes(after, 'UserSettings');
      expect(after).toMatchObject({
        twenty_four_hour_time: true, starred_message_counts: false, display_emoji_reaction_users: false,
        emojiset: 'text', web_inbox_show_channel_folders: false, presence_enabled: false,
      });
    } finally {
      // The file's other tests expect the user's settings (presence above all) as they were.
      const restore = Object.fromEntries(Object.keys(changed).map((name) => [name, typeof before[name] === 'string' ? before[name] : JSON.stringify(before[name])]));
      expect((await send(app(me), 'PATCH', '/settings', restore)).body.result).toBe('success');
    }
  });

  it.todo('registerClientDevice and removeClientDevice: POST /register_client_device, /remove_client_device (newer than feature level 496)');
});
