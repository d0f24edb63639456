// POST /messages/{message_id}/typing (Zulip's send_message_edit_notification_backend): only who may
// edit a message's content announces editing it; `typing_edit_message` events reach whoever would
// see the edit and receives typing notifications, per queue's empty-topic capability. And GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel, updateRealm, updateSettings } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let channelId: number;
const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

const queue = async (c: ApiClient, extra: Record<string, unknown> = {}) => (await registerQueue(c, { event_types: ['typing_edit_message'], ...extra })).queue_id;

beforeAll(async () => {
  channelId = await makeChannel(t.client(alice), 'drafting');
  await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'drafting' }] });
});

describe('POST /messages/{message_id}/typing', () => {
  it('tells the channel\'s subscribers (not others) that the sender is editing', async () => {
    const id = await sendToChannel(t.client(alice), 'drafting', 'notes', 'first take');
    const bobQueue = await queue(t.client(bob), { client_capabilities: { empty_topic_name: true } });
    const carolQueue = await queue(t.client(carol));
    const res = await t.client(alice).post(`/messages/${id}/typing`, { op: 'start' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await t.client(alice).post(`/messages/${id}/typing`, { op: 'stop' });
    expect(await allEvents(t.client(bob), bobQueue)).toEqual([
      { type: 'typing_edit_message', op: 'start', sender_id: alice.userId, message_id: id, recipient: { type: 'channel', channel_id: channelId, topic: 'notes' }, id: 0 },
      { type: 'typing_edit_message', op: 'stop', sender_id: alice.userId, message_id: id, recipient: { type: 'channel', channel_id: channelId, topic: 'notes' }, id: 1 },
    ]);
    expect(await allEvents(t.client(carol), carolQueue)).toEqual([]);
  });

  it('names the empty topic as each queue can show it', async () => {
    const id = await sendToChannel(t.client(alice), 'drafting', '', 'topicless');
    const modern = await queue(t.client(bob), { client_capabilities: { empty_topic_name: true } });
    const legacy = await queue(t.client(bob));
    await t.client(alice).post(`/messages/${id}/typing`, { op: 'start' });
    expect((await allEvents(t.client(bob), modern))[0].recipient.topic).toBe('');
    expect((await allEvents(t.client(bob), legacy))[0].recipient.topic).toBe('general chat');
  });

  it('tells every participant of a direct message, listing them', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId, carol.userId], 'group draft');
    const carolQueue = await queue(t.client(carol));
    await t.client(alice).post(`/messages/${id}/typing`, { op: 'start' });
    const [event] = await allEvents(t.client(carol), carolQueue);
    expect(event).toMatchObject({ type: 'typing_edit_message', op: 'start', sender_id: alice.userId, message_id: id });
    expect(event.recipient).toEqual({ type: 'direct', user_ids: [alice.userId, bob.userId, carol.userId].sort((a, b) => a - b) });
  });

  it('skips users who turned typing notifications off', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId, carol.userId], 'quiet');
    await updateSettings(t, carol, { receives_typing_notifications: false });
    try {
      const carolQueue = await queue(t.client(carol));
      const bobQueue = await queue(t.client(bob));
      await t.client(alice).post(`/messages/${id}/typing`, { op: 'start' });
      expect(await allEvents(t.client(carol), carolQueue)).toEqual([]);
      const [event] = await allEvents(t.client(bob), bobQueue);
      expect(event.recipient.user_ids).not.toContain(carol.userId);
    } finally {
      await updateSettings(t, carol, { receives_typing_notifications: true });
    }
  });

  it('is refused to senders who turned their typing notifications off', async () => {
    const channelMessage = await sendToChannel(t.client(alice), 'drafting', 'notes', 'x');
    const direct = await sendDirect(t.client(alice), [bob.userId], 'y');
    await updateSettings(t, alice, { send_stream_typing_notifications: false, send_private_typing_notifications: false });
    try {
      expect((await t.client(alice).post(`/messages/${channelMessage}/typing`, { op: 'start' })).body)
        .toMatchObject({ code: 'BAD_REQUEST', msg: 'User has disabled typing notifications for channel messages' });
      expect((await t.client(alice).post(`/messages/${direct}/typing`, { op: 'start' })).body)
        .toMatchObject({ code: 'BAD_REQUEST', msg: 'User has disabled typing notifications for direct messages' });
    } finally {
      await updateSettings(t, alice, { send_stream_typing_notifications: true, send_private_typing_notifications: true });
    }
  });

  it('is only for messages the user may edit', async () => {
    const id = await sendToChannel(t.client(alice), 'drafting', 'notes', 'alice wrote this');
    const bobQueue = await queue(t.client(bob));
    expect((await t.client(bob).post(`/messages/${id}/typing`, { op: 'start' })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" });
    const dm = await sendDirect(t.client(alice), [bob.userId], 'not for carol');
    expect((await t.client(carol).post(`/messages/${dm}/typing`, { op: 'start' })).body).toMatchObject({ msg: 'Invalid message(s)' });
    await updateRealm(t, { message_content_edit_limit_seconds: 1 });
    // Written directly: only the database can make a message older.
    await t.db.message.update({ where: { id }, data: { dateSent: new Date(Date.now() - 60_000) } });
    try {
      expect((await t.client(alice).post(`/messages/${id}/typing`, { op: 'start' })).body)
        .toMatchObject({ msg: 'The time limit for editing this message has passed' });
    } finally {
      await updateRealm(t, { message_content_edit_limit_seconds: 600 });
    }
    expect(await allEvents(t.client(bob), bobQueue)).toEqual([]);
  });

  it('requires a valid op', async () => {
    const id = await sendToChannel(t.client(alice), 'drafting', 'notes', 'z');
    expect((await t.client(alice).post(`/messages/${id}/typing`, {})).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'op' });
    expect((await t.client(alice).post(`/messages/${id}/typing`, { op: 'maybe' })).status).toBe(400);
  });

  it('through GraphQL: setEditTypingStatus', async () => {
    const id = await sendToChannel(t.client(alice), 'drafting', 'notes', 'gql');
    const bobQueue = await queue(t.client(bob));
    expect((await ok(t, 'mutation($id: Int!) { setEditTypingStatus(messageId: $id, op: "start") }', { id }, alice)).setEditTypingStatus).toBe(true);
    expect(await allEvents(t.client(bob), bobQueue)).toHaveLength(1);
    const { error } = await fails(t, 'mutation($id: Int!) { setEditTypingStatus(messageId: $id, op: "start") }', { id }, bob);
    expect(error.message).toBe("You don't have permission to edit this message");
  });
});
