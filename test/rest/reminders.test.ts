// Message reminders: create, list, delete, the `reminders` events, and delivery by the notification
// bot as a direct message quoting the message, in Zulip's wording. zulip.yaml (feature level 378)
// predates reminders, so their responses and events are checked here field by field.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel, updateChannel } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let design: number;
let base: string;
const t = useTestServer({ scheduledPollMs: 0 });
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

beforeAll(async () => {
  design = await makeChannel(t.client(alice), 'design', { principals: [alice.userId, bob.userId] });
  base = t.server.config.externalUrl;
});

const register = (client: ApiClient) => registerQueue<{ reminders: any[] }>(client, { event_types: ['reminders', 'message'], fetch_event_types: ['reminders'] });

const events = (client: ApiClient, queueId: string) => allEvents(client, queueId, { keepHeartbeats: true });

async function remind(client: ApiClient, params: Record<string, unknown>) {
  return client.post('/reminders', { scheduled_delivery_timestamp: inAnHour(), ...params });
}

async function listed(client: ApiClient) {
  const res = await client.get('/reminders');
  expect(res.status).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['msg', 'reminders', 'result']);
  return res.body.reminders as any[];
}

function channelReminderText(messageId: number, note: string | null, quoted: string) {
  return (note ? `You requested a reminder for the following message. Note:\n > ${note}` : 'You requested a reminder for the following message.')
    + `\n\n@_**Bob Builder|${bob.userId}** [said](${base}/#narrow/channel/${design}-design/topic/plans/near/${messageId}) in #**design>plans@${messageId}**:\n`
    + '```quote\n' + quoted + '\n```';
}

describe('POST /reminders', () => {
  it('schedules a reminder about a message: listed, in register, and announced to the user only', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'Ship it on Friday');
    const queue = await register(t.client(alice));
    const bobQueue = await register(t.client(bob));
    const at = inAnHour();
    const res = await t.client(alice).post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: at, note: 'bring cake' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.reminder_id;
    expect(typeof id).toBe('number');
    const content = channelReminderText(messageId, 'bring cake', 'Ship it on Friday');
    const record = {
      reminder_id: id, type: 'private', to: [alice.userId], content, rendered_content: expect.stringContaining('<blockquote>'),
      scheduled_delivery_timestamp: at, failed: false, reminder_target_message_id: messageId,
    };
    expect((await listed(t.client(alice))).find((r) => r.reminder_id === id)).toEqual(record);
    expect(await listed(t.client(bob))).toEqual([]);
    expect(await events(t.client(alice), queue.queue_id)).toEqual([{ id: expect.any(Number), type: 'reminders', op: 'add', reminders: [record] }]);
    expect(await events(t.client(bob), bobQueue.queue_id)).toEqual([]);
    expect((await register(t.client(alice))).reminders).toContainEqual(record);
  });

  it('quotes a direct message with its participants', async () => {
    const messageId = await sendDirect(t.client(bob), [alice.userId], 'Call me');
    const id = (await remind(t.client(alice), { message_id: messageId })).body.reminder_id;
    const reminder = (await listed(t.client(alice))).find((r) => r.reminder_id === id);
    const [low, high] = [alice.userId, bob.userId].sort((a, b) => a - b);
    expect(reminder.content).toBe('You requested a reminder for the following direct message.\n\n'
      + `@_**Bob Builder|${bob.userId}** [said](${base}/#narrow/dm/${low},${high}-dm/near/${messageId}) to @_**Alice Liddell|${alice.userId}**:\n`
      + '```quote\nCall me\n```');
  });

  it('needs access to the message', async () => {
    const hidden = await makeChannel(t.client(carol), 'carol only', { invite_only: true });
    const secret = await sendToChannel(t.client(carol), hidden, 'x', 'secret');
    const private1 = await sendDirect(t.client(bob), [carol.userId], 'between us');
    const before = await t.db.scheduledMessage.count();
    for (const messageId of [secret, private1, 999999]) {
      const res = await remind(t.client(alice), { message_id: messageId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
    expect(await t.db.scheduledMessage.count()).toBe(before);
  });

  it('refuses a time that is not in the future, an over-long note, and missing arguments', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'x');
    const past = await remind(t.client(alice), { message_id: messageId, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) - 5 });
    expect(past.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
    const long = await remind(t.client(alice), { message_id: messageId, note: 'n'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Maximum reminder note length: 1000 characters' });
    expect((await remind(t.client(alice), { message_id: messageId, note: 'n'.repeat(1000) })).status).toBe(200);
    const missing = await t.client(alice).post('/reminders', { message_id: messageId });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'scheduled_delivery_timestamp' });
  });
});

