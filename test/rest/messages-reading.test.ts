// Reading aids for messages: read receipts (GET /messages/{message_id}/read_receipts), Markdown
// previews (POST /messages/render) and live narrow checks (GET /messages/matches_narrow), each as
// Zulip's views answer them, and the same through GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeOtherRealmOwner, makeUser, sendDirect, sendToChannel, updateRealm, updateSettings } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol, dave } = useTeam(t, ['alice', 'bob', 'carol', 'dave'], { bob: { fullName: 'Bob' }, dave: { fullName: 'Dave' } });

async function markRead(c: ApiClient, ids: number[]) {
  const res = await c.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'reading');
  for (const u of [bob, carol, dave]) await t.client(u).post('/users/me/subscriptions', { subscriptions: [{ name: 'reading' }] });
  await makeChannel(t.client(alice), 'sanctum', { invite_only: true });
});

describe('GET /messages/{message_id}/read_receipts', () => {
  it('lists who has read the message, never its sender', async () => {
    const id = await sendToChannel(t.client(alice), 'reading', 'receipts', 'did you read this?');
    await markRead(t.client(bob), [id]);
    await markRead(t.client(dave), [id]);
    const res = await t.client(carol).get(`/messages/${id}/read_receipts`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user_ids).toEqual([bob.userId, dave.userId].sort((a, b) => a - b));
    // Marking it unread again withdraws the receipt.
    await t.client(dave).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    expect((await t.client(alice).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([bob.userId]);
  });

  it('leaves out users who turned send_read_receipts off, and deactivated users', async () => {
    const erin = await makeUser(t, { fullName: 'Erin' });
    const frank = await makeUser(t, { fullName: 'Frank' });
    const id = await sendDirect(t.client(alice), [bob.userId, erin.userId, frank.userId], 'group chat');
    await markRead(t.client(bob), [id]);
    await markRead(t.client(erin), [id]);
    await markRead(t.client(frank), [id]);
    await updateSettings(t, erin, { send_read_receipts: false });
    expect((await t.client(t.owner).delete(`/users/${frank.userId}`)).status).toBe(200);
    expect((await t.client(alice).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([bob.userId]);
    await updateSettings(t, erin, { send_read_receipts: true });
    expect((await t.client(alice).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([bob.userId, erin.userId].sort((a, b) => a - b));
  });

  it('leaves out users the viewer muted and users who muted the viewer', async () => {
    const gina = await makeUser(t, { fullName: 'Gina' });
    const hank = await makeUser(t, { fullName: 'Hank' });
    const id = await sendDirect(t.client(alice), [bob.userId, gina.userId, hank.userId], 'who read this?');
    for (const u of [bob, gina, hank]) await markRead(t.client(u), [id]);
    expect((await t.client(bob).post(`/users/me/muted_users/${gina.userId}`)).status).toBe(200);
    expect((await t.client(hank).post(`/users/me/muted_users/${bob.userId}`)).status).toBe(200);
    // Bob sees neither the user he muted nor the one who muted him; Alice sees everyone.
    expect((await t.client(bob).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([bob.userId]);
    expect((await t.client(alice).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([bob.userId, gina.userId, hank.userId].sort((a, b) => a - b));
    await t.client(bob).delete(`/users/me/muted_users/${gina.userId}`);
    expect((await t.client(bob).get(`/messages/${id}/read_receipts`)).body.user_ids).toEqual([bob.userId, gina.userId].sort((a, b) => a - b));
  });

  it('is refused when the organization turned read receipts off', async () => {
    const id = await sendToChannel(t.client(alice), 'reading', 'receipts', 'off?');
    await updateRealm(t, { enable_read_receipts: false });
    try {
      const res = await t.client(bob).get(`/messages/${id}/read_receipts`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Read receipts are disabled in this organization.' });
      expect((await t.client(bob).post('/register', { fetch_event_types: ['realm'] })).body.realm_enable_read_receipts).toBe(false);
    } finally {
      await updateRealm(t, { enable_read_receipts: true });
    }
    expect((await t.client(bob).post('/register', { fetch_event_types: ['realm'] })).body.realm_enable_read_receipts).toBe(true);
  });

  it('answers only for messages the viewer may read', async () => {
    const secret = await sendToChannel(t.client(alice), 'sanctum', 'x', 'hidden');
    const dm = await sendDirect(t.client(alice), [bob.userId], 'private');
    for (const id of [secret, dm, 2_000_000_000]) {
      const res = await t.client(carol).get(`/messages/${id}/read_receipts`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
  });

  it('through GraphQL: readReceipts', async () => {
    const id = await sendToChannel(t.client(alice), 'reading', 'receipts', 'graphql');
    await markRead(t.client(carol), [id]);
    expect((await ok(t, 'query($id: Int!) { readReceipts(messageId: $id) }', { id }, bob)).readReceipts).toEqual([carol.userId]);
  });
});

describe('POST /messages/render', () => {
  it('renders Markdown as a message would be, with mentions of the organization', async () => {
    const res = await t.client(alice).post('/messages/render', { content: '**bold** @**Bob** #**reading**' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rendered).toContain('<strong>bold</strong>');
    expect(res.body.rendered).toContain(`data-user-id="${bob.userId}"`);
    expect(res.body.rendered).toContain('class="stream"');
  });

  it('requires content and credentials; sends nothing', async () => {
    expect((await t.client(alice).post('/messages/render', {})).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
    expect((await t.client().post('/messages/render', { content: 'x' })).status).toBe(401);
    const before = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
    await t.client(alice).post('/messages/render', { content: 'not a message' });
    const after = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
    expect(after.body.messages.map((m: { id: number }) => m.id)).toEqual(before.body.messages.map((m: { id: number }) => m.id));
  });

  it('does not resolve mentions of another organization\'s users', async () => {
    const other = await makeOtherRealmOwner(t, 'rendering');
    const res = await t.client(other, other.host).post('/messages/render', { content: '@**Bob**' });
    expect(res.body.rendered).not.toContain('data-user-id');
  });

  it('through GraphQL: renderMessage', async () => {
    expect((await ok(t, 'query { renderMessage(content: "*hi*") }', {}, alice)).renderMessage).toBe('<p><em>hi</em></p>');
  });
});

describe('GET /messages/matches_narrow', () => {
  it('answers which received messages match, with search highlighting', async () => {
    const match = await sendToChannel(t.client(alice), 'reading', 'kitchen', 'the fridge is broken');
    const other = await sendToChannel(t.client(alice), 'reading', 'kitchen', 'lunch is ready');
    const res = await t.client(bob).get('/messages/matches_narrow', {
      msg_ids: [match, other], narrow: [{ operator: 'search', operand: 'fridge' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.messages)).toEqual([String(match)]);
    expect(res.body.messages[match].match_content).toBe('<p>the <span class="highlight">fridge</span> is broken</p>');
    expect(res.body.messages[match].match_subject).toBe('kitchen');
  });

  it('without a search gives the rendered content and the escaped topic', async () => {
    const id = await sendToChannel(t.client(alice), 'reading', 'a < b', 'see https://example.com');
    const res = await t.client(bob).get('/messages/matches_narrow', { msg_ids: [id], narrow: [{ operator: 'has', operand: 'link' }] });
    expect(res.body.messages[id].match_subject).toBe('a &lt; b');
    expect(res.body.messages[id].match_content).toContain('<a href="https://example.com"');
    const none = await t.client(bob).get('/messages/matches_narrow', { msg_ids: [id], narrow: [{ operator: 'is', operand: 'starred' }] });
    expect(none.body.messages).toEqual({});
  });

  it('ignores messages the viewer did not receive, even readable ones', async () => {
    const secret = await sendToChannel(t.client(alice), 'sanctum', 'x', 'hidden words');
    const dm = await sendDirect(t.client(alice), [bob.userId], 'hidden words');
    const res = await t.client(carol).get('/messages/matches_narrow', { msg_ids: [secret, dm], narrow: [] });
    expect(res.status).toBe(200);
    expect(res.body.messages).toEqual({});
  });

  it('requires both parameters and a valid narrow', async () => {
    expect((await t.client(bob).get('/messages/matches_narrow', { narrow: [] })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'msg_ids' });
    expect((await t.client(bob).get('/messages/matches_narrow', { msg_ids: [1] })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'narrow' });
    const bad = await t.client(bob).get('/messages/matches_narrow', { msg_ids: [1], narrow: [{ operator: 'channel', operand: 'no-such-sanctum' }] });
    expect(bad.body).toMatchObject({ code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel no-such-sanctum' });
    // A private channel Bob is not in is no error (Zulip's by_channel checks no access): he received nothing there.
    const hidden = await sendToChannel(t.client(alice), 'sanctum', 'x', 'still hidden');
    const priv = await t.client(bob).get('/messages/matches_narrow', { msg_ids: [hidden], narrow: [{ operator: 'channel', operand: 'sanctum' }] });
    expect(priv.body).toMatchObject({ result: 'success', messages: {} });
  });

  it('through GraphQL: messagesMatchingNarrow', async () => {
    const id = await sendToChannel(t.client(alice), 'reading', 'graph', 'matching words');
    const data = await ok(t, 'query($ids: [Int!]!) { messagesMatchingNarrow(msgIds: $ids, narrow: [{operator: "topic", operand: "graph"}]) { messageId matchSubject } }', { ids: [id] }, bob);
    expect(data.messagesMatchingNarrow).toEqual([{ messageId: id, matchSubject: 'graph' }]);
    const { error } = await fails(t, 'query { messagesMatchingNarrow(msgIds: [1], narrow: [{operator: "bogus", operand: "x"}]) { messageId } }', {}, bob);
    // Zulip's BadNarrowOperatorError.
    expect(error.extensions?.code).toBe('BAD_NARROW');
  });
});
