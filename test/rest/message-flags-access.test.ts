// Flags on messages the user never received, as Zulip's do_update_message_flags, which both
// POST /messages/flags and POST /messages/flags/narrow use: such a message reads as read and
// historical, so marking it read, unstarring or expanding it changes nothing and is not checked;
// starring, collapsing or marking it unread needs access to it by ID (has_message_access: a guest
// needs a subscription even in a web-public channel) and gives the user a historical row, and
// one inaccessible message refuses the request. Marking unread skips channels the user is not
// subscribed to.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel, updateRealm, type MadeUser } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);
const boss = useOtherRealmOwner(t, 'elsewhere');
const ids = {} as Record<'plaza' | 'lodge' | 'late' | 'vault' | 'attic' | 'foreign', number>;

const FLAGS = 'mutation($ids: [Int!]!, $op: String!, $flag: String!) { updateMessageFlags(messages: $ids, op: $op, flag: $flag) }';
const NARROW_FLAGS = `mutation($narrow: [NarrowTermInput!], $op: String!, $flag: String!) {
  updateMessageFlagsForNarrow(anchor: "newest", numBefore: 50, numAfter: 0, narrow: $narrow, op: $op, flag: $flag) { processedCount updatedCount } }`;

const flagsRest = (who: MadeUser, messages: number[], op: string, flag: string) => t.client(who).post('/messages/flags', { messages, op, flag });
const narrowRest = (who: MadeUser, channel: string, op: string, flag: string) =>
  t.client(who).post('/messages/flags/narrow', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: channel }], op, flag });
