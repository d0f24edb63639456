// zulip-js (zulip/zulip-js, src/api.js and src/resources/*.js): POST requests are multipart
// FormData, each value appended as is (arrays JSON.stringify'd first, everything else turned into a
// string: `null` becomes "null"); every other method puts the parameters in the query string with
// String(value) (so an array becomes "a,b"). Resources JSON-encode a few parameters themselves
// (narrow, messages, event_types). One test per request shape (docs/clients.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendToChannel } from '../support/factories.ts';
import type { ApiResponse, Credentials } from '../support/client.ts';
import { multipart, type Wire } from './support.ts';
import { only, openQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const UA = 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)';

let channelId: number;
const t = useTestServer();
const { me, bob } = useTeam(t, ['me', 'bob'], { me: { fullName: 'Jay Script', role: 200 } });

/** api.js: POST as FormData (multipart), anything else as query parameters. */
function js(who: Credentials, method: string, path: string, params: Wire = {}): Promise<ApiResponse> {
  if (method === 'POST') return multipart(t.baseUrl, method, path, who, params, [], UA);
  return t.client(who).request(method, path, params, 'query', { 'user-agent': UA });
}

beforeAll(async () => {
  channelId = await makeChannel(t.client(me), 'test-bot', { principals: [me.userId, bob.userId] });
});

describe('zulip-js: accounts, server, users', () => {
  it('accounts.retrieve: POST /fetch_api_key as FormData, without credentials', async () => {
    const res = await t.client().request('POST', '/fetch_api_key', { username: bob.email, password: `pw-${bob.email}` }, 'multipart', { 'user-agent': UA });
    expect(res.body).toMatchObject({ result: 'success', api_key: bob.apiKey, email: bob.email });
  });

  it('server.settings: GET /server_settings', async () => {
    expect((await js(me, 'GET', '/server_settings')).body).toMatchObject({ zulip_version: expect.any(String), realm_name: expect.any(String) });
  });

  it('users.retrieve: GET /users; users.me.getProfile: GET /users/me', async () => {
    expect((await js(me, 'GET', '/users', { client_gravatar: 'true' })).body.members.length).toBeGreaterThan(1);
    expect((await js(me, 'GET', '/users/me')).body).toMatchObject({ user_id: me.userId, full_name: 'Jay Script' });
  });

  it('users.create: POST /users as FormData', async () => {
    const res = await js(me, 'POST', '/users', { email: 'newjs@example.com', password: 'temp', full_name: 'New JS' });
    expect(res.body).toMatchObject({ result: 'success', user_id: expect.any(Number) });
  });

  it('users.me.pointer: GET and POST /users/me/pointer, removed from Zulip (feature level 29): a JSON 404', async () => {
    const res = await js(me, 'GET', '/users/me/pointer');
    expect(res.status).toBe(404);
    expect(res.body.result).toBe('error');
  });
});

