// Scheduled messages, reminders and message reports through /graphql: the same rules and error
// codes as the REST endpoints, and the same events.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel, updateRealm } from '../support/factories.ts';
import { fails, ok } from './helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let design: number;
const t = useTestServer({ scheduledPollMs: 0 });
const { alice, bob } = useTeam(t, ['alice', 'bob']);

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

const CREATE = `mutation($type: String!, $to: JSON!, $topic: String, $content: String!, $at: Int!) {
  createScheduledMessage(type: $type, to: $to, topic: $topic, content: $content, scheduledDeliveryTimestamp: $at) }`;
const LIST = '{ scheduledMessages { scheduledMessageId type to topic content renderedContent scheduledDeliveryTimestamp failed } }';
const UPDATE = `mutation($id: Int!, $type: String, $to: JSON, $topic: String, $content: String, $at: Int) {
  updateScheduledMessage(scheduledMessageId: $id, type: $type, to: $to, topic: $topic, content: $content, scheduledDeliveryTimestamp: $at) }`;
const DELETE = 'mutation($id: Int!) { deleteScheduledMessage(scheduledMessageId: $id) }';
const REMIND = 'mutation($id: Int!, $at: Int!, $note: String) { createReminder(messageId: $id, scheduledDeliveryTimestamp: $at, note: $note) }';
const REMINDERS = '{ reminders { reminderId type to content renderedContent scheduledDeliveryTimestamp failed reminderTargetMessageId } }';
const DELETE_REMINDER = 'mutation($id: Int!) { deleteReminder(reminderId: $id) }';
const REPORT = 'mutation($id: Int!, $type: String!, $description: String) { reportMessage(messageId: $id, reportType: $type, description: $description) }';

beforeAll(async () => {
  design = await makeChannel(t.client(alice), 'design', { principals: [alice.userId, bob.userId] });
});

describe('scheduled messages', () => {
  it('creates, lists, edits and deletes, with events to the sender', async () => {
    const queue = (await registerQueue(t.client(alice), { event_types: ['scheduled_messages'] })).queue_id;
    const at = inAnHour();
    const { createScheduledMessage: id } = await ok(t, CREATE, { type: 'channel', to: design, topic: 'plans', content: 'hi', at }, alice);
    expect((await ok(t, LIST, {}, alice)).scheduledMessages).toEqual([
      { scheduledMessageId: id, type: 'stream', to: design, topic: 'plans', content: 'hi', renderedContent: '<p>hi</p>', scheduledDeliveryTimestamp: at, failed: false },
    ]);
    expect((await ok(t, LIST, {}, bob)).scheduledMessages).toEqual([]);
    expect((await ok(t, UPDATE, { id, type: 'direct', to: [bob.userId] }, alice)).updateScheduledMessage).toBe(true);
    expect((await ok(t, LIST, {}, alice)).scheduledMessages[0]).toMatchObject({ type: 'private', to: [bob.userId], topic: null });
    expect((await ok(t, DELETE, { id }, alice)).deleteScheduledMessage).toBe(true);
    expect((await ok(t, LIST, {}, alice)).scheduledMessages).toEqual([]);
    const events = await allEvents(t.client(alice), queue, { keepHeartbeats: true });
    expect(events.map((e: any) => e.op)).toEqual(['add', 'update', 'remove']);
  });

  it('answers the rules\' errors with Zulip\'s codes', async () => {
    const past = await fails(t, CREATE, { type: 'channel', to: design, topic: 'x', content: 'hi', at: 1000 }, alice);
    expect(past.error).toMatchObject({ message: 'Scheduled delivery time must be in the future.', extensions: { code: 'BAD_REQUEST', httpStatus: 400 } });
    const missing = await fails(t, CREATE, { type: 'channel', to: 424242, topic: 'x', content: 'hi', at: inAnHour() }, alice);
    expect(missing.error.extensions).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', zulip: { stream_id: 424242 } });
    const { createScheduledMessage: id } = await ok(t, CREATE, { type: 'direct', to: [bob.userId], content: 'hi', at: inAnHour() }, alice);
    const noTo = await fails(t, UPDATE, { id, type: 'channel', topic: 'x' }, alice);
    expect(noTo.error.message).toBe('Recipient required when updating type of scheduled message.');
    const noTopic = await fails(t, UPDATE, { id, type: 'channel', to: design }, alice);
    expect(noTopic.error.message).toBe('Topic required when updating scheduled message type to stream.');
    const emptyTopic = await fails(t, UPDATE, { id, type: 'channel', to: design, topic: '(no topic)' }, alice);
    expect(emptyTopic.error.message).toBe('Topics are required in this organization.');
    const channelGone = await fails(t, UPDATE, { id, type: 'channel', to: 424242, topic: 'x' }, alice);
    expect(channelGone.error.extensions).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', zulip: { stream_id: 424242 } });
    const nobody = await fails(t, UPDATE, { id, to: [424242] }, alice);
    expect(nobody.error).toMatchObject({ message: 'Invalid user ID 424242', extensions: { code: 'BAD_REQUEST' } });
    const notMine = await fails(t, UPDATE, { id, content: 'hijack' }, bob);
    expect(notMine.error).toMatchObject({ message: 'Scheduled message does not exist', extensions: { code: 'BAD_REQUEST', httpStatus: 404 } });
    expect((await fails(t, DELETE, { id }, bob)).error.message).toBe('Scheduled message does not exist');
    await t.db.scheduledMessage.update({ where: { id }, data: { failed: true } });
    const failed = await fails(t, UPDATE, { id, content: 'retry' }, alice);
    expect(failed.error.message).toBe('Scheduled delivery time must be in the future.');
    expect((await ok(t, UPDATE, { id, content: 'retry', at: inAnHour() }, alice)).updateScheduledMessage).toBe(true);
    expect((await ok(t, LIST, {}, alice)).scheduledMessages.find((m: any) => m.scheduledMessageId === id)).toMatchObject({ content: 'retry', failed: false });
    const anonymous = await fails(t, LIST);
    expect(anonymous.error.extensions?.code).toBe('UNAUTHORIZED');
  });
});

