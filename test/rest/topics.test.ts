// Topics: listing a channel's topics, deleting a topic in batches, marking conversations read
// (the deprecated endpoints and the narrow-based flag update), and topic visibility policies.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useBot, useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { admin, moderator, alice, bob, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'guest']);
const bot = useBot(t, alice, { fullName: 'Botty' });
const stranger = useOtherRealmOwner(t, 'other');
const OTHER = 'other.localhost';
let seq = 0;
const fresh = (prefix: string) => `${prefix}-${++seq}`;

const as = (who: Credentials) => (who === stranger ? t.client(who, OTHER) : t.client(who));

const register = (client: ApiClient, params: Record<string, unknown> = {}) => registerQueue(client, {
  event_types: ['delete_message', 'stream', 'update_message_flags', 'user_topic'], fetch_event_types: ['user_topic'], ...params,
});
const events = async (client: ApiClient, queueId: string, type?: string) => (await allEvents(client, queueId)).filter((e) => !type || e.type === type);
const unread = async (userId: number, ids: number[]) =>
  (await t.db.userMessage.findMany({ where: { userId, messageId: { in: ids }, read: false }, select: { messageId: true } })).map((r) => r.messageId).sort((a, b) => a - b);

describe('GET /users/me/{stream_id}/topics', () => {
  let name: string;
  let id: number;
  let ids: number[];
  beforeAll(async () => {
    name = fresh('topical');
    id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    ids = [
      await sendToChannel(t.client(alice), name, 'lunch', 'a'),
      await sendToChannel(t.client(alice), name, 'design', 'b'),
      await sendToChannel(t.client(bob), name, '', 'c'),
      await sendToChannel(t.client(bob), name, 'LUNCH', 'd'),
    ];
  });

  it('lists topics newest first, named as their latest message spells them', async () => {
    const res = await t.client(bob).get(`/users/me/${id}/topics`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.topics).toEqual([
      { name: 'LUNCH', max_id: ids[3] },
      { name: 'general chat', max_id: ids[2] },
      { name: 'design', max_id: ids[1] },
    ]);
  });

  it('returns the empty topic as "" with allow_empty_topic_name', async () => {
    const res = await t.client(bob).get(`/users/me/${id}/topics`, { allow_empty_topic_name: true });
    expect(res.body.topics.map((x: { name: string }) => x.name)).toEqual(['LUNCH', '', 'design']);
  });

  it('lets non-subscribers of a public channel read its topics, but not guests', async () => {
    expect((await t.client(moderator).get(`/users/me/${id}/topics`)).body.topics).toHaveLength(3);
    const res = await t.client(guest).get(`/users/me/${id}/topics`);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    const other = await as(stranger).get(`/users/me/${id}/topics`);
    expect(other.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  it('never shows a private channel\'s topics to those who cannot read it', async () => {
    const secret = fresh('secret');
    const sid = await makeChannel(t.client(alice), secret, { invite_only: true });
    await sendToChannel(t.client(alice), secret, 'the plan', 'hidden');
    for (const who of [bob, admin, guest, bot]) {
      const hidden = await t.client(who).get(`/users/me/${sid}/topics`);
      const missing = await t.client(who).get('/users/me/999999/topics');
      expect(hidden.body, `${who.fullName}`).toEqual(missing.body);
    }
  });

  it('shows a late subscriber of a protected-history channel only the topics they received', async () => {
    const secret = fresh('protected');
    const sid = await makeChannel(t.client(alice), secret, { invite_only: true });
    await sendToChannel(t.client(alice), secret, 'before bob', 'old');
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: secret }], principals: [bob.userId] });
    const after = await sendToChannel(t.client(alice), secret, 'after bob', 'new');
    expect((await t.client(bob).get(`/users/me/${sid}/topics`)).body.topics).toEqual([{ name: 'after bob', max_id: after }]);
    expect((await t.client(alice).get(`/users/me/${sid}/topics`)).body.topics).toHaveLength(2);
  });
});

