// Scheduled messages (send later): create, list, edit with every rule of the spec, delete, the
// `scheduled_messages` events, and delivery by the worker (success and failure). The failure
// scenarios reach their state through the API (archiving, unsubscribing, deactivating); only the
// due times (and one failure flag) are written to the database, since tests do not wait.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.ts';
import { makeChannel, makeUser, deactivate } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let design: number;
let secret: number;
// The background worker is off here: every delivery in this file happens when the test asks.
const t = useTestServer({ scheduledPollMs: 0 });
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

beforeAll(async () => {
  design = await makeChannel(t.client(alice), 'design', { principals: [alice.userId, bob.userId] });
  secret = await makeChannel(t.client(carol), 'secret', { invite_only: true });
});

const register = (client: ApiClient, params: Record<string, unknown> = {}) => registerQueue<{ scheduled_messages: any[] }>(client, { event_types: ['scheduled_messages', 'message'], fetch_event_types: ['scheduled_messages'], ...params });

const events = (client: ApiClient, queueId: string) => allEvents(client, queueId, { keepHeartbeats: true });

async function schedule(client: ApiClient, params: Record<string, unknown>) {
  return client.post('/scheduled_messages', { scheduled_delivery_timestamp: inAnHour(), ...params });
}

async function scheduleOk(client: ApiClient, params: Record<string, unknown>): Promise<number> {
  const res = await schedule(client, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.scheduled_message_id;
}

async function listed(client: ApiClient) {
  const res = await client.get('/scheduled_messages');
  expect(res.status).toBe(200);
  return res.body.scheduled_messages as any[];
}

/** The API refuses delivery times in the past: only the database makes a message due now. */
async function makeDue(id: number, secondsAgo = 1) {
  await t.db.scheduledMessage.update({ where: { id }, data: { scheduledTimestamp: new Date(Date.now() - secondsAgo * 1000) } });
}

describe('POST /scheduled_messages', () => {
  it('schedules a channel message: listed for the sender only, with an add event to the sender only', async () => {
    const queue = await register(t.client(alice));
    const bobQueue = await register(t.client(bob));
    const at = inAnHour();
    const res = await t.client(alice).post('/scheduled_messages', { type: 'channel', to: design, topic: 'plans', content: '**Hi**', scheduled_delivery_timestamp: at });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.scheduled_message_id;
    expect(typeof id).toBe('number');
    const record = { scheduled_message_id: id, type: 'stream', to: design, topic: 'plans', content: '**Hi**', rendered_content: '<p><strong>Hi</strong></p>', scheduled_delivery_timestamp: at, failed: false };
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toEqual(record);
    expect((await listed(t.client(bob))).find((m) => m.scheduled_message_id === id)).toBeUndefined();
    expect((await events(t.client(alice), queue.queue_id)).filter((e) => e.type === 'scheduled_messages'))
      .toEqual([{ id: expect.any(Number), type: 'scheduled_messages', op: 'add', scheduled_messages: [record] }]);
    expect(await events(t.client(bob), bobQueue.queue_id)).toEqual([]);
    // And the register response lists it.
    expect((await register(t.client(alice))).scheduled_messages).toContainEqual(record);
  });

  it('schedules a direct message; `to` lists the recipients without the sender', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId, carol.userId], content: 'group hello' });
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toMatchObject({ type: 'private', to: [bob.userId, carol.userId] });
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).not.toHaveProperty('topic');
    const self = await scheduleOk(t.client(alice), { type: 'private', to: [alice.userId], content: 'note to self' });
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === self)).toMatchObject({ to: [alice.userId] });
  });

  it('takes `(no topic)` and the empty topic\'s display name as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat', '']) {
      const id = await scheduleOk(t.client(alice), { type: 'stream', to: design, topic, content: 'x' });
      expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id).topic).toBe('');
    }
  });

  it('shows the empty topic as its display name to clients without empty_topic_name, in events and register', async () => {
    const legacy = await register(t.client(alice));
    const modern = await register(t.client(alice), { client_capabilities: { empty_topic_name: true } });
    const id = await scheduleOk(t.client(alice), { type: 'channel', to: design, topic: '', content: 'general' });
    const topicIn = async (queueId: string) => (await events(t.client(alice), queueId)).find((e) => e.type === 'scheduled_messages').scheduled_messages[0].topic;
    expect(await topicIn(legacy.queue_id)).toBe('general chat');
    expect(await topicIn(modern.queue_id)).toBe('');
    expect((await register(t.client(alice))).scheduled_messages.find((m) => m.scheduled_message_id === id).topic).toBe('general chat');
    expect((await register(t.client(alice), { client_capabilities: { empty_topic_name: true } })).scheduled_messages.find((m) => m.scheduled_message_id === id).topic).toBe('');
  });

  it('refuses a delivery time that is not in the future, and writes nothing', async () => {
    const before = await t.db.scheduledMessage.count();
    for (const when of [Math.floor(Date.now() / 1000) - 60, Math.floor(Date.now() / 1000)]) {
      const res = await schedule(t.client(alice), { type: 'channel', to: design, topic: 'a', content: 'late', scheduled_delivery_timestamp: when });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
    }
    expect(await t.db.scheduledMessage.count()).toBe(before);
  });

  it('checks the message as if sent now: missing channel, unknown user, private channel, missing topic', async () => {
    const missing = await schedule(t.client(alice), { type: 'channel', to: 999999, topic: 'a', content: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: 'error', code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '999999' does not exist", stream_id: 999999 });
    const nobody = await schedule(t.client(alice), { type: 'direct', to: [999999], content: 'x' });
    expect(nobody.status).toBe(400);
    expect(nobody.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user ID 999999' });
    const hidden = await schedule(t.client(alice), { type: 'channel', to: secret, topic: 'a', content: 'x' });
    expect(hidden.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: secret });
    const noTopic = await schedule(t.client(alice), { type: 'channel', to: design, content: 'x' });
    expect(noTopic.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Missing topic' });
    const twoChannels = await schedule(t.client(alice), { type: 'channel', to: [design, secret], topic: 'a', content: 'x' });
    expect(twoChannels.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid data type for channel ID' });
    const badType = await schedule(t.client(alice), { type: 'broadcast', to: design, topic: 'a', content: 'x' });
    expect(badType.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid type' });
    const empty = await schedule(t.client(alice), { type: 'channel', to: design, topic: 'a', content: '   ' });
    expect(empty.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Message must not be empty' });
    const missingArg = await t.client(alice).post('/scheduled_messages', { type: 'channel', to: design, topic: 'a', content: 'x' });
    expect(missingArg.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'scheduled_delivery_timestamp' });
    expect((await listed(t.client(alice))).filter((m) => m.content === 'x' && m.to === secret)).toEqual([]);
  });

  it('applies the sender\'s posting rights by role: a guest only where subscribed, anyone in DMs', async () => {
    const guest = await makeUser(t, { fullName: 'Gus Guest', role: 600 });
    const moderator = await makeUser(t, { fullName: 'Mo Derator', role: 300 });
    const refused = await schedule(t.client(guest), { type: 'channel', to: design, topic: 't', content: 'guest post' });
    expect(refused.status).toBe(400);
    // As when sending now: a guest cannot see an unsubscribed channel at all.
    expect(refused.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: design });
    expect(await listed(t.client(guest))).toEqual([]);
    expect((await schedule(t.client(guest), { type: 'direct', to: [alice.userId], content: 'guest dm' })).status).toBe(200);
    expect((await schedule(t.client(moderator), { type: 'channel', to: design, topic: 't', content: 'moderator post' })).status).toBe(200);
    expect((await schedule(t.client(t.owner), { type: 'channel', to: design, topic: 't', content: 'owner post' })).status).toBe(200);
  });

  it('needs authentication', async () => {
    const res = await t.client().get('/scheduled_messages');
    expect(res.status).toBe(401);
  });
});

describe('PATCH /scheduled_messages/{scheduled_message_id}', () => {
  it('edits content, topic and time, with an update event to the sender', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'channel', to: design, topic: 'old', content: 'draft' });
    const queue = await register(t.client(alice));
    const at = inAnHour() + 600;
    const res = await t.client(alice).patch(`/scheduled_messages/${id}`, { content: '*final*', topic: 'new', scheduled_delivery_timestamp: at });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const record = { scheduled_message_id: id, type: 'stream', to: design, topic: 'new', content: '*final*', rendered_content: '<p><em>final</em></p>', scheduled_delivery_timestamp: at, failed: false };
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toEqual(record);
    expect((await events(t.client(alice), queue.queue_id)).filter((e) => e.type === 'scheduled_messages'))
      .toEqual([{ id: expect.any(Number), type: 'scheduled_messages', op: 'update', scheduled_message: record }]);
  });

  it('changes the type only together with `to`, and to a channel only with a topic', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'dm' });
    const noTo = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'channel', topic: 'x' });
    expect(noTo.status).toBe(400);
    expect(noTo.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Recipient required when updating type of scheduled message.' });
    const noTopic = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'channel', to: design });
    expect(noTopic.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Topic required when updating scheduled message type to stream.' });
    for (const topic of ['', '(no topic)', 'general chat']) {
      const empty = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'stream', to: design, topic });
      expect(empty.body, topic).toMatchObject({ code: 'BAD_REQUEST', msg: 'Topics are required in this organization.' });
    }
    // Nothing changed so far.
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toMatchObject({ type: 'private', to: [bob.userId] });
    const ok = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'channel', to: design, topic: 'moved' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toMatchObject({ type: 'stream', to: design, topic: 'moved', content: 'dm' });
    const back = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'direct', to: [carol.userId] });
    expect(back.status).toBe(200);
    const record = (await listed(t.client(alice))).find((m) => m.scheduled_message_id === id);
    expect(record).toMatchObject({ type: 'private', to: [carol.userId] });
    expect(record).not.toHaveProperty('topic');
  });

  it('changes the recipients without a type change', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'dm' });
    expect((await t.client(alice).patch(`/scheduled_messages/${id}`, { to: [bob.userId, carol.userId] })).status).toBe(200);
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id).to).toEqual([bob.userId, carol.userId]);
  });

  it('refuses a missing channel (with stream_id), an unknown user, and a channel the sender cannot post to', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'dm' });
    const missing = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'channel', to: 987654, topic: 't' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: 'error', code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '987654' does not exist", stream_id: 987654 });
    const nobody = await t.client(alice).patch(`/scheduled_messages/${id}`, { to: [987654] });
    expect(nobody.status).toBe(400);
    expect(nobody.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid user ID 987654' });
    const hidden = await t.client(alice).patch(`/scheduled_messages/${id}`, { type: 'channel', to: secret, topic: 't' });
    expect(hidden.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: secret });
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toMatchObject({ type: 'private', to: [bob.userId] });
  });

  it('refuses a nonexistent scheduled message and someone else\'s (404 BAD_REQUEST)', async () => {
    const bobs = await scheduleOk(t.client(bob), { type: 'direct', to: [alice.userId], content: 'mine' });
    for (const id of [999999, bobs]) {
      const res = await t.client(alice).patch(`/scheduled_messages/${id}`, { content: 'hijack' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' });
    }
    expect((await listed(t.client(bob))).find((m) => m.scheduled_message_id === bobs).content).toBe('mine');
  });

  it('refuses an empty edit and a time in the past', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'dm' });
    const nothing = await t.client(alice).patch(`/scheduled_messages/${id}`, {});
    expect(nothing.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Nothing to change' });
    const past = await t.client(alice).patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: 1000 });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
  });

  it('truncates over-long content and topics to the limits, as sending does', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'channel', to: design, topic: 't', content: 'short' });
    expect((await t.client(alice).patch(`/scheduled_messages/${id}`, { content: 'a'.repeat(10_050), topic: 'b'.repeat(80) })).status).toBe(200);
    const record = (await listed(t.client(alice))).find((m) => m.scheduled_message_id === id);
    expect([...record.content].length).toBeLessThanOrEqual(10_000);
    expect(record.content.endsWith('[message truncated]')).toBe(true);
    expect(record.topic).toBe('b'.repeat(57) + '...');
    const topicOnly = await t.client(alice).patch(`/scheduled_messages/${id}`, { topic: 'c'.repeat(80) });
    expect(topicOnly.status).toBe(200);
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id).topic).toBe('c'.repeat(57) + '...');
  });

  it('needs a new delivery time for a message that failed, and clears `failed` with it', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'dm' });
    // Written directly: a failed delivery without staging one (the delivery tests below do).
    await t.db.scheduledMessage.update({ where: { id }, data: { failed: true, failureMessage: 'boom' } });
    const without = await t.client(alice).patch(`/scheduled_messages/${id}`, { content: 'again' });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toMatchObject({ content: 'dm', failed: true });
    const at = inAnHour();
    expect((await t.client(alice).patch(`/scheduled_messages/${id}`, { content: 'again', scheduled_delivery_timestamp: at })).status).toBe(200);
    expect((await listed(t.client(alice))).find((m) => m.scheduled_message_id === id)).toMatchObject({ content: 'again', failed: false, scheduled_delivery_timestamp: at });
  });
});