describe('DELETE /reminders/{reminder_id}', () => {
  it('deletes one\'s own reminder with a remove event; others\', missing ones and scheduled messages are 404', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'x');
    const id = (await remind(t.client(alice), { message_id: messageId })).body.reminder_id;
    const notMine = await t.client(bob).delete(`/reminders/${id}`);
    expect(notMine.status).toBe(404);
    expect(notMine.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Reminder does not exist' });
    // A reminder is not a scheduled message, nor the other way round.
    expect((await t.client(alice).delete(`/scheduled_messages/${id}`)).status).toBe(404);
    const scheduled = (await t.client(alice).post('/scheduled_messages', { type: 'direct', to: [bob.userId], content: 'later', scheduled_delivery_timestamp: inAnHour() })).body.scheduled_message_id;
    expect((await t.client(alice).delete(`/reminders/${scheduled}`)).status).toBe(404);
    expect((await listed(t.client(alice))).some((r) => r.reminder_id === id)).toBe(true);

    const queue = await register(t.client(alice));
    expect((await t.client(alice).delete(`/reminders/${id}`)).status).toBe(200);
    expect((await listed(t.client(alice))).some((r) => r.reminder_id === id)).toBe(false);
    expect(await events(t.client(alice), queue.queue_id)).toEqual([{ id: expect.any(Number), type: 'reminders', op: 'remove', reminder_id: id }]);
    expect((await t.client(alice).delete(`/reminders/${id}`)).status).toBe(404);
  });
});

describe('delivery', () => {
  it('the notification bot sends the reminder to the user, and the reminder is removed', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'Review the *draft*');
    const id = (await remind(t.client(alice), { message_id: messageId, note: 'before lunch' })).body.reminder_id;
    // Written directly: the API refuses delivery times in the past.
    await t.db.scheduledMessage.update({ where: { id }, data: { scheduledTimestamp: new Date(Date.now() - 1000) } });
    const queue = await register(t.client(alice));
    const bobQueue = await register(t.client(bob));
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(1);

    const got = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false });
    const [reminder] = got.body.messages;
    expect(reminder).toMatchObject({ sender_email: 'notification-bot@zulip.com', type: 'private' });
    expect(reminder.display_recipient.map((u: any) => u.id).sort()).toEqual([alice.userId, reminder.sender_id].sort());
    expect(reminder.content).toBe(channelReminderText(messageId, 'before lunch', 'Review the *draft*'));
    expect(await listed(t.client(alice))).not.toContainEqual(expect.objectContaining({ reminder_id: id }));
    const seen = await events(t.client(alice), queue.queue_id);
    expect(seen.filter((e) => e.type === 'reminders')).toEqual([{ id: expect.any(Number), type: 'reminders', op: 'remove', reminder_id: id }]);
    expect(seen.filter((e) => e.type === 'message')).toHaveLength(1);
    expect(await events(t.client(bob), bobQueue.queue_id)).toEqual([]);
    expect(await t.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).toMatchObject({ delivered: true, deliveredMessageId: reminder.id });
  });

  it('quotes the message as it is at delivery time, or as it was when access is gone', async () => {
    const edited = await sendToChannel(t.client(bob), design, 'plans', 'first version');
    const first = (await remind(t.client(alice), { message_id: edited })).body.reminder_id;
    expect((await t.client(bob).patch(`/messages/${edited}`, { content: 'second version' })).status).toBe(200);
    const open = await makeChannel(t.client(bob), 'open house');
    const lost = await sendToChannel(t.client(bob), open, 'plans', 'public for now');
    const second = (await remind(t.client(alice), { message_id: lost })).body.reminder_id;
    const stored = (await listed(t.client(alice))).find((r) => r.reminder_id === second).content;
    await updateChannel(t.client(bob), open, { is_private: true });
    // Written directly: the API refuses delivery times in the past.
    await t.db.scheduledMessage.updateMany({ where: { id: { in: [first, second] } }, data: { scheduledTimestamp: new Date(Date.now() - 1000) } });
    expect(await t.server.scheduledDelivery.deliverDue()).toBe(2);
    const got = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 2, num_after: 0, apply_markdown: false });
    const contents = got.body.messages.map((m: any) => m.content);
    expect(contents).toContain(channelReminderText(edited, null, 'second version'));
    expect(contents).toContain(stored);
  });
});