describe('zulip-js: messages', () => {
  it('messages.send: FormData with the channel name and `subject`, or `to` an array JSON-encoded', async () => {
    const toChannel = await js(me, 'POST', '/messages', { to: 'test-bot', type: 'stream', subject: 'Testing zulip-js', content: 'Something is wrong....' });
    expect(toChannel.body).toMatchObject({ result: 'success', id: expect.any(Number) });
    const direct = await js(me, 'POST', '/messages', { to: `[${bob.userId}]`, type: 'private', content: 'hi bob' });
    expect(direct.body.result).toBe('success');
  });

  it('messages.retrieve: query parameters, narrow JSON-encoded; its README passes `stream` and `type` too (ignored)', async () => {
    const id = await sendToChannel(t.client(me), 'test-bot', 'Testing zulip-js', 'around');
    const res = await js(me, 'GET', '/messages', {
      stream: 'test-bot', type: 'stream', anchor: String(id), num_before: '1', num_after: '1',
      narrow: JSON.stringify([{ operator: 'stream', operand: 'test-bot' }]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.found_anchor).toBe(true);
    expect(res.body.ignored_parameters_unsupported).toEqual(expect.arrayContaining(['stream', 'type']));
    // The most recent message: a large numeric anchor.
    const newest = await js(me, 'GET', '/messages', { anchor: '1000000000', num_before: '1', num_after: '1' });
    expect(newest.body.messages.map((m: { id: number }) => m.id)).toEqual([id]);
  });

  it('messages.update: PATCH with message_id and content in the query string', async () => {
    const id = await sendToChannel(t.client(me), 'test-bot', 'Testing zulip-js', 'before');
    const res = await js(me, 'PATCH', `/messages/${id}`, { message_id: String(id), content: 'New content' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await js(me, 'GET', `/messages/${id}`, { message_id: String(id) })).body.raw_content).toBe('New content');
  });

  it('messages.getById: GET /messages/{id} with message_id repeated in the query', async () => {
    const id = await sendToChannel(t.client(me), 'test-bot', 'Testing zulip-js', 'by id');
    const res = await js(me, 'GET', `/messages/${id}`, { message_id: String(id) });
    expect(res.body).toMatchObject({ raw_content: 'by id', message: { id } });
  });

  it('messages.flags.add and .remove: FormData, messages JSON-encoded, op set by the resource', async () => {
    const id = await sendToChannel(t.client(bob), 'test-bot', 'Testing zulip-js', 'flag me');
    const add = await js(me, 'POST', '/messages/flags', { messages: `[${id}]`, flag: 'read', op: 'add' });
    expect(add.body).toMatchObject({ result: 'success', messages: [id] });
    expect((await js(me, 'POST', '/messages/flags', { messages: `[${id}]`, flag: 'read', op: 'remove' })).body.messages).toEqual([id]);
  });

  it('reactions.add (FormData) and reactions.remove (query): emoji_name, emoji_code, reaction_type', async () => {
    const id = await sendToChannel(t.client(bob), 'test-bot', 'Testing zulip-js', 'react');
    const add = await js(me, 'POST', `/messages/${id}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    expect(add.body.result).toBe('success');
    const remove = await js(me, 'DELETE', `/messages/${id}/reactions`, { emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    expect(remove.body.result).toBe('success');
  });

  it('messages.deleteReactionById: DELETE with only message_id, which Zulip refuses for want of an emoji', async () => {
    const id = await sendToChannel(t.client(bob), 'test-bot', 'Testing zulip-js', 'no emoji');
    const res = await js(me, 'DELETE', `/messages/${id}/reactions`, { message_id: String(id) });
    expect(res.body).toMatchObject({ result: 'error', msg: 'At least one of the following arguments must be present: emoji_name, emoji_code' });
  });

  it('messages.deleteById: DELETE /messages/{id} with message_id in the query', async () => {
    const id = await sendToChannel(t.client(me), 'test-bot', 'Testing zulip-js', 'delete me');
    expect((await js(me, 'DELETE', `/messages/${id}`, { message_id: String(id) })).body.result).toBe('success');
  });

  it('messages.render: POST /messages/render as FormData', async () => {
    const res = await js(me, 'POST', '/messages/render', { content: '**hello**' });
    expect(res.body).toMatchObject({ result: 'success', rendered: '<p><strong>hello</strong></p>' });
  });

  it('messages.getHistoryById: GET /messages/{id}/history with message_id in the query', async () => {
    const id = await sendToChannel(t.client(me), 'test-bot', 'Testing zulip-js', 'before');
    await t.client(me).patch(`/messages/${id}`, { content: 'after' });
    const res = await js(me, 'GET', `/messages/${id}/history`, { message_id: String(id) });
    expect(res.body.message_history.map((s: { content: string }) => s.content)).toEqual(['before', 'after']);
  });
});

describe('zulip-js: queues and events', () => {
  it('queues.register with event_types JSON-encoded; events.retrieve with dont_block=false; queues.deregister', async () => {
    const q = await js(me, 'POST', '/register', { event_types: '["message"]' });
    expect(q.body).toMatchObject({ queue_id: expect.any(String), last_event_id: -1 });
    await sendToChannel(t.client(bob), 'test-bot', 'Testing zulip-js', 'an event');
    const events = await js(me, 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1', dont_block: 'false' });
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(['message']);
    expect((await js(me, 'DELETE', '/events', { queue_id: q.body.queue_id })).body.result).toBe('success');
  });

  // callOnEachEvent() registers with event_types null, which FormData sends as the string "null".
  // Zulip's pydantic union refuses a JSON null there; Parley reads a null list as an absent one, so
  // the client's event loop starts (every event type, as with no event_types).
  it('callOnEachEvent: register with event_types "null" gets a queue for every event type', async () => {
    const q = await js(me, 'POST', '/register', { event_types: 'null' });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body).toMatchObject({ queue_id: expect.any(String), realm_users: expect.any(Array), subscriptions: expect.any(Array) });
    await sendToChannel(t.client(bob), 'test-bot', 'Testing zulip-js', 'any event');
    await t.client(bob).post('/users/me/status', { status_text: 'busy' });
    const events = await js(me, 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1', dont_block: 'true' });
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['message', 'user_status']));
    // A list that is not null is still checked.
    const bad = await js(me, 'POST', '/register', { event_types: '"message"' });
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    // A required list may not be null.
    const required = await js(me, 'POST', '/users/me/subscriptions', { subscriptions: 'null' });
    expect(required.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'subscriptions is not a list' });
  });

  it('typing.send: FormData, `to` JSON-encoded when there are several recipients', async () => {
    const carol = await makeUser(t, { fullName: 'Carol Singer' });
    const q = await openQueue(t.client(bob), { event_types: '["typing"]' });
    const res = await js(me, 'POST', '/typing', { to: `[${bob.userId},${carol.userId}]`, op: 'start' });
    expect(res.body.result).toBe('success');
    expect(only(await q.events(), 'typing')).toMatchObject({ op: 'start', sender: { user_id: me.userId } });
  });

  it('typing.send with one recipient sends `to` as a bare number, which Zulip refuses too ("to is not a list")', async () => {
    const res = await js(me, 'POST', '/typing', { to: String(bob.userId), op: 'start' });
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });
});

describe('zulip-js: channels', () => {
  it('streams.retrieve, streams.getStreamId, streams.subscriptions.retrieve, streams.topics.retrieve', async () => {
    expect((await js(me, 'GET', '/streams')).body.streams.map((s: { name: string }) => s.name)).toContain('test-bot');
    expect((await js(me, 'GET', '/get_stream_id', { stream: 'test-bot' })).body.stream_id).toBe(channelId);
    expect((await js(me, 'GET', '/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toContain(channelId);
    await sendToChannel(t.client(me), 'test-bot', 'a topic', 'x');
    expect((await js(me, 'GET', `/users/me/${channelId}/topics`)).body.topics.map((topic: { name: string }) => topic.name)).toContain('a topic');
  });

  it('users.me.subscriptions.add: FormData, subscriptions a JSON string (as its example passes it)', async () => {
    const res = await js(me, 'POST', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'off topic' }]) });
    expect(res.body).toMatchObject({ result: 'success', subscribed: { [String(me.userId)]: ['off topic'] } });
  });

  it('users.me.subscriptions.remove: DELETE with subscriptions in the query (a JSON string, as for add)', async () => {
    const res = await js(me, 'DELETE', '/users/me/subscriptions', { subscriptions: JSON.stringify(['off topic']) });
    expect(res.body).toMatchObject({ result: 'success', removed: ['off topic'] });
  });

  it('streams.deleteById: DELETE /streams/{id} with stream_id in the query', async () => {
    const id = await makeChannel(t.client(me), 'short-lived');
    expect((await js(me, 'DELETE', `/streams/${id}`, { stream_id: String(id) })).body.result).toBe('success');
  });
});

describe('zulip-js: organization', () => {
  it('emojis.retrieve: GET /realm/emoji', async () => {
    expect((await js(me, 'GET', '/realm/emoji')).body.emoji).toEqual(expect.any(Object));
  });

  it('filters.retrieve: GET /realm/filters, replaced by /realm/linkifiers in Zulip 4.0 (405: the path serves POST)', async () => {
    const res = await js(me, 'GET', '/realm/filters');
    expect(res.status).toBe(405);
  });

  it('users.me.alertWords.retrieve: GET /users/me/alert_words', async () => {
    expect((await js(me, 'GET', '/users/me/alert_words')).body).toMatchObject({ result: 'success', alert_words: [] });
  });
});