describe('DELETE /scheduled_messages/{scheduled_message_id}', () => {
  it('deletes the sender\'s own message with a remove event; others\' and missing ones are 404', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'to delete' });
    const bobQueue = await register(t.client(bob));
    const notMine = await t.client(bob).delete(`/scheduled_messages/${id}`);
    expect(notMine.status).toBe(404);
    expect(notMine.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' });
    expect((await listed(t.client(alice))).some((m) => m.scheduled_message_id === id)).toBe(true);
    const queue = await register(t.client(alice));
    expect((await t.client(alice).delete(`/scheduled_messages/${id}`)).status).toBe(200);
    expect((await listed(t.client(alice))).some((m) => m.scheduled_message_id === id)).toBe(false);
    expect((await events(t.client(alice), queue.queue_id)).filter((e) => e.type === 'scheduled_messages'))
      .toEqual([{ id: expect.any(Number), type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
    expect(await events(t.client(bob), bobQueue.queue_id)).toEqual([]);
    expect((await t.client(alice).delete(`/scheduled_messages/${id}`)).status).toBe(404);
  });
});

describe('delivery', () => {
  it('sends a due message as its sender, removes it from the list, and announces the removal', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'channel', to: design, topic: 'launch', content: 'It is time' });
    const dm = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'Psst' });
    const future = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'Not yet' });
    await makeDue(id);
    await makeDue(dm);
    const queue = await register(t.client(alice));
    const bobQueue = await register(t.client(bob));
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(2);

    const inChannel = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: design }, { operator: 'topic', operand: 'launch' }] });
    expect(inChannel.body.messages.map((m: any) => [m.sender_id, m.content])).toEqual([[alice.userId, '<p>It is time</p>']]);
    const direct = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'dm', operand: [alice.userId] }] });
    expect(direct.body.messages.map((m: any) => m.content)).toContain('<p>Psst</p>');
    expect(direct.body.messages.map((m: any) => m.content)).not.toContain('<p>Not yet</p>');

    const left = (await listed(t.client(alice))).map((m) => m.scheduled_message_id);
    expect(left).not.toContain(id);
    expect(left).not.toContain(dm);
    expect(left).toContain(future);
    const removals = (await events(t.client(alice), queue.queue_id)).filter((e) => e.type === 'scheduled_messages');
    expect(removals.map((e) => [e.op, e.scheduled_message_id]).sort()).toEqual([['remove', dm], ['remove', id]].sort());
    expect((await events(t.client(bob), bobQueue.queue_id)).filter((e) => e.type === 'message').map((e) => e.message.content).sort())
      .toEqual(['It is time', 'Psst']);
    const row = await t.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ delivered: true, failed: false });
    expect(row.deliveredMessageId).toBe(inChannel.body.messages[0].id);
    // Delivered once: another run finds nothing.
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(0);
    const edit = await t.client(alice).patch(`/scheduled_messages/${id}`, { content: 'too late' });
    expect(edit.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled message was already sent' });
  });

  async function expectFailure(id: number, reason: string) {
    const queue = await register(t.client(alice));
    await makeDue(id);
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(1);
    const record = (await listed(t.client(alice))).find((m) => m.scheduled_message_id === id);
    expect(record.failed).toBe(true);
    const all = await events(t.client(alice), queue.queue_id);
    expect(all.filter((e) => e.type === 'scheduled_messages')).toEqual([{ id: expect.any(Number), type: 'scheduled_messages', op: 'update', scheduled_message: record }]);
    // The notification bot tells the sender why.
    const notice = all.find((e) => e.type === 'message');
    expect(notice.message.sender_email).toBe('notification-bot@zulip.com');
    expect(notice.message.type).toBe('private');
    expect(notice.message.content).toContain('was not sent because of the following error:');
    expect(notice.message.content).toContain(reason);
    const row = await t.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ delivered: false, failed: true, failureMessage: reason, deliveredMessageId: null });
  }

  it('marks a message to an archived channel failed and tells the sender', async () => {
    const archived = await makeChannel(t.client(alice), 'soon archived');
    const id = await scheduleOk(t.client(alice), { type: 'channel', to: archived, topic: 't', content: 'into the void' });
    expect((await t.client(alice).delete(`/streams/${archived}`)).status).toBe(200);
    await expectFailure(id, "Not authorized to send to channel 'soon archived'");
  });

  it('marks a message failed when the sender lost access to the private channel', async () => {
    const priv = await makeChannel(t.client(alice), 'inner circle', { invite_only: true });
    const id = await scheduleOk(t.client(alice), { type: 'channel', to: priv, topic: 't', content: 'secret plans' });
    expect((await t.client(alice).delete('/users/me/subscriptions', { subscriptions: ['inner circle'] })).status).toBe(200);
    await expectFailure(id, `Channel with ID '${priv}' does not exist`);
  });

  it('marks a message to a deactivated user failed', async () => {
    const dora = await makeUser(t, { fullName: 'Dora Gone' });
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [dora.userId], content: 'hello?' });
    await deactivate(t, dora.userId);
    await expectFailure(id, `'${dora.email}' is no longer using Zulip.`);
  });

  it('does not send a message more than ten minutes late', async () => {
    const id = await scheduleOk(t.client(alice), { type: 'direct', to: [bob.userId], content: 'stale' });
    // Written directly: the API refuses delivery times in the past.
    await t.db.scheduledMessage.update({ where: { id }, data: { scheduledTimestamp: new Date(Date.now() - 11 * 60_000) } });
    const queue = await register(t.client(alice));
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(1);
    expect((await t.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).failureMessage).toBe('Message could not be sent at the scheduled time.');
    expect((await events(t.client(alice), queue.queue_id)).some((e) => e.type === 'message')).toBe(true);
  });

  it('fails silently for a deactivated sender: no event, no notice', async () => {
    const eve = await makeUser(t, { fullName: 'Eve Leaving' });
    const id = await scheduleOk(t.client(eve), { type: 'direct', to: [bob.userId], content: 'bye' });
    await makeDue(id);
    await deactivate(t, eve.userId);
    const bobQueue = await register(t.client(bob));
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(1);
    expect(await t.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).toMatchObject({ failed: true, delivered: false, failureMessage: 'Account is deactivated' });
    expect(await events(t.client(bob), bobQueue.queue_id)).toEqual([]);
  });
});

describe('the background worker', () => {
  it('delivers due messages by itself at its poll interval', async () => {
    const fast = await startTestServer({ scheduledPollMs: 50 });
    try {
      const sender = await makeUser(fast, { fullName: 'Quick Sender' });
      const receiver = await makeUser(fast, { fullName: 'Quick Receiver' });
      const res = await fast.client(sender).post('/scheduled_messages', { type: 'direct', to: [receiver.userId], content: 'on time', scheduled_delivery_timestamp: inAnHour() });
      const id = res.body.scheduled_message_id;
      await fast.server.database.prisma.scheduledMessage.update({ where: { id }, data: { scheduledTimestamp: new Date(Date.now() - 1000) } });
      let delivered = false;
      for (let i = 0; i < 200 && !delivered; i++) {
        delivered = (await fast.server.database.prisma.scheduledMessage.findUniqueOrThrow({ where: { id } })).delivered;
        if (!delivered) await new Promise((r) => setTimeout(r, 50));
      }
      expect(delivered).toBe(true);
      const got = await fast.client(receiver).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
      expect(got.body.messages.map((m: any) => m.content)).toEqual(['<p>on time</p>']);
    } finally {
      await fast.close();
    }
  });
});
