// GET /messages/{message_id}/history (Zulip's get_message_edit_history): every content edit and
// move as a snapshot of the message after it, oldest first, with the content diff; the
// organization's message_edit_history_visibility_policy hides content edits ("moves") or the whole
// history ("none"), here and in message records. The same through GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel, updateRealm } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, outsider } = useTeam(t, ['alice', 'bob', 'outsider'], { outsider: { fullName: 'Outsider' } });

async function setPolicy(policy: 'all' | 'moves' | 'none') {
  await updateRealm(t, { message_edit_history_visibility_policy: policy });
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'history');
  await makeChannel(t.client(alice), 'elsewhere');
  await makeChannel(t.client(alice), 'hideout', { invite_only: true });
});

/** A message sent, edited, moved to another topic, then to another channel. */
async function editedMessage(): Promise<{ id: number; elsewhere: number; history: number }> {
  const history = (await t.client(alice).get('/get_stream_id', { stream: 'history' })).body.stream_id;
  const elsewhere = (await t.client(alice).get('/get_stream_id', { stream: 'elsewhere' })).body.stream_id;
  const id = await sendToChannel(t.client(alice), 'history', 'draft', 'content before edit');
  expect((await t.client(alice).patch(`/messages/${id}`, { content: 'content after edit' })).status).toBe(200);
  expect((await t.client(alice).patch(`/messages/${id}`, { topic: 'final' })).status).toBe(200);
  expect((await t.client(alice).patch(`/messages/${id}`, { stream_id: elsewhere })).status).toBe(200);
  return { id, elsewhere, history };
}

describe('GET /messages/{message_id}/history', () => {
  it('gives the message as sent and after each edit and move, oldest first', async () => {
    await setPolicy('all');
    const { id, elsewhere, history } = await editedMessage();
    const res = await t.client(bob).get(`/messages/${id}/history`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const snapshots = res.body.message_history;
    expect(snapshots).toHaveLength(4);
    expect(snapshots[0]).toEqual({
      content: 'content before edit', rendered_content: '<p>content before edit</p>', topic: 'draft',
      timestamp: expect.any(Number), user_id: alice.userId,
    });
    expect(snapshots[1]).toEqual({
      content: 'content after edit', rendered_content: '<p>content after edit</p>', topic: 'draft',
      prev_content: 'content before edit', prev_rendered_content: '<p>content before edit</p>',
      content_html_diff: '<p>content <span class="highlight_text_inserted">after</span> <span class="highlight_text_deleted">before</span> edit</p>',
      timestamp: expect.any(Number), user_id: alice.userId,
    });
    expect(snapshots[2]).toMatchObject({ topic: 'final', prev_topic: 'draft', content: 'content after edit' });
    expect(snapshots[2]).not.toHaveProperty('prev_content');
    expect(snapshots[3]).toMatchObject({ topic: 'final', prev_stream: history, stream: elsewhere });
    expect(snapshots[3]).not.toHaveProperty('prev_topic');
    const times = snapshots.map((s: { timestamp: number }) => s.timestamp);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('is the message alone when it was never edited; direct messages have no topic', async () => {
    await setPolicy('all');
    const id = await sendDirect(t.client(alice), [bob.userId], 'just once');
    const res = await t.client(bob).get(`/messages/${id}/history`);
    expect(res.body.message_history).toEqual([
      { content: 'just once', rendered_content: '<p>just once</p>', topic: '', timestamp: expect.any(Number), user_id: alice.userId },
    ]);
  });

  it('shows the empty topic by its display name unless allow_empty_topic_name', async () => {
    await setPolicy('all');
    const id = await sendToChannel(t.client(alice), 'history', '', 'no topic yet');
    await t.client(alice).patch(`/messages/${id}`, { topic: 'named' });
    const named = (await t.client(alice).get(`/messages/${id}/history`)).body.message_history;
    expect(named[0].topic).toBe('general chat');
    expect(named[1]).toMatchObject({ topic: 'named', prev_topic: 'general chat' });
    const raw = (await t.client(alice).get(`/messages/${id}/history`, { allow_empty_topic_name: true })).body.message_history;
    expect(raw[1]).toMatchObject({ topic: 'named', prev_topic: '' });
  });

  it('with the "moves" policy leaves out content edits, here and in edit_history', async () => {
    await setPolicy('all');
    const { id } = await editedMessage();
    await setPolicy('moves');
    const snapshots = (await t.client(bob).get(`/messages/${id}/history`)).body.message_history;
    expect(snapshots).toHaveLength(3);
    for (const s of snapshots) expect(s).not.toHaveProperty('content_html_diff');
    expect(snapshots[1]).toMatchObject({ prev_topic: 'draft', topic: 'final' });
    const record = (await t.client(bob).get(`/messages/${id}`)).body.message;
    expect(record.edit_history).toHaveLength(2);
    for (const entry of record.edit_history) expect(entry).not.toHaveProperty('prev_content');
    await setPolicy('all');
    expect((await t.client(bob).get(`/messages/${id}`)).body.message.edit_history).toHaveLength(3);
  });

  it('with the "none" policy is refused, and message records carry no edit_history', async () => {
    await setPolicy('all');
    const { id } = await editedMessage();
    await setPolicy('none');
    const res = await t.client(bob).get(`/messages/${id}/history`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Message edit history is disabled in this organization' });
    const record = (await t.client(bob).get(`/messages/${id}`)).body.message;
    expect(record).not.toHaveProperty('edit_history');
    expect((await t.client(bob).get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow: [{ operator: 'channel', operand: 'elsewhere' }] })).body.messages[0]).not.toHaveProperty('edit_history');
    const register = await t.client(bob).post('/register', { fetch_event_types: ['realm'] });
    expect(register.body).toMatchObject({ realm_message_edit_history_visibility_policy: 'none', realm_allow_edit_history: false });
    await setPolicy('all');
  });

  it('answers only for messages the viewer may read', async () => {
    await setPolicy('all');
    const secret = await sendToChannel(t.client(alice), 'hideout', 'plans', 'secret');
    await t.client(alice).patch(`/messages/${secret}`, { content: 'still secret' });
    const dm = await sendDirect(t.client(alice), [bob.userId], 'between us');
    for (const id of [secret, dm, 999_999_999]) {
      const res = await t.client(outsider).get(`/messages/${id}/history`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
    expect((await t.client().get(`/messages/${dm}/history`)).status).toBe(401);
  });

  it('through GraphQL: messageHistory, with the same rules', async () => {
    await setPolicy('all');
    const { id } = await editedMessage();
    const data = await ok(t, 'query($id: Int!) { messageHistory(messageId: $id) { userId topic prevTopic content prevContent contentHtmlDiff prevStream stream } }', { id }, bob);
    expect(data.messageHistory).toHaveLength(4);
    expect(data.messageHistory[1]).toMatchObject({ prevContent: 'content before edit', content: 'content after edit', prevTopic: null });
    expect(data.messageHistory[1].contentHtmlDiff).toContain('highlight_text_inserted');
    const dm = await sendDirect(t.client(alice), [bob.userId], 'not for outsiders');
    const { error } = await fails(t, 'query($id: Int!) { messageHistory(messageId: $id) { topic } }', { id: dm }, outsider);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('Invalid message(s)');
  });
});