describe('POST /streams/{stream_id}/delete_topic', () => {
  it('is for organization administrators only (UNAUTHORIZED_PRINCIPAL, HTTP 400), and a refusal deletes nothing', async () => {
    const name = fresh('keepers');
    const id = await makeChannel(t.client(alice), name);
    const msg = await sendToChannel(t.client(alice), name, 'keep', 'stay');
    for (const who of [alice, bob, moderator, guest, bot]) {
      const res = await t.client(who).post(`/streams/${id}/delete_topic`, { topic_name: 'keep' });
      expect(res.status, who.fullName).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
    const other = await as(stranger).post(`/streams/${id}/delete_topic`, { topic_name: 'keep' });
    expect(other.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect(await t.db.message.count({ where: { id: msg } })).toBe(1);
  });

  it('deletes the topic (any case) and only it, telling those who had the messages', async () => {
    const name = fresh('doomed');
    const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    const first = await sendToChannel(t.client(alice), name, 'Old Topic', 'first');
    const second = await sendToChannel(t.client(bob), name, 'old topic', 'second');
    const survivor = await sendToChannel(t.client(bob), name, 'other', 'stays');
    const q = await register(t.client(bob), { client_capabilities: { bulk_message_deletion: true } });
    const outsider = await register(t.client(moderator), { client_capabilities: { bulk_message_deletion: true } });
    const res = await t.client(admin).post(`/streams/${id}/delete_topic`, { topic_name: 'OLD TOPIC' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.complete).toBe(true);
    expect(await t.db.message.count({ where: { id: { in: [first, second] } } })).toBe(0);
    expect(await t.db.message.count({ where: { id: survivor } })).toBe(1);
    const evs = await events(t.client(bob), q.queue_id);
    expect(evs[0]).toMatchObject({ type: 'delete_message', message_ids: [first, second], message_type: 'stream', stream_id: id });
    // The first message changed: first_message_id is announced.
    expect(evs[1]).toMatchObject({ type: 'stream', op: 'update', stream_id: id, property: 'first_message_id', value: survivor });
    expect((await t.db.channel.findUniqueOrThrow({ where: { id } })).firstMessageId).toBe(survivor);
    // A moderator who never received the messages hears only of the channel change.
    expect((await events(t.client(moderator), outsider.queue_id)).map((e) => e.type)).toEqual(['stream']);
  });

  it('takes the empty topic\'s display name to mean the empty topic', async () => {
    const name = fresh('chatty');
    const id = await makeChannel(t.client(alice), name);
    const msg = await sendToChannel(t.client(alice), name, '', 'general');
    const legacy = await register(t.client(alice));
    const modern = await register(t.client(alice), { client_capabilities: { empty_topic_name: true } });
    const res = await t.client(admin).post(`/streams/${id}/delete_topic`, { topic_name: 'general chat' });
    expect(res.body.complete).toBe(true);
    expect(await t.db.message.count({ where: { id: msg } })).toBe(0);
    expect((await events(t.client(alice), legacy.queue_id, 'delete_message'))[0]).toMatchObject({ message_id: msg, topic: 'general chat' });
    expect((await events(t.client(alice), modern.queue_id, 'delete_message'))[0]).toMatchObject({ message_id: msg, topic: '' });
  });

  it('in a private channel, tells only those who had the messages', async () => {
    const name = fresh('private-delete');
    const id = await makeChannel(t.client(admin), name, { invite_only: true, principals: [admin.userId, alice.userId] });
    const msg = await sendToChannel(t.client(admin), name, 'secret plans', 'x');
    const insider = await register(t.client(alice), { client_capabilities: { bulk_message_deletion: true } });
    const outsider = await register(t.client(bob), { client_capabilities: { bulk_message_deletion: true } });
    expect((await t.client(admin).post(`/streams/${id}/delete_topic`, { topic_name: 'secret plans' })).body.complete).toBe(true);
    expect((await events(t.client(alice), insider.queue_id, 'delete_message'))[0]).toMatchObject({ message_ids: [msg], topic: 'secret plans' });
    expect(await events(t.client(bob), outsider.queue_id)).toEqual([]);
  });

  it('needs content access even for administrators', async () => {
    const name = fresh('vault');
    const id = await makeChannel(t.client(alice), name, { invite_only: true });
    const msg = await sendToChannel(t.client(alice), name, 'secret', 'x');
    const res = await t.client(admin).post(`/streams/${id}/delete_topic`, { topic_name: 'secret' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect(await t.db.message.count({ where: { id: msg } })).toBe(1);
  });

  it('requires topic_name', async () => {
    const res = await t.client(admin).post('/streams/1/delete_topic', {});
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic_name' });
  });
});

describe('POST /streams/{stream_id}/delete_topic in batches', () => {
  it('answers complete: false when the budget runs out, newest batch first, until the client repeats to the end', async () => {
    // Two messages a batch and no time budget: every call deletes exactly one batch.
    const saved = { ...t.server.config };
    Object.assign(t.server.config, { deleteTopicBatchSize: 2, deleteTopicBudgetMs: 0 });
    try {
      const name = fresh('batched');
      const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push(await sendToChannel(t.client(alice), name, 'many', `m${i}`));
      const q = await register(t.client(bob), { client_capabilities: { bulk_message_deletion: true } });
      const answers: boolean[] = [];
      for (let i = 0; i < 3; i++) answers.push((await t.client(admin).post(`/streams/${id}/delete_topic`, { topic_name: 'many' })).body.complete);
      expect(answers).toEqual([false, false, true]);
      const deleted = (await events(t.client(bob), q.queue_id, 'delete_message')).map((e) => e.message_ids);
      expect(deleted).toEqual([[ids[3], ids[4]], [ids[1], ids[2]], [ids[0]]]);
      expect(await t.db.message.count({ where: { id: { in: ids } } })).toBe(0);
    } finally {
      t.server.config.deleteTopicBatchSize = saved.deleteTopicBatchSize;
      t.server.config.deleteTopicBudgetMs = saved.deleteTopicBudgetMs;
    }
  });
});

describe('POST /mark_topic_as_read, /mark_stream_as_read, /mark_all_as_read', () => {
  let name: string;
  let id: number;
  beforeAll(async () => {
    name = fresh('reading');
    id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
  });

  it('marks only the topic read and tells the user\'s clients', async () => {
    const a = await sendToChannel(t.client(alice), name, 'Read Me', '1');
    const b = await sendToChannel(t.client(alice), name, 'other', '2');
    const q = await register(t.client(bob));
    const res = await t.client(bob).post('/mark_topic_as_read', { stream_id: id, topic_name: 'read me' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await unread(bob.userId, [a, b])).toEqual([b]);
    expect(await events(t.client(bob), q.queue_id)).toEqual([expect.objectContaining({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [a] })]);
  });

  it('refuses a topic the user has no messages in, and hidden channels', async () => {
    const res = await t.client(bob).post('/mark_topic_as_read', { stream_id: id, topic_name: 'nothing here' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: "No such topic 'nothing here'" });
    const secret = await makeChannel(t.client(alice), fresh('s'), { invite_only: true });
    const hidden = await t.client(bob).post('/mark_stream_as_read', { stream_id: secret });
    expect(hidden.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    const missing = await t.client(bob).post('/mark_topic_as_read', { stream_id: id });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic_name' });
  });

  it('marks a channel read, leaving other channels unread', async () => {
    const other = fresh('elsewhere');
    await makeChannel(t.client(alice), other, { principals: [alice.userId, bob.userId] });
    const here = await sendToChannel(t.client(alice), name, 't', 'here');
    const there = await sendToChannel(t.client(alice), other, 't', 'there');
    expect((await t.client(bob).post('/mark_stream_as_read', { stream_id: id })).status).toBe(200);
    expect(await unread(bob.userId, [here, there])).toEqual([there]);
  });

  it('marks everything read', async () => {
    const m = await sendToChannel(t.client(alice), name, 't', 'again');
    const res = await t.client(bob).post('/mark_all_as_read');
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(true);
    expect(await unread(bob.userId, [m])).toEqual([]);
    expect(await t.db.userMessage.count({ where: { userId: bob.userId, read: false } })).toBe(0);
  });
});

describe('POST /messages/flags/narrow', () => {
  let name: string;
  let id: number;
  let ids: number[];
  beforeAll(async () => {
    name = fresh('narrowed');
    id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    ids = [];
    for (let i = 0; i < 4; i++) ids.push(await sendToChannel(t.client(alice), name, 'window', `w${i}`));
  });

  it('updates a window of the narrow and reports what it did', async () => {
    const q = await register(t.client(bob));
    const res = await t.client(bob).post('/messages/flags/narrow', {
      anchor: ids[1], include_anchor: true, num_before: 1, num_after: 1, op: 'add', flag: 'read',
      narrow: [{ operator: 'channel', operand: id }, { operator: 'topic', operand: 'window' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      processed_count: 3, updated_count: 3, first_processed_id: ids[0], last_processed_id: ids[2], found_oldest: false, found_newest: false,
    });
    expect(await unread(bob.userId, ids)).toEqual([ids[3]]);
    expect(await events(t.client(bob), q.queue_id)).toEqual([expect.objectContaining({ type: 'update_message_flags', op: 'add', flag: 'read', messages: ids.slice(0, 3) })]);
    const again = await t.client(bob).post('/messages/flags/narrow', {
      anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'read', narrow: [{ operator: 'channel', operand: id }],
    });
    expect(again.body).toMatchObject({ processed_count: 4, updated_count: 1, last_processed_id: ids[3], found_newest: true, found_oldest: true });
  });

  it('anchors at the first unread message with first_unread', async () => {
    await t.client(bob).post('/messages/flags', { messages: [ids[2], ids[3]], op: 'remove', flag: 'read' });
    const res = await t.client(bob).post('/messages/flags/narrow', {
      anchor: 'first_unread', num_before: 0, num_after: 10, op: 'add', flag: 'read', narrow: [{ operator: 'channel', operand: id }],
    });
    expect(res.body).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: ids[2], last_processed_id: ids[3], found_newest: true });
  });

  it('stars and unstars', async () => {
    const add = await t.client(bob).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 2, op: 'add', flag: 'starred', narrow: [{ operator: 'channel', operand: id }] });
    expect(add.body).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: ids[0], last_processed_id: ids[1], found_oldest: true, found_newest: false });
    const remove = await t.client(bob).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 10, op: 'remove', flag: 'starred', narrow: [{ operator: 'channel', operand: id }] });
    expect(remove.body).toMatchObject({ processed_count: 4, updated_count: 2 });
  });

  it('checks its parameters', async () => {
    const base = { anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'read' };
    const cases: [Record<string, unknown>, string][] = [
      [{ op: 'toggle' }, "Invalid message flag operation: 'toggle'"],
      [{ flag: 'bogus' }, "Invalid flag: 'bogus'"],
      [{ flag: 'mentioned' }, "Flag not editable: 'mentioned'"],
      [{ anchor: 'sideways' }, 'Invalid anchor'],
      [{ num_before: 4000, num_after: 1001 }, 'Too many messages requested (maximum 5000).'],
      [{ anchor: ids[1], num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
    ];
    for (const [change, msg] of cases) {
      const res = await t.client(bob).post('/messages/flags/narrow', { ...base, ...change });
      expect(res.body, msg).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    const missing = await t.client(bob).post('/messages/flags/narrow', { anchor: 'newest', num_after: 0, op: 'add', flag: 'read' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'num_before' });
  });

  it('never touches or reveals a private channel the user cannot read', async () => {
    const secret = fresh('hidden');
    const sid = await makeChannel(t.client(alice), secret, { invite_only: true });
    const msg = await sendToChannel(t.client(alice), secret, 'x', 'secret');
    await t.client(alice).post('/messages/flags', { messages: [msg], op: 'remove', flag: 'read' });
    // As Zulip's by_channel: no error, only Bob's own messages there (none).
    const res = await t.client(bob).post('/messages/flags/narrow', { anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'starred', narrow: [{ operator: 'channel', operand: sid }] });
    expect(res.body).toMatchObject({ result: 'success', processed_count: 0, updated_count: 0 });
    const all = await t.client(bob).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1000, num_after: 0, op: 'add', flag: 'starred', narrow: [] });
    expect(all.status).toBe(200);
    expect(await t.db.userMessage.count({ where: { userId: bob.userId, messageId: msg } })).toBe(0);
    expect(await unread(alice.userId, [msg])).toEqual([msg]);
  });
});

describe('POST /user_topics', () => {
  let name: string;
  let id: number;
  beforeAll(async () => {
    name = fresh('prefs');
    id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
  });

  it('sets a policy for a topic without messages, sends user_topic, and register reflects it', async () => {
    const q = await register(t.client(bob));
    for (const policy of [1, 2, 3]) {
      const res = await t.client(bob).post('/user_topics', { stream_id: id, topic: 'future', visibility_policy: policy });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const evs = await events(t.client(bob), q.queue_id, 'user_topic');
    expect(evs.map((e) => [e.stream_id, e.topic_name, e.visibility_policy])).toEqual([[id, 'future', 1], [id, 'future', 2], [id, 'future', 3]]);
    expect(typeof evs[0].last_updated).toBe('number');
    const inChannel = (state: object) => (state as { user_topics: { stream_id: number }[] }).user_topics.filter((u) => u.stream_id === id);
    expect(inChannel(await register(t.client(bob)))).toEqual([expect.objectContaining({ stream_id: id, topic_name: 'future', visibility_policy: 3 })]);
    // Others are not told.
    expect(inChannel(await register(t.client(alice)))).toEqual([]);
  });

  it('sends the deprecated muted_topics list to clients that did not ask for user_topic', async () => {
    const legacy = await register(t.client(bob), { event_types: ['muted_topics'] });
    const modern = await register(t.client(bob));
    expect((await t.client(bob).post('/user_topics', { stream_id: id, topic: 'hush', visibility_policy: 1 })).status).toBe(200);
    const [event] = await events(t.client(bob), legacy.queue_id, 'muted_topics');
    expect(event.muted_topics).toContainEqual([name, 'hush', expect.any(Number)]);
    expect(await events(t.client(bob), modern.queue_id, 'muted_topics')).toEqual([]);
    // Unmuting sends the list again, without the topic.
    expect((await t.client(bob).post('/user_topics', { stream_id: id, topic: 'hush', visibility_policy: 0 })).status).toBe(200);
    const lists = await events(t.client(bob), legacy.queue_id, 'muted_topics');
    expect(lists.at(-1).muted_topics.map((m: string[]) => m[1])).not.toContain('hush');
  });

  it('policy 0 removes the row; the topic matches case-insensitively', async () => {
    await t.client(bob).post('/user_topics', { stream_id: id, topic: 'Noise', visibility_policy: 1 });
    expect((await t.client(bob).post('/user_topics', { stream_id: id, topic: 'noise', visibility_policy: 0 })).status).toBe(200);
    expect(await t.db.userTopic.count({ where: { userId: bob.userId, channelId: id, topicName: { equals: 'noise', mode: 'insensitive' } } })).toBe(0);
  });

  it('shows the empty topic by its display name unless the client allows empty topic names', async () => {
    const legacy = await register(t.client(bob));
    const modern = await register(t.client(bob), { client_capabilities: { empty_topic_name: true } });
    expect((await t.client(bob).post('/user_topics', { stream_id: id, topic: 'general chat', visibility_policy: 1 })).status).toBe(200);
    expect((await events(t.client(bob), legacy.queue_id, 'user_topic'))[0].topic_name).toBe('general chat');
    expect((await events(t.client(bob), modern.queue_id, 'user_topic'))[0].topic_name).toBe('');
    expect(await t.db.userTopic.count({ where: { userId: bob.userId, channelId: id, topicName: '' } })).toBe(1);
  });

  it('checks the policy, the topic length and channel access', async () => {
    const bad = await t.client(bob).post('/user_topics', { stream_id: id, topic: 't', visibility_policy: 7 });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid visibility_policy' });
    const long = await t.client(bob).post('/user_topics', { stream_id: id, topic: 'x'.repeat(61), visibility_policy: 1 });
    expect(long.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'topic is too long (limit: 60 characters)' });
    const secret = await makeChannel(t.client(alice), fresh('muted-secret'), { invite_only: true });
    for (const who of [bob, guest]) {
      const hidden = await t.client(who).post('/user_topics', { stream_id: secret, topic: 't', visibility_policy: 1 });
      expect(hidden.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    }
    const other = await as(stranger).post('/user_topics', { stream_id: id, topic: 't', visibility_policy: 1 });
    expect(other.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect(await t.db.userTopic.count({ where: { channelId: secret } })).toBe(0);
  });

  it('lets a user unmute a topic in a channel they can no longer read', async () => {
    const secret = fresh('left');
    const sid = await makeChannel(t.client(alice), secret, { invite_only: true, principals: [alice.userId, bob.userId] });
    await t.client(bob).post('/user_topics', { stream_id: sid, topic: 'old', visibility_policy: 1 });
    expect((await t.client(bob).delete('/users/me/subscriptions', { subscriptions: [secret] })).status).toBe(200);
    expect((await t.client(bob).post('/user_topics', { stream_id: sid, topic: 'old', visibility_policy: 1 })).body.msg).toBe('Invalid channel ID');
    expect((await t.client(bob).post('/user_topics', { stream_id: sid, topic: 'old', visibility_policy: 0 })).status).toBe(200);
  });
});
