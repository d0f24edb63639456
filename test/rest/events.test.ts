import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendDirect, sendToChannel, updateRealm } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { getEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

// A one-second heartbeat keeps the long-poll tests short.
const t = useTestServer({ heartbeatSecs: 1 });
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

beforeAll(async () => {
  await makeChannel(t.client(alice), 'design', { principals: [alice.userId, bob.userId] });
});

const register = (client: ApiClient, params: Record<string, unknown> = {}) => registerQueue(client, {
  event_types: ['message', 'update_message', 'delete_message', 'reaction', 'typing', 'update_message_flags', 'heartbeat'], fetch_event_types: ['realm'], ...params,
});

describe('POST /register', () => {
  it('creates a queue and reports limits and the feature level', async () => {
    const res = await t.client(alice).post('/register', { fetch_event_types: ['realm'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ last_event_id: -1, idle_queue_timeout_secs: 600, zulip_feature_level: 496 });
    expect(typeof res.body.queue_id).toBe('string');
  });

  it('returns the whole initial state, valid against Zulip\'s description, for members and guests', async () => {
    const guest = await makeUser(t, { fullName: 'Gus Guest', role: 600 });
    for (const client of [t.client(alice), t.client(guest)]) {
      const res = await client.post('/register', { include_subscribers: 'true', slim_presence: true, client_capabilities: { notification_settings_null: true, bulk_message_deletion: true } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        max_message_length: 10000, max_topic_length: 60, max_stream_name_length: 60, max_stream_description_length: 1024,
        server_typing_started_wait_period_milliseconds: 30000, server_typing_stopped_wait_period_milliseconds: 12000,
        server_typing_started_expiry_period_milliseconds: 45000, realm_empty_topic_display_name: 'general chat',
      });
      for (const key of ['realm_users', 'realm_user_groups', 'subscriptions', 'unsubscribed', 'never_subscribed', 'recent_private_conversations', 'navigation_views', 'saved_snippets', 'realm_linkifiers', 'realm_emoji', 'presences', 'user_settings', 'user_status', 'user_topics', 'server_report_message_types', 'has_provider_token', 'unread_msgs']) {
        expect(res.body, key).toHaveProperty(key);
      }
    }
  });

  it('sends only the fetched types, and no linkifiers without linkifier_url_template', async () => {
    const res = await t.client(alice).post('/register', { fetch_event_types: ['realm_linkifiers', 'message'] });
    expect(res.body.realm_linkifiers).toEqual([]);
    expect(res.body).toHaveProperty('max_message_id');
    expect(res.body).not.toHaveProperty('realm_users');
    expect(res.body).not.toHaveProperty('subscriptions');
  });

  it('lists subscribers with include_subscribers, and private channels only to their members', async () => {
    await makeChannel(t.client(alice), 'hideout', { invite_only: true });
    const mine = await t.client(alice).post('/register', { fetch_event_types: ['subscription'], include_subscribers: 'true' });
    const hideout = mine.body.subscriptions.find((s: { name: string }) => s.name === 'hideout');
    expect(hideout.subscribers).toEqual([alice.userId]);
    const theirs = await t.client(carol).post('/register', { fetch_event_types: ['subscription'] });
    const names = [...theirs.body.subscriptions, ...theirs.body.unsubscribed, ...theirs.body.never_subscribed].map((s: { name: string }) => s.name);
    expect(names).not.toContain('hideout');
  });

  it('takes an idle_queue_timeout within its bounds', async () => {
    const ok = await t.client(alice).post('/register', { idle_queue_timeout: 3600, fetch_event_types: ['realm'] });
    expect(ok.body.idle_queue_timeout_secs).toBe(3600);
    const low = await t.client(alice).post('/register', { idle_queue_timeout: 5, fetch_event_types: ['realm'] });
    expect(low.status).toBe(400);
    expect(low.body.msg).toBe('idle_queue_timeout must be between 60 and 604800 seconds');
  });

  it('refuses malformed capabilities and narrows', async () => {
    expect((await t.client(alice).post('/register', { client_capabilities: '[1]' })).status).toBe(400);
    expect((await t.client(alice).post('/register', { client_capabilities: { bulk_message_deletion: 'yes' } })).status).toBe(400);
    expect((await t.client(alice).post('/register', { narrow: '"stream"' })).status).toBe(400);
  });

  it('refuses anonymous clients unless the organization allows spectators', async () => {
    const res = await t.client().post('/register', { fetch_event_types: ['realm'] });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('lets spectators register, without client_gravatar or include_subscribers=true', async () => {
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
    await updateRealm(t, { enable_spectator_access: true });
    try {
      const ok = await t.client().post('/register', { fetch_event_types: ['realm'] });
      expect(ok.status).toBe(200);
      const gravatar = await t.client().post('/register', { client_gravatar: true });
      expect(gravatar.body.msg).toBe("Invalid 'client_gravatar' parameter for anonymous request");
      const subs = await t.client().post('/register', { include_subscribers: true });
      expect(subs.body.msg).toBe("Invalid 'include_subscribers' parameter for anonymous request");
    } finally {
      await updateRealm(t, { enable_spectator_access: false });
    }
  });
});

describe('GET /events', () => {
  it('answers at once with dont_block, and with new events as they happen', async () => {
    const q = await register(t.client(bob));
    expect(await getEvents(t.client(bob), q.queue_id)).toEqual([]);
    const id = await sendToChannel(t.client(alice), 'design', 'events', 'hello **bob**');
    const events = await getEvents(t.client(bob), q.queue_id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'message', id: 0, flags: [] });
    expect(events[0]!.message).toMatchObject({ id, subject: 'events', display_recipient: 'design', content: 'hello **bob**', content_type: 'text/x-markdown' });
  });

  it('holds a long-poll open until an event arrives', async () => {
    const q = await register(t.client(bob));
    const pending = getEvents(t.client(bob), q.queue_id, -1, false);
    await new Promise((r) => setTimeout(r, 100));
    await sendDirect(t.client(alice), [bob.userId], 'ping');
    const events = await pending;
    expect(events.map((e) => e.type)).toEqual(['message']);
    expect(events[0]!.message.type).toBe('private');
  });

  it('answers an idle long-poll with a heartbeat', async () => {
    const q = await register(t.client(carol));
    const events = await getEvents(t.client(carol), q.queue_id, -1, false);
    expect(events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('drops events the client acknowledged with last_event_id', async () => {
    const q = await register(t.client(bob));
    await sendDirect(t.client(alice), [bob.userId], 'one');
    await sendDirect(t.client(alice), [bob.userId], 'two');
    const both = await getEvents(t.client(bob), q.queue_id, -1);
    expect(both.map((e) => e.id)).toEqual([0, 1]);
    const rest = await getEvents(t.client(bob), q.queue_id, 0);
    expect(rest.map((e) => e.id)).toEqual([1]);
    expect(await getEvents(t.client(bob), q.queue_id, 1)).toEqual([]);
  });

  it('rejects unknown queues and other users\' queues alike with BAD_EVENT_QUEUE_ID', async () => {
    const q = await register(t.client(bob));
    const other = await t.client(carol).get('/events', { queue_id: q.queue_id, dont_block: true });
    const unknown = await t.client(carol).get('/events', { queue_id: 'no-such-queue', dont_block: true });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: q.queue_id });
    expect(unknown.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('requires queue_id', async () => {
    const res = await t.client(bob).get('/events');
    expect(res.body.msg).toBe("Missing 'queue_id' argument");
  });
});

describe('Queue lifetime', () => {
  it('DELETE /events removes a queue', async () => {
    const q = await register(t.client(bob));
    expect((await t.client(bob).delete('/events', { queue_id: q.queue_id })).status).toBe(200);
    const after = await t.client(bob).get('/events', { queue_id: q.queue_id, dont_block: true });
    expect(after.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('idle queues are collected after their timeout', async () => {
    const q = await register(t.client(bob), { idle_queue_timeout: 60 });
    const keep = await register(t.client(bob), { idle_queue_timeout: 3600 });
    const collected = await t.server.queues.collectIdle(Date.now() + 120_000);
    expect(collected).toBeGreaterThanOrEqual(1);
    expect((await t.client(bob).get('/events', { queue_id: q.queue_id, dont_block: true })).body.code).toBe('BAD_EVENT_QUEUE_ID');
    expect((await t.client(bob).get('/events', { queue_id: keep.queue_id, dont_block: true })).status).toBe(200);
  });
});

describe('Event filtering', () => {
  it('event_types limits what a queue receives', async () => {
    const q = await register(t.client(bob), { event_types: ['reaction'] });
    const id = await sendToChannel(t.client(alice), 'design', 'filter', 'x');
    await t.client(alice).post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    const events = await getEvents(t.client(bob), q.queue_id);
    expect(events.map((e) => e.type)).toEqual(['reaction']);
    expect(events[0]).toMatchObject({ op: 'add', message_id: id, emoji_name: 'tada', user_id: alice.userId });
  });

  it('narrow limits message events', async () => {
    const q = await register(t.client(bob), { narrow: [['stream', 'design'], ['topic', 'wanted']] });
    await sendToChannel(t.client(alice), 'design', 'other', 'no');
    const id = await sendToChannel(t.client(alice), 'design', 'wanted', 'yes');
    const events = await getEvents(t.client(bob), q.queue_id);
    expect(events.map((e) => e.message?.id)).toEqual([id]);
  });

  it('only recipients get message events: no leak to non-subscribers', async () => {
    const q = await register(t.client(carol));
    await sendToChannel(t.client(alice), 'design', 'secretish', 'members only');
    await sendDirect(t.client(alice), [bob.userId], 'just bob');
    expect(await getEvents(t.client(carol), q.queue_id)).toEqual([]);
  });

  it('all_public_streams adds messages of every public channel', async () => {
    await makeChannel(t.client(alice), 'plaza');
    const q = await register(t.client(carol), { all_public_streams: true });
    const id = await sendToChannel(t.client(alice), 'plaza', 'open', 'for all');
    const events = await getEvents(t.client(carol), q.queue_id);
    expect(events.map((e) => e.message?.id)).toEqual([id]);
    expect(events[0]!.flags).toEqual(['read', 'historical']);
    const guest = await makeUser(t, { role: 600 });
    const refused = await t.client(guest).post('/register', { all_public_streams: true });
    expect(refused.status).toBe(400);
  });

  it('apply_markdown sends rendered HTML', async () => {
    const q = await register(t.client(bob), { apply_markdown: true });
    await sendToChannel(t.client(alice), 'design', 'md', '**bold**');
    const [event] = await getEvents(t.client(bob), q.queue_id);
    expect(event!.message.content).toBe('<p><strong>bold</strong></p>');
    expect(event!.message.content_type).toBe('text/html');
  });

  it('the empty topic shows as its display name unless the client has empty_topic_name', async () => {
    const legacy = await register(t.client(bob));
    const modern = await register(t.client(bob), { client_capabilities: { empty_topic_name: true } });
    await sendToChannel(t.client(alice), 'design', '', 'general chat message');
    expect((await getEvents(t.client(bob), legacy.queue_id))[0]!.message.subject).toBe('general chat');
    expect((await getEvents(t.client(bob), modern.queue_id))[0]!.message.subject).toBe('');
  });
});

describe('Events of message actions', () => {
  it('update_message for edits', async () => {
    const id = await sendToChannel(t.client(alice), 'design', 'edit-events', 'before');
    const q = await register(t.client(bob));
    await t.client(alice).patch(`/messages/${id}`, { content: 'after' });
    const [event] = await getEvents(t.client(bob), q.queue_id);
    expect(event).toMatchObject({ type: 'update_message', message_id: id, content: 'after', orig_content: 'before', user_id: alice.userId });
  });

  it('delete_message in bulk form with bulk_message_deletion, else one per message', async () => {
    const id = await sendToChannel(t.client(alice), 'design', 'delete-events', 'bye');
    const bulk = await register(t.client(bob), { client_capabilities: { bulk_message_deletion: true } });
    const single = await register(t.client(bob));
    await t.client(alice).delete(`/messages/${id}`);
    expect((await getEvents(t.client(bob), bulk.queue_id))[0]).toMatchObject({ type: 'delete_message', message_ids: [id], message_type: 'stream' });
    const [one] = await getEvents(t.client(bob), single.queue_id);
    expect(one).toMatchObject({ type: 'delete_message', message_id: id });
    expect(one!.message_ids).toBeUndefined();
  });

  it('update_message_flags to the user who changed them', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId], 'flag me');
    const q = await register(t.client(bob));
    await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    const [event] = await getEvents(t.client(bob), q.queue_id);
    expect(event).toMatchObject({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [id], all: false });
  });
});

describe('POST /typing', () => {
  it('tells direct-message recipients, not the sender', async () => {
    const qBob = await register(t.client(bob));
    const qAlice = await register(t.client(alice));
    const res = await t.client(alice).post('/typing', { op: 'start', to: [bob.userId] });
    expect(res.status).toBe(200);
    const [event] = await getEvents(t.client(bob), qBob.queue_id);
    expect(event).toMatchObject({ type: 'typing', op: 'start', sender: { user_id: alice.userId, email: alice.email } });
    expect(event!.recipients.map((r: { user_id: number }) => r.user_id).sort()).toEqual([alice.userId, bob.userId].sort());
    expect(await getEvents(t.client(alice), qAlice.queue_id)).toEqual([]);
  });

  it('channel typing reaches only clients with stream_typing_notifications', async () => {
    const design = (await t.client(bob).get('/get_stream_id', { stream: 'design' })).body.stream_id;
    const capable = await register(t.client(bob), { client_capabilities: { stream_typing_notifications: true } });
    const legacy = await register(t.client(bob));
    await t.client(alice).post('/typing', { type: 'channel', op: 'stop', stream_id: design, topic: '(no topic)' });
    const [event] = await getEvents(t.client(bob), capable.queue_id);
    expect(event).toMatchObject({ type: 'typing', op: 'stop', message_type: 'stream', stream_id: design, topic: 'general chat' });
    expect(await getEvents(t.client(bob), legacy.queue_id)).toEqual([]);
  });

  it('refuses channel typing without stream_id, bad ops and unknown users', async () => {
    const noStream = await t.client(alice).post('/typing', { type: 'stream', op: 'start', topic: 'x' });
    expect(noStream).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', msg: 'Missing stream_id' } });
    expect((await t.client(alice).post('/typing', { op: 'typing', to: [bob.userId] })).status).toBe(400);
    expect((await t.client(alice).post('/typing', { op: 'start', to: [987654] })).status).toBe(400);
    expect((await t.client(alice).post('/typing', { op: 'start' })).status).toBe(400);
  });
});

describe('Events of channel and user actions', () => {
  it('creating a channel: stream create to members, subscription add to the subscriber, peer_add to others', async () => {
    const qAlice = await register(t.client(alice), { event_types: ['stream', 'subscription'] });
    const qCarol = await register(t.client(carol), { event_types: ['stream', 'subscription'] });
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'launch', description: 'new' }] });
    const aliceEvents = await getEvents(t.client(alice), qAlice.queue_id);
    expect(aliceEvents.map((e) => `${e.type}:${e.op}`)).toEqual(['stream:create', 'subscription:add']);
    expect(aliceEvents[1]!.subscriptions[0]).toMatchObject({ name: 'launch', subscribers: [alice.userId], color: expect.any(String) });
    const carolEvents = await getEvents(t.client(carol), qCarol.queue_id);
    // As in Zulip, everyone who may see a public channel's subscribers hears of its first one.
    expect(carolEvents.map((e) => `${e.type}:${e.op}`)).toEqual(['stream:create', 'subscription:peer_add']);

    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'launch' }], principals: [carol.userId] });
    const peer = await getEvents(t.client(alice), qAlice.queue_id, aliceEvents.at(-1)!.id);
    expect(peer[0]).toMatchObject({ type: 'subscription', op: 'peer_add', user_ids: [carol.userId] });
  });

  it('a private channel\'s creation reaches only its subscribers', async () => {
    const qCarol = await register(t.client(carol), { event_types: ['stream'] });
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'bunker' }], invite_only: true });
    expect(await getEvents(t.client(carol), qCarol.queue_id)).toEqual([]);
  });

  it('a new user: realm_user add', async () => {
    const q = await register(t.client(alice), { event_types: ['realm_user'] });
    const created = await t.client(t.owner).post('/users', { email: 'fresh@example.com', password: 'fresh-pass', full_name: 'Fresh Face' });
    const [event] = await getEvents(t.client(alice), q.queue_id);
    expect(event).toMatchObject({ type: 'realm_user', op: 'add', person: { user_id: created.body.user_id, full_name: 'Fresh Face', role: 400 } });
  });
});