describe('reminders', () => {
  it('creates, lists and deletes; access to the message is required', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'remember me');
    const at = inAnHour();
    const { createReminder: id } = await ok(t, REMIND, { id: messageId, at, note: 'soon' }, alice);
    const [reminder] = (await ok(t, REMINDERS, {}, alice)).reminders;
    expect(reminder).toMatchObject({ reminderId: id, type: 'private', to: [alice.userId], scheduledDeliveryTimestamp: at, failed: false, reminderTargetMessageId: messageId });
    expect(reminder.content).toContain('You requested a reminder for the following message. Note:\n > soon');
    expect((await fails(t, DELETE_REMINDER, { id }, bob)).error).toMatchObject({ message: 'Reminder does not exist', extensions: { httpStatus: 404 } });
    expect((await ok(t, DELETE_REMINDER, { id }, alice)).deleteReminder).toBe(true);
    expect((await ok(t, REMINDERS, {}, alice)).reminders).toEqual([]);
    const hidden = await makeChannel(t.client(bob), 'bob only', { invite_only: true });
    const secret = await sendToChannel(t.client(bob), hidden, 'x', 'secret');
    expect((await fails(t, REMIND, { id: secret, at }, alice)).error).toMatchObject({ message: 'Invalid message(s)', extensions: { code: 'BAD_REQUEST' } });
    expect((await fails(t, REMIND, { id: messageId, at: 1 }, alice)).error.message).toBe('Scheduled delivery time must be in the future.');
  });
});

describe('reportMessage', () => {
  it('reports to the moderation request channel, and refuses without one', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'spammy');
    const none = await fails(t, REPORT, { id: messageId, type: 'spam' }, alice);
    expect(none.error).toMatchObject({ message: 'Message reporting is not enabled in this organization.', extensions: { code: 'BAD_REQUEST', httpStatus: 400 } });
    const moderation = await makeChannel(t.client(t.owner), 'moderation', { invite_only: true });
    await updateRealm(t, { moderation_request_channel_id: moderation });
    expect((await fails(t, REPORT, { id: messageId, type: 'other' }, alice)).error.message).toBe('An explanation is required.');
    expect((await fails(t, REPORT, { id: messageId, type: 'nonsense' }, alice)).error.message).toBe('Invalid report_type');
    expect((await ok(t, REPORT, { id: messageId, type: 'other', description: 'weird' }, alice)).reportMessage).toBe(true);
    const notice = (await t.client(t.owner).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: moderation }] })).body.messages[0];
    expect(notice.subject).toBe('Bob Builder moderation');
    expect(notice.content).toContain('**Other reason**. weird');
  });
});
