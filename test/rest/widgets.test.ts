// Widgets as Zulip makes them: a message starting with /poll or /todo carries its widget's
// definition as its first submessage (in message records and message events), and POST /submessage
// adds votes, options, tasks and edits, checked as Zulip's validate_poll_data / validate_todo_data
// do, announced by `submessage` events. The same through GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

async function record(c: ApiClient, id: number) {
  const res = await c.get(`/messages/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message;
}
const queue = async (c: ApiClient, eventTypes: string[]) => (await registerQueue(c, { event_types: eventTypes })).queue_id;
function submessage(c: ApiClient, messageId: number, content: unknown, msgType = 'widget') {
  return c.post('/submessage', { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) });
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'polls');
  await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'polls' }] });
});

describe('/poll and /todo messages', () => {
  it('a /poll message carries its question and options as a widget submessage', async () => {
    const bobQueue = await queue(t.client(bob), ['message']);
    const id = await sendToChannel(t.client(alice), 'polls', 'lunch', '/poll Where shall we eat?\n- Pizza\n* Sushi\n\n  Tacos  ');
    const message = await record(t.client(bob), id);
    expect(message.content).toContain('/poll Where shall we eat?');
    expect(message.submessages).toEqual([{ id: expect.any(Number), message_id: id, sender_id: alice.userId, msg_type: 'widget', content: expect.any(String) }]);
    expect(JSON.parse(message.submessages[0].content)).toEqual({
      widget_type: 'poll', extra_data: { question: 'Where shall we eat?', options: ['Pizza', 'Sushi', 'Tacos'] },
    });
    const [event] = await allEvents(t.client(bob), bobQueue);
    expect(event.message.submessages).toEqual(message.submessages);
  });

  it('a /todo message carries its title and tasks, a task\'s description after ": "', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'chores', '/todo Before Friday\n- Laundry: whites only\n- Dishes');
    const [widget] = (await record(t.client(alice), id)).submessages;
    expect(JSON.parse(widget.content)).toEqual({
      widget_type: 'todo',
      extra_data: { task_list_title: 'Before Friday', tasks: [{ task: 'Laundry', desc: 'whites only' }, { task: 'Dishes', desc: '' }] },
    });
  });

  it('a bare /poll has an empty question; only a first word of /poll or /todo makes a widget', async () => {
    const bare = await sendToChannel(t.client(alice), 'polls', 'lunch', '/poll');
    expect(JSON.parse((await record(t.client(alice), bare)).submessages[0].content).extra_data).toEqual({ question: '', options: [] });
    for (const content of ['/pollster question', 'see /poll here', '/Poll caps', '`/poll`']) {
      const id = await sendToChannel(t.client(alice), 'polls', 'lunch', content);
      expect((await record(t.client(alice), id)).submessages, content).toEqual([]);
    }
  });

  it('editing a widget message does not change its widget', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'lunch', '/poll Tea or coffee?');
    await t.client(alice).patch(`/messages/${id}`, { content: 'never mind' });
    expect((await record(t.client(alice), id)).submessages).toHaveLength(1);
  });
});

describe('POST /submessage', () => {
  it('adds a vote, announced to everyone who has the message, and kept in order', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'vote', '/poll Best day?\nMonday\nFriday');
    const aliceQueue = await queue(t.client(alice), ['submessage']);
    const carolQueue = await queue(t.client(carol), ['submessage']);
    const vote = { type: 'vote', key: 'canned,1', vote: 1 };
    const res = await submessage(t.client(bob), id, vote);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [event] = await allEvents(t.client(alice), aliceQueue);
    expect(event).toEqual({
      type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: expect.any(Number), sender_id: bob.userId,
      content: JSON.stringify(vote), id: 0,
    });
    // Carol is not subscribed: the event does not reach her.
    expect(await allEvents(t.client(carol), carolQueue)).toEqual([]);
    const { submessages } = await record(t.client(alice), id);
    expect(submessages.map((s: { sender_id: number }) => s.sender_id)).toEqual([alice.userId, bob.userId]);
    expect(submessages[1]).toMatchObject({ id: event.submessage_id, content: JSON.stringify(vote) });
  });

  it('keeps every one of many parallel votes', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'vote', '/poll Parallel?\nyes\nno');
    const voters = [alice, bob, alice, bob, alice, bob, alice, bob];
    const results = await Promise.all(voters.map((v, i) => submessage(t.client(v), id, { type: 'vote', key: `canned,${i % 2}`, vote: 1 })));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { submessages } = await record(t.client(alice), id);
    expect(submessages).toHaveLength(1 + voters.length);
    expect(new Set(submessages.map((s: { id: number }) => s.id)).size).toBe(submessages.length);
  });

  it('checks poll submessages as Zulip does', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'vote', '/poll Checked?');
    const refused = async (c: ApiClient, content: unknown, msg: string) => {
      const res = await submessage(c, id, content);
      expect(res.status, JSON.stringify(content)).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg });
    };
    await refused(t.client(bob), '{not json', 'Invalid json for submessage');
    await refused(t.client(bob), [1, 2], 'poll data is not a dict');
    await refused(t.client(bob), { key: 'x' }, "poll data['type'] is missing");
    await refused(t.client(bob), { type: 'vote', key: 'x', vote: 2 }, "Invalid poll data['vote']");
    await refused(t.client(bob), { type: 'vote', key: 'x' }, "poll data['vote'] is missing");
    await refused(t.client(bob), { type: 'vote', key: 'x', vote: 1, extra: true }, 'Unexpected arguments: extra');
    await refused(t.client(bob), { type: 'new_option', option: 'x', idx: 1001 }, "poll data['idx'] is not in the range 0 to 1000");
    await refused(t.client(bob), { type: 'question', question: 'Hijacked?' }, "You can't edit a question unless you are the author.");
    await refused(t.client(bob), { type: 'explode' }, 'Unknown type for poll data: explode');
    expect((await submessage(t.client(alice), id, { type: 'question', question: 'Edited?' })).status).toBe(200);
    expect((await submessage(t.client(bob), id, { type: 'new_option', option: 'Maybe', idx: 1 })).status).toBe(200);
    expect((await record(t.client(alice), id)).submessages).toHaveLength(3);
  });

  it('checks to-do submessages as Zulip does', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'chores', '/todo Chores');
    expect((await submessage(t.client(bob), id, { type: 'new_task', key: 3, task: 'Mop', desc: '', completed: false })).status).toBe(200);
    expect((await submessage(t.client(bob), id, { type: 'strike', key: `3,${bob.userId}` })).status).toBe(200);
    expect((await submessage(t.client(bob), id, { type: 'new_task_list_title', title: 'Mine now' })).body)
      .toMatchObject({ msg: "You can't edit the task list title unless you are the author." });
    expect((await submessage(t.client(bob), id, { type: 'new_task', key: 3, task: 'Mop', desc: '', completed: 'no' })).body)
      .toMatchObject({ msg: "todo data['completed'] is not a boolean" });
    expect((await submessage(t.client(alice), id, { type: 'new_task_list_title', title: 'Chores, revised' })).status).toBe(200);
  });

  it('lets only the sender start a conversation on a message that has none', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'plain', 'no widget here');
    expect((await submessage(t.client(bob), id, { anything: true })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: 'You cannot attach a submessage to this message.' });
    expect((await submessage(t.client(alice), id, { anything: true })).status).toBe(200);
    expect((await submessage(t.client(bob), id, { anything: 'else' })).status).toBe(200);
  });

  it('answers only for messages the user may read', async () => {
    const dm = await sendDirect(t.client(alice), [bob.userId], '/poll Just us?');
    expect((await submessage(t.client(carol), dm, { type: 'vote', key: 'canned,0', vote: 1 })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    expect((await submessage(t.client(bob), dm, { type: 'vote', key: 'canned,0', vote: 1 })).status).toBe(200);
    expect((await t.client().post('/submessage', { message_id: dm, msg_type: 'widget', content: '{}' })).status).toBe(401);
    expect((await t.client(bob).post('/submessage', { message_id: dm, msg_type: 'widget' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it('through GraphQL: sendSubmessage and Message.submessages', async () => {
    const id = await sendToChannel(t.client(alice), 'polls', 'gql', '/poll GraphQL?\nyes');
    const content = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    const sent = await ok(t, 'mutation($id: Int!, $c: String!) { sendSubmessage(messageId: $id, msgType: "widget", content: $c) }', { id, c: content }, bob);
    const data = await ok(t, 'query($id: Int!) { message(messageId: $id) { submessages { id messageId senderId msgType content } } }', { id }, alice);
    expect(data.message.submessages[1]).toEqual({ id: sent.sendSubmessage, messageId: id, senderId: bob.userId, msgType: 'widget', content });
    const { error } = await fails(t, 'mutation($id: Int!) { sendSubmessage(messageId: $id, msgType: "widget", content: "{") }', { id }, bob);
    expect(error.message).toBe('Invalid json for submessage');
  });
});