const flagsOf = async (who: MadeUser, id: number): Promise<string[]> => {
  const res = await t.client(who).get(`/messages/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return [...res.body.message.flags].sort();
};

beforeAll(async () => {
  const owner = t.ownerClient;
  await updateRealm(t, { enable_spectator_access: true });
  await makeChannel(owner, 'plaza', { is_web_public: true, principals: [alice.userId] });
  await makeChannel(owner, 'lodge', { principals: [alice.userId] });
  await makeChannel(owner, 'late', { principals: [alice.userId] });
  await makeChannel(owner, 'vault', { invite_only: true, principals: [alice.userId] });
  await makeChannel(owner, 'attic', { invite_only: true, principals: [alice.userId, bob.userId] });
  ids.plaza = await sendToChannel(t.client(alice), 'plaza', 'welcome', 'open to all');
  ids.lodge = await sendToChannel(t.client(alice), 'lodge', 'fire', 'members only');
  ids.late = await sendToChannel(t.client(alice), 'late', 'before', 'sent before carol joined');
  ids.vault = await sendToChannel(t.client(alice), 'vault', 'gold', 'hidden');
  ids.attic = await sendToChannel(t.client(alice), 'attic', 'boxes', 'bob received this');
  ids.foreign = await sendToChannel(t.client(boss, boss.host), 'general', 'abroad', 'another organization');
  expect((await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'late' }], principals: [carol.userId] })).status).toBe(200);
  expect((await t.client(bob).delete('/users/me/subscriptions', { subscriptions: ['attic'] })).status).toBe(200);
});

describe('starring, collapsing or marking unread a message not received needs access to it', () => {
  it('a guest cannot star a web-public channel\'s messages through a narrow (REST and GraphQL), nor by ID', async () => {
    const rest = await narrowRest(guest, 'plaza', 'add', 'starred');
    expect(rest.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    const graphql = await fails(t, NARROW_FLAGS, { narrow: [{ operator: 'channel', operand: 'plaza' }], op: 'add', flag: 'collapsed' }, guest);
    expect(graphql.error.message).toBe('Invalid message(s)');
    expect((await flagsRest(guest, [ids.plaza], 'add', 'starred')).body.msg).toBe('Invalid message(s)');
    // Nothing was starred: the narrow finds no starred message of theirs.
    const starred = await t.client(guest).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'is', operand: 'starred' }] });
    expect(starred.body.messages).toEqual([]);
    // A member may, through the same narrow.
    const member = await narrowRest(carol, 'plaza', 'add', 'starred');
    expect(member.body).toMatchObject({ processed_count: 1, updated_count: 1 });
    expect(await flagsOf(carol, ids.plaza)).toEqual(['historical', 'read', 'starred']);
  });

  it('collapsing and marking unread give historical rows, as starring does (REST and GraphQL)', async () => {
    expect((await flagsRest(carol, [ids.lodge], 'add', 'collapsed')).status).toBe(200);
    expect(await flagsOf(carol, ids.lodge)).toEqual(['collapsed', 'historical', 'read']);
    // Marking unread a message of a subscribed channel sent before joining it.
    expect((await ok(t, FLAGS, { ids: [ids.late], op: 'remove', flag: 'read' }, carol)).updateMessageFlags).toEqual([ids.late]);
    expect(await flagsOf(carol, ids.late)).toEqual(['historical']);
    // Another organization's message, and a private channel's, refuse the request.
    expect((await flagsRest(carol, [ids.foreign], 'add', 'collapsed')).body.msg).toBe('Invalid message(s)');
    expect((await fails(t, FLAGS, { ids: [ids.vault], op: 'add', flag: 'collapsed' }, carol)).error.message).toBe('Invalid message(s)');
  });
});

describe('marking read, unstarring or expanding a message not received is no change and not checked', () => {
  it('answers success for messages the user may not read, changing nothing (REST and GraphQL)', async () => {
    for (const [op, flag] of [['add', 'read'], ['remove', 'starred'], ['remove', 'collapsed']]) {
      const res = await flagsRest(bob, [ids.vault, ids.foreign], op!, flag!);
      expect(res.body, `${op} ${flag}`).toMatchObject({ result: 'success', messages: [ids.vault, ids.foreign] });
    }
    expect((await ok(t, FLAGS, { ids: [ids.vault], op: 'add', flag: 'read' }, guest)).updateMessageFlags).toEqual([ids.vault]);
    expect((await flagsRest(alice, [ids.vault], 'add', 'read')).status).toBe(200);
  });
});

describe('marking unread skips channels the user is not subscribed to', () => {
  it('a message received in a channel since left stays read (by ID, narrow, GraphQL)', async () => {
    expect((await flagsRest(bob, [ids.attic], 'add', 'read')).status).toBe(200);
    expect((await flagsRest(bob, [ids.attic], 'remove', 'read')).status).toBe(200);
    expect((await narrowRest(bob, 'attic', 'remove', 'read')).body).toMatchObject({ processed_count: 1, updated_count: 0 });
    await ok(t, FLAGS, { ids: [ids.attic], op: 'remove', flag: 'read' }, bob);
    const own = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: 'attic' }] });
    expect(own.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags.includes('read')])).toEqual([[ids.attic, true]]);
    // Alice, still subscribed, marks it unread.
    expect((await flagsRest(alice, [ids.attic], 'remove', 'read')).status).toBe(200);
    expect(await flagsOf(alice, ids.attic)).not.toContain('read');
  });
});

describe('flags on a message not received, from parallel requests', () => {
  it('several clients starring it at once all succeed, and it ends with one starred historical row', async () => {
    // Each request may find no row and create one; a transaction that loses the race on the key is
    // retried (resolvers/transaction.ts) and then finds the row made first.
    const fresh = await sendToChannel(t.client(alice), 'lodge', 'fire', 'nobody but alice received this');
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => flagsRest(carol, [fresh], 'add', 'starred')));
    expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 200, 200, 200, 200]);
    expect(await flagsOf(carol, fresh)).toEqual(['historical', 'read', 'starred']);
    expect(await t.db.userMessage.count({ where: { userId: carol.userId, messageId: fresh } })).toBe(1);
  });
});
