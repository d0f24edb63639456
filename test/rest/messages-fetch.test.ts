import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel, type MadeUser } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

// With Gravatar enabled, so that client_gravatar leaves default avatars to the client (test/rest/avatars.test.ts: without).
const t = useTestServer({ gravatarEnabled: true });
const owner = t.ownerClient;
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);
const ids: Record<string, number> = {};

const channelNarrow = (name: string, topic?: string) => [
  { operator: 'channel', operand: name },
  ...(topic !== undefined ? [{ operator: 'topic', operand: topic }] : []),
];

beforeAll(async () => {
  await makeChannel(t.client(alice), 'design', { principals: [alice.userId, bob.userId] });
  await makeChannel(t.client(alice), 'vault', { invite_only: true });
  ids.d1 = await sendToChannel(t.client(alice), 'design', 'colors', 'red is a colour');
  ids.d2 = await sendToChannel(t.client(alice), 'design', 'colors', 'blue https://example.com/page');
  ids.d3 = await sendToChannel(t.client(alice), 'design', 'fonts', 'serif or sans? @**Bob Builder**');
  ids.g1 = await sendToChannel(t.client(bob), 'general', 'lunch', 'pizza today');
  ids.v1 = await sendToChannel(t.client(alice), 'vault', 'plans', 'the secret plan involves pizza');
  ids.dm1 = await sendDirect(t.client(alice), [bob.userId], 'hello bob');
  ids.dm2 = await sendDirect(t.client(bob), [alice.userId, carol.userId], 'group hello');
  ids.d4 = await sendToChannel(t.client(bob), 'design', 'colors', 'green with ![img](https://example.com/a.png)');
  ids.g2 = await sendToChannel(t.client(carol), 'general', 'lunch', 'pasta tomorrow');
});

const idsOf = (res: { body: { messages: { id: number }[] } }) => res.body.messages.map((m) => m.id);

/** The newest 50 messages of a narrow, through REST and through GraphQL. */
const NARROW_QUERY = 'query($narrow: [NarrowTermInput!]) { messages(anchor: "newest", numBefore: 50, numAfter: 0, narrow: $narrow) { messages { id flags } } }';
const byNarrow = (who: MadeUser, narrow: object[]) => t.client(who).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow });
const graphqlIds = async (who: MadeUser, narrow: object[]) =>
  (await ok(t, NARROW_QUERY, { narrow }, who)).messages.messages.map((m: { id: number }) => m.id);

describe('GET /messages parameters', () => {
  it('requires anchor unless use_first_unread_anchor', async () => {
    const res = await t.client(alice).get('/messages', { num_before: 1, num_after: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'anchor' argument" });
  });

  it('requires num_before and num_after', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_after: 0 });
    expect(res.body.msg).toBe("Missing 'num_before' argument");
    const res2 = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 0 });
    expect(res2.body.msg).toBe("Missing 'num_after' argument");
  });

  it('refuses more than 5000 messages', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Too many messages requested (maximum 5000).');
  });

  it('refuses an anchor that is not a number or keyword', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'soonest', num_before: 1, num_after: 1 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Invalid anchor');
  });

  it('refuses non-integer counts and malformed narrows', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 'many', num_after: 0 });
    expect(res.body.msg).toBe('num_before is not an integer');
    const bad = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '{not json' });
    expect(bad.body.msg).toBe('Argument "narrow" is not valid JSON.');
    const op = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'colour', operand: 'red' }] });
    expect(op.body.msg).toBe('Invalid narrow operator: unknown operator colour');
  });

  it('refuses message_ids combined with anchor parameters', async () => {
    const res = await t.client(alice).get('/messages', { message_ids: [ids.d1], anchor: 'newest' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Unsupported parameter combination: anchor, message_ids');
  });
});

describe('GET /messages anchors', () => {
  it('newest: the last messages of the user\'s history, found_newest', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 3, num_after: 0 });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([ids.dm2, ids.d4, ids.g2]);
    expect(res.body).toMatchObject({ found_newest: true, found_oldest: false, found_anchor: false, history_limited: false });
    expect(res.body.anchor).toBe(10000000000000000);
  });

  it('oldest: the first messages, found_oldest', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'oldest', num_before: 0, num_after: 2, narrow: channelNarrow('design') });
    expect(idsOf(res)).toEqual([ids.d1, ids.d2]);
    expect(res.body.found_oldest).toBe(true);
    expect(res.body.found_newest).toBe(false);
  });

  it('a message ID: messages on both sides, the anchor included by default', async () => {
    const res = await t.client(alice).get('/messages', { anchor: ids.d2, num_before: 1, num_after: 1, narrow: channelNarrow('design') });
    expect(idsOf(res)).toEqual([ids.d1, ids.d2, ids.d3]);
    expect(res.body.found_anchor).toBe(true);
    expect(res.body.anchor).toBe(ids.d2);
  });

  it('include_anchor=false leaves the anchor out', async () => {
    const res = await t.client(alice).get('/messages', { anchor: ids.d2, num_before: 1, num_after: 1, include_anchor: false, narrow: channelNarrow('design') });
    expect(idsOf(res)).toEqual([ids.d1, ids.d3]);
    expect(res.body.found_anchor).toBe(false);
  });

  it('an anchor that does not match the narrow is not found', async () => {
    const res = await t.client(alice).get('/messages', { anchor: ids.g1, num_before: 1, num_after: 1, narrow: channelNarrow('design') });
    expect(res.body.found_anchor).toBe(false);
    expect(idsOf(res)).toEqual([ids.d3, ids.d4]);
  });

  it('num_before=0 and num_after=0 fetch just the anchor', async () => {
    const res = await t.client(alice).get('/messages', { anchor: ids.d3, num_before: 0, num_after: 0 });
    expect(idsOf(res)).toEqual([ids.d3]);
    expect(res.body.found_anchor).toBe(true);
  });

  it('first_unread: the oldest unread message in the narrow', async () => {
    const res = await t.client(bob).get('/messages', { anchor: 'first_unread', num_before: 0, num_after: 0, narrow: channelNarrow('design') });
    expect(idsOf(res)).toEqual([ids.d1]);
    expect(res.body.anchor).toBe(ids.d1);
  });

  it('first_unread with nothing unread behaves like newest', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'first_unread', num_before: 1, num_after: 1, narrow: [{ operator: 'sender', operand: alice.userId }] });
    expect(res.body.anchor).toBe(10000000000000000);
    expect(res.body.found_newest).toBe(true);
    expect(idsOf(res)).toEqual([ids.dm1]);
  });

  it('use_first_unread_anchor (deprecated) still works', async () => {
    const res = await t.client(bob).get('/messages', { use_first_unread_anchor: true, num_before: 0, num_after: 1, narrow: channelNarrow('design') });
    expect(res.body.anchor).toBe(ids.d1);
  });

  it('date: the first message on or after the date, else newest', async () => {
    const past = await t.client(alice).get('/messages', { anchor: 'date', anchor_date: '2000-01-01', num_before: 0, num_after: 1, narrow: channelNarrow('design') });
    // The anchor itself plus num_after messages after it.
    expect(idsOf(past)).toEqual([ids.d1, ids.d2]);
    expect(past.body.anchor).toBe(ids.d1);
    const future = await t.client(alice).get('/messages', { anchor: 'date', anchor_date: '2999-01-01T10:00:00', num_before: 1, num_after: 0, narrow: channelNarrow('design') });
    expect(future.body.anchor).toBe(10000000000000000);
    expect(idsOf(future)).toEqual([ids.d4]);
    const missing = await t.client(alice).get('/messages', { anchor: 'date', num_before: 1, num_after: 0 });
    expect(missing.body.msg).toBe("Missing 'anchor_date' argument");
    const invalid = await t.client(alice).get('/messages', { anchor: 'date', anchor_date: 'yesterday', num_before: 1, num_after: 0 });
    expect(invalid.status).toBe(400);
  });
});

describe('GET /messages narrows', () => {
  it('channel + topic (case-insensitive), by name or ID', async () => {
    const byName = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: channelNarrow('design', 'COLORS') });
    expect(idsOf(byName)).toEqual([ids.d1, ids.d2, ids.d4]);
    const designId = (await t.client(bob).get('/get_stream_id', { stream: 'design' })).body.stream_id;
    const byId = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: designId }] });
    expect(idsOf(byId)).toEqual([ids.d1, ids.d2, ids.d3, ids.d4]);
  });

  it('accepts legacy [operator, operand] pairs and the `stream` alias', async () => {
    const res = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['stream', 'design'], ['topic', 'fonts']] });
    expect(idsOf(res)).toEqual([ids.d3]);
  });

  it('channel history is readable by non-subscribers of a public channel (historical)', async () => {
    const res = await t.client(carol).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: channelNarrow('design') });
    expect(idsOf(res)).toEqual([ids.d1, ids.d2, ids.d3, ids.d4]);
    expect(res.body.messages[0].flags).toEqual(['read', 'historical']);
  });

  it('without a channel operator, searches only the user\'s own history', async () => {
    const res = await t.client(carol).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 });
    // Carol was subscribed to general (default) and is in the group DM; not in design.
    expect(idsOf(res)).toEqual([ids.g1, ids.dm2, ids.g2]);
  });

  it('dm: a conversation by user IDs or emails, including oneself', async () => {
    const one = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'dm', operand: [bob.userId] }] });
    expect(idsOf(one)).toEqual([ids.dm1]);
    const group = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'dm', operand: [bob.email, carol.email] }] });
    expect(idsOf(group)).toEqual([ids.dm2]);
    const legacy = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['pm-with', bob.email]] });
    expect(idsOf(legacy)).toEqual([ids.dm1]);
  });

  it('dm-including: every conversation with that user', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'dm-including', operand: bob.userId }] });
    expect(idsOf(res)).toEqual([ids.dm1, ids.dm2]);
  });

  it('a third party sees none of a conversation', async () => {
    const res = await t.client(guest).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'dm-including', operand: alice.userId }] });
    expect(idsOf(res)).toEqual([]);
    const ids1 = await t.client(guest).get('/messages', { message_ids: [ids.dm1, ids.dm2] });
    expect(idsOf(ids1)).toEqual([]);
  });

  it('sender, by ID, email or "me"', async () => {
    const byId = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'sender', operand: bob.userId }] });
    expect(idsOf(byId)).toEqual([ids.g1, ids.dm2, ids.d4]);
    const me = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'sender', operand: 'me' }] });
    expect(idsOf(me)).toEqual([ids.g1, ids.dm2, ids.d4]);
  });

  it('is:dm, is:mentioned, is:unread, is:starred', async () => {
    const dm = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] });
    expect(idsOf(dm)).toEqual([ids.dm1, ids.dm2]);
    const mentioned = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'mentioned' }] });
    expect(idsOf(mentioned)).toEqual([ids.d3]);
    await t.client(bob).post('/messages/flags', { messages: [ids.dm1], op: 'add', flag: 'read' });
    const unread = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }, { operator: 'is', operand: 'dm' }] });
    expect(idsOf(unread)).toEqual([]);
    await t.client(bob).post('/messages/flags', { messages: [ids.d2], op: 'add', flag: 'starred' });
    const starred = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'starred' }] });
    expect(idsOf(starred)).toEqual([ids.d2]);
  });

  it('an is: term other than is:resolved, negated or not, limits a channel narrow to messages the viewer received', async () => {
    const fetch = (who: MadeUser, ...terms: object[]) =>
      t.client(who).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [...channelNarrow('design'), ...terms] });
    // Carol is not subscribed to the public channel: she reads its history, but received none of it.
    expect(idsOf(await fetch(carol))).toEqual([ids.d1, ids.d2, ids.d3, ids.d4]);
    for (const operand of ['starred', 'mentioned', 'unread', 'alerted', 'dm', 'followed']) {
      expect(idsOf(await fetch(carol, { operator: 'is', operand, negated: true })), operand).toEqual([]);
    }
    // Bob received every one of them; the mention of him is the one a negated is:mentioned leaves out.
    expect(idsOf(await fetch(bob, { operator: 'is', operand: 'mentioned', negated: true }))).toEqual([ids.d1, ids.d2, ids.d4]);
    expect(idsOf(await fetch(bob, { operator: 'is', operand: 'mentioned' }))).toEqual([ids.d3]);
  });

  it('is:followed and is:muted follow the viewer\'s topic visibility policies', async () => {
    const design = (await t.client(bob).get('/get_stream_id', { stream: 'design' })).body.stream_id;
    const policy = (topic: string, visibility_policy: number) => t.client(bob).post('/user_topics', { stream_id: design, topic, visibility_policy });
    const fetch = (operand: string) => t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand }] });
    expect((await policy('colors', 3)).status).toBe(200);
    expect((await policy('fonts', 1)).status).toBe(200);
    // Bob started "lunch", so he follows it (automatically_follow_topics_policy's default).
    try {
      expect(idsOf(await fetch('followed'))).toEqual([ids.d1, ids.d2, ids.g1, ids.d4, ids.g2]);
      expect(idsOf(await fetch('muted'))).toEqual([ids.d3]);
    } finally {
      await policy('colors', 0);
      await policy('fonts', 0);
    }
    expect(idsOf(await fetch('followed'))).toEqual([ids.g1, ids.g2]);
  });

  it('is:resolved finds topics marked resolved, in channel history too', async () => {
    const id = await sendToChannel(t.client(alice), 'design', '✔ done', 'resolved topic');
    const narrow = [...channelNarrow('design'), { operator: 'is', operand: 'resolved' }];
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect(idsOf(res)).toEqual([id]);
    const history = await t.client(carol).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect(idsOf(history)).toEqual([id]);
  });

  it('has:link, has:image', async () => {
    const link = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [...channelNarrow('design'), { operator: 'has', operand: 'link' }] });
    expect(idsOf(link)).toEqual([ids.d2, ids.d4]);
    const image = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [...channelNarrow('design'), { operator: 'has', operand: 'image' }] });
    expect(idsOf(image)).toEqual([ids.d4]);
    const bad = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'has', operand: 'cake' }] });
    expect(bad.status).toBe(400);
  });

  it('id and near', async () => {
    const byId = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'id', operand: ids.d3 }] });
    expect(idsOf(byId)).toEqual([ids.d3]);
    const near = await t.client(alice).get('/messages', { anchor: ids.d2, num_before: 1, num_after: 1, narrow: [...channelNarrow('design'), { operator: 'near', operand: ids.d2 }] });
    expect(idsOf(near)).toEqual([ids.d1, ids.d2, ids.d3]);
  });

  it('negated terms exclude', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [...channelNarrow('design'), { operator: 'topic', operand: 'colors', negated: true }] });
    expect(idsOf(res)).toEqual([ids.d3, expect.any(Number)].slice(0, idsOf(res).length));
    expect(idsOf(res)).not.toContain(ids.d1);
  });

  it('channels:public searches every public channel but no private one', async () => {
    const res = await t.client(carol).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'channels', operand: 'public' }, { operator: 'search', operand: 'pizza' }] });
    expect(idsOf(res)).toEqual([ids.g1]);
  });

  it('search: full-text with highlighted matches', async () => {
    const res = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'search', operand: 'pizza' }] });
    expect(idsOf(res)).toEqual([ids.g1, ids.v1]);
    expect(res.body.messages[0].match_content).toContain('<span class="highlight">pizza</span>');
    expect(res.body.messages[0].match_subject).toBe('lunch');
    const stem = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'search', operand: 'colours' }] });
    expect(idsOf(stem)).toEqual([ids.d1]);
  });

  it('search does not reach private channels the user cannot read', async () => {
    const res = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'search', operand: 'secret' }] });
    expect(idsOf(res)).toEqual([]);
  });
});

describe('GET /messages: an id term reaches only messages the viewer received', () => {
  // Zulip's ok_to_include_history looks only at channel terms (and channels:public): `id` alone
  // keeps to the viewer's UserMessage rows; a message link (channel + id) reaches the channel's history.

  it('alone, finds a public-channel message only for a viewer who received it; with a readable channel term, in its history', async () => {
    // Carol is not subscribed to design: she may read its history but received none of it.
    expect(idsOf(await byNarrow(carol, [{ operator: 'id', operand: ids.d3 }]))).toEqual([]);
    expect(await graphqlIds(carol, [{ operator: 'id', operand: ids.d3 }])).toEqual([]);
    expect(idsOf(await byNarrow(carol, [{ operator: 'id', operand: String(ids.d1) }, { operator: 'topic', operand: 'colors' }]))).toEqual([]);
    expect(idsOf(await byNarrow(bob, [{ operator: 'id', operand: ids.d3 }]))).toEqual([ids.d3]);
    // A message she received is found by ID alone.
    expect(idsOf(await byNarrow(carol, [{ operator: 'id', operand: ids.g1 }]))).toEqual([ids.g1]);
    // With a channel term she may read (a message link), the channel's history.
    const link = await byNarrow(carol, [...channelNarrow('design', 'fonts'), { operator: 'near', operand: String(ids.d3) }, { operator: 'id', operand: ids.d3 }]);
    expect(idsOf(link)).toEqual([ids.d3]);
    expect(link.body.messages[0].flags).toEqual(['read', 'historical']);
    expect(await graphqlIds(carol, [{ operator: 'channel', operand: 'design' }, { operator: 'id', operand: ids.d3 }])).toEqual([ids.d3]);
    expect(idsOf(await byNarrow(carol, [{ operator: 'channels', operand: 'public' }, { operator: 'id', operand: ids.d3 }]))).toEqual([ids.d3]);
  });

  it('never reaches a message the viewer may not read, nor widens a negated channel term', async () => {
    expect(idsOf(await byNarrow(carol, [{ operator: 'id', operand: ids.v1 }]))).toEqual([]);
    expect(idsOf(await byNarrow(carol, [...channelNarrow('vault'), { operator: 'id', operand: ids.v1 }]))).toEqual([]);
    expect(idsOf(await byNarrow(guest, [...channelNarrow('design'), { operator: 'id', operand: ids.d3 }]))).toEqual([]);
    expect(idsOf(await byNarrow(carol, [{ operator: 'channel', operand: 'general', negated: true }, { operator: 'id', operand: ids.d3 }]))).toEqual([]);
    // message_ids with an id term and no channel term: only what she received, too.
    expect(idsOf(await t.client(carol).get('/messages', { message_ids: [ids.d3, ids.g1], narrow: [{ operator: 'id', operand: ids.d3 }] }))).toEqual([]);
  });
});

describe('GET /messages: a channel narrow to a channel the viewer may not read', () => {
  // Zulip's NarrowBuilder.by_channel finds the channel with get_stream_by_narrow_operand_access_unchecked
  // ("you can see your own message history for private channels you are no longer subscribed to"),
  // and ok_to_include_history keeps such a narrow to the viewer's UserMessage rows: 200, no error.

  it('a private channel the viewer is not in: success and no message, by name or ID', async () => {
    const vaultId = (await t.client(alice).get('/get_stream_id', { stream: 'vault' })).body.stream_id;
    for (const narrow of [channelNarrow('vault'), [{ operator: 'channel', operand: vaultId }], [...channelNarrow('vault'), { operator: 'search', operand: 'pizza' }]]) {
      const res = await byNarrow(bob, narrow);
      expect(res.status, JSON.stringify(narrow)).toBe(200);
      expect(idsOf(res)).toEqual([]);
      expect(await graphqlIds(bob, narrow)).toEqual([]);
    }
    expect(idsOf(await byNarrow(bob, [{ operator: 'channels', operand: 'public' }, ...channelNarrow('vault')]))).toEqual([]);
  });

  it('a private channel the viewer left: only what they received while in it', async () => {
    await makeChannel(t.client(alice), 'cellar', { invite_only: true, history_public_to_subscribers: true, principals: [alice.userId] });
    const beforeCarol = await sendToChannel(t.client(alice), 'cellar', 'wine', 'before carol');
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'cellar' }], principals: [carol.userId] });
    const received = await sendToChannel(t.client(alice), 'cellar', 'wine', 'for carol');
    expect((await t.client(carol).delete('/users/me/subscriptions', { subscriptions: ['cellar'] })).status).toBe(200);
    const afterCarol = await sendToChannel(t.client(alice), 'cellar', 'wine', 'after carol left');
    const cellarId = (await t.client(alice).get('/get_stream_id', { stream: 'cellar' })).body.stream_id;

    const res = await byNarrow(carol, channelNarrow('cellar', 'wine'));
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([received]);
    expect(res.body.messages[0].flags).not.toContain('historical');
    expect(await graphqlIds(carol, [{ operator: 'channel', operand: cellarId }])).toEqual([received]);
    expect(idsOf(await byNarrow(carol, [...channelNarrow('cellar'), { operator: 'is', operand: 'starred', negated: true }]))).toEqual([received]);
    expect(idsOf(await byNarrow(carol, [{ operator: 'channels', operand: 'public' }, ...channelNarrow('cellar')]))).toEqual([]);
    expect(idsOf(await byNarrow(carol, [...channelNarrow('cellar'), { operator: 'search', operand: 'carol' }]))).toEqual([received]);
    // Negated, it excludes the channel from her own history and reaches nothing else.
    const negated = await byNarrow(carol, [{ operator: 'channel', operand: 'cellar', negated: true }]);
    expect(idsOf(negated)).not.toContain(received);
    expect(idsOf(negated)).not.toContain(beforeCarol);
    expect(idsOf(negated)).not.toContain(afterCarol);
    expect(idsOf(negated)).not.toContain(ids.d1);
    expect(idsOf(negated)).toContain(ids.g2);
    // An anchor on a message she may not read finds nothing around it either.
    const anchored = await t.client(carol).get('/messages', { anchor: beforeCarol, num_before: 5, num_after: 5, narrow: channelNarrow('cellar') });
    expect(anchored.body).toMatchObject({ found_anchor: false });
    expect(idsOf(anchored)).toEqual([received]);
  });

  it('a public channel for a guest who left it: only what they received', async () => {
    await makeChannel(t.client(alice), 'porch', { principals: [alice.userId, guest.userId] });
    const received = await sendToChannel(t.client(alice), 'porch', 'chairs', 'for the guest');
    expect((await t.client(guest).delete('/users/me/subscriptions', { subscriptions: ['porch'] })).status).toBe(200);
    const later = await sendToChannel(t.client(alice), 'porch', 'chairs', 'after the guest left');
    expect(idsOf(await byNarrow(guest, channelNarrow('porch')))).toEqual([received]);
    expect(await graphqlIds(guest, [{ operator: 'channel', operand: 'porch' }])).toEqual([received]);
    expect(idsOf(await byNarrow(guest, channelNarrow('design')))).toEqual([]);
    // A member who never joined reads the whole history.
    expect(idsOf(await byNarrow(carol, channelNarrow('porch')))).toEqual([received, later]);
  });

  it('a channel that does not exist in the organization is BAD_NARROW "unknown channel <operand>"', async () => {
    const missing = await byNarrow(bob, channelNarrow('no-such'));
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: 'error', code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel no-such', desc: 'unknown channel no-such' });
    const byId = await byNarrow(bob, [{ operator: 'channel', operand: 999999 }]);
    expect(byId.body).toMatchObject({ code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel 999999' });
    const negated = await byNarrow(bob, [{ operator: 'channel', operand: 'no-such', negated: true }]);
    expect(negated.body).toMatchObject({ code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel no-such' });
    const { error } = await fails(t, NARROW_QUERY, { narrow: channelNarrow('no-such') }, bob);
    expect(error.message).toBe('Invalid narrow operator: unknown channel no-such');
    expect(error.extensions).toMatchObject({ code: 'BAD_NARROW', httpStatus: 400, zulip: { desc: 'unknown channel no-such' } });
  });
});

describe('GET /messages: a with term stands for its message\'s conversation', () => {
  // Zulip's update_narrow_terms_containing_with_operator (clean_narrow_for_message_fetch): the
  // message's current channel and topic (or direct conversation) replace the narrow's channel, topic
  // and dm terms; a message the viewer may not read leaves the rest of the narrow if that names a
  // conversation, and is refused otherwise.
  const withTerm = (id: unknown) => ({ operator: 'with', operand: id });

  it('replaces the channel and topic terms with the message\'s own, reaching a readable channel\'s history', async () => {
    expect(idsOf(await byNarrow(carol, [withTerm(ids.d3)]))).toEqual([ids.d3]);
    // A stale link: the topic it names is not the message's.
    expect(idsOf(await byNarrow(carol, [...channelNarrow('design', 'colors'), withTerm(ids.d3)]))).toEqual([ids.d3]);
    expect(idsOf(await byNarrow(bob, [...channelNarrow('general', 'lunch'), withTerm(ids.d1)]))).toEqual([ids.d1, ids.d2, ids.d4]);
    expect(idsOf(await byNarrow(bob, [withTerm(String(ids.d1)), { operator: 'sender', operand: bob.userId }]))).toEqual([ids.d4]);
    const data = await ok(t, NARROW_QUERY, { narrow: [{ operator: 'channel', operand: 'general' }, withTerm(ids.d3)] }, carol);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).toEqual([ids.d3]);
  });

  it('a direct message: its conversation, in place of a dm term', async () => {
    expect(idsOf(await byNarrow(bob, [withTerm(ids.dm1)]))).toEqual([ids.dm1]);
    expect(idsOf(await byNarrow(bob, [{ operator: 'dm', operand: [carol.userId] }, withTerm(ids.dm2)]))).toEqual([ids.dm2]);
  });

  it('a message the viewer may not read: the rest of the narrow if it names a conversation, else BAD_NARROW', async () => {
    expect(idsOf(await byNarrow(bob, [...channelNarrow('general', 'lunch'), withTerm(ids.v1)]))).toEqual([ids.g1, ids.g2]);
    expect(idsOf(await byNarrow(carol, [{ operator: 'dm', operand: [alice.userId] }, withTerm(ids.dm1)]))).toEqual([]);
    for (const [who, narrow] of [
      [bob, [withTerm(ids.v1)]], [guest, [withTerm(ids.d1)]], [carol, [withTerm(ids.dm1)]], [bob, [...channelNarrow('general'), withTerm(999999)]],
    ] as [MadeUser, object[]][]) {
      const res = await byNarrow(who, narrow);
      expect(res.body, JSON.stringify(narrow)).toEqual({ result: 'error', code: 'BAD_NARROW', msg: "Invalid narrow operator: Invalid 'with' operator", desc: "Invalid 'with' operator" });
    }
    const { error } = await fails(t, NARROW_QUERY, { narrow: [withTerm(ids.v1)] }, bob);
    expect(error.message).toBe("Invalid narrow operator: Invalid 'with' operator");
  });

  it('refuses an operand that is no message ID, and two with terms', async () => {
    expect((await byNarrow(bob, [withTerm('soon')])).body).toMatchObject({ code: 'BAD_NARROW', msg: "Invalid narrow operator: Invalid 'with' operator" });
    const twice = await byNarrow(bob, [withTerm(ids.d1), withTerm(ids.d2)]);
    expect(twice.body).toEqual({
      result: 'error', code: 'BAD_NARROW', msg: "Invalid narrow operator combination: Duplicate 'with' operators.", desc: "Duplicate 'with' operators.",
    });
  });
});

describe('GET /messages history limits', () => {
  it('a private channel with protected history shows a new subscriber only what came after', async () => {
    await makeChannel(t.client(alice), 'diary', { invite_only: true, history_public_to_subscribers: false });
    const before = await sendToChannel(t.client(alice), 'diary', 'day 1', 'before carol');
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'diary' }], principals: [carol.userId] });
    const after = await sendToChannel(t.client(alice), 'diary', 'day 2', 'after carol');
    const res = await t.client(carol).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: channelNarrow('diary') });
    expect(idsOf(res)).toEqual([after]);
    expect((await t.client(carol).get(`/messages/${before}`)).body.msg).toBe('Invalid message(s)');
  });

  it('a private channel with public history shows a new subscriber everything', async () => {
    await makeChannel(t.client(alice), 'archive', { invite_only: true, history_public_to_subscribers: true });
    const before = await sendToChannel(t.client(alice), 'archive', 'old', 'before carol');
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'archive' }], principals: [carol.userId] });
    const res = await t.client(carol).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: channelNarrow('archive') });
    expect(idsOf(res)).toEqual([before]);
    expect(res.body.messages[0].flags).toEqual(['read', 'historical']);
  });
});

describe('GET /messages with message_ids', () => {
  // Zulip's fetch_messages: explicit IDs filter the narrow's query, and only the narrow decides
  // (ok_to_include_history) whether it reaches channel history beyond the viewer's UserMessage rows.
  const BY_IDS = 'query($ids: [Int!], $narrow: [NarrowTermInput!]) { messages(messageIds: $ids, narrow: $narrow) { messages { id flags } } }';
  const graphqlIds = async (who: MadeUser, messageIds: unknown[], narrow: object[] = []) =>
    (await ok(t, BY_IDS, { ids: messageIds, narrow }, who)).messages.messages.map((m: { id: number }) => m.id);

  it('without a channel term, returns only messages the viewer received', async () => {
    // Carol is not subscribed to the public channel design: she may read its history, but received none of it.
    const wanted = [ids.d1, ids.d3, ids.g1, ids.dm2, ids.g2, 999999];
    const res = await t.client(carol).get('/messages', { message_ids: wanted });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([ids.g1, ids.dm2, ids.g2]);
    expect(res.body.messages.flatMap((m: { flags: string[] }) => m.flags)).not.toContain('historical');
    expect(await graphqlIds(carol, wanted)).toEqual([ids.g1, ids.dm2, ids.g2]);
    // A narrow without a channel term keeps to her own history too.
    const bySender = await t.client(carol).get('/messages', { message_ids: [ids.d1, ids.d2, ids.g1], narrow: [{ operator: 'sender', operand: bob.userId }] });
    expect(idsOf(bySender)).toEqual([ids.g1]);
    expect(await graphqlIds(carol, [ids.d1, ids.d3], [{ operator: 'topic', operand: 'fonts' }])).toEqual([]);
  });

  it('with a channel term whose history the viewer may read, returns that channel\'s messages as historical', async () => {
    const res = await t.client(carol).get('/messages', { message_ids: [ids.d1, ids.d3, ids.g2], narrow: channelNarrow('design') });
    expect(idsOf(res)).toEqual([ids.d1, ids.d3]);
    expect(res.body.messages[0].flags).toEqual(['read', 'historical']);
    expect(await graphqlIds(carol, [ids.d1, ids.g2], [{ operator: 'channel', operand: 'design' }])).toEqual([ids.d1]);
    const publicChannels = await t.client(carol).get('/messages', { message_ids: [ids.d1, ids.v1, ids.dm2], narrow: [{ operator: 'channels', operand: 'public' }] });
    expect(idsOf(publicChannels)).toEqual([ids.d1]);
    // An is: term keeps even a channel narrow to the messages she received.
    const starred = await t.client(carol).get('/messages', { message_ids: [ids.d1], narrow: [...channelNarrow('design'), { operator: 'is', operand: 'starred', negated: true }] });
    expect(idsOf(starred)).toEqual([]);
  });

  it('never returns private-channel messages the viewer cannot read, nor public history to a guest', async () => {
    expect(idsOf(await t.client(carol).get('/messages', { message_ids: [ids.v1] }))).toEqual([]);
    expect(await graphqlIds(carol, [ids.v1], [{ operator: 'channels', operand: 'public' }])).toEqual([]);
    expect(idsOf(await t.client(guest).get('/messages', { message_ids: [ids.d1, ids.v1] }))).toEqual([]);
  });

  it('returns what the viewer received in a private channel they have left, as Zulip\'s UserMessage rows do', async () => {
    await makeChannel(t.client(alice), 'attic', { invite_only: true, history_public_to_subscribers: false, principals: [alice.userId, carol.userId] });
    const received = await sendToChannel(t.client(alice), 'attic', 'boxes', 'for carol');
    expect((await t.client(carol).delete('/users/me/subscriptions', { subscriptions: ['attic'] })).status).toBe(200);
    const later = await sendToChannel(t.client(alice), 'attic', 'boxes', 'after carol left');
    const res = await t.client(carol).get('/messages', { message_ids: [received, later] });
    expect(idsOf(res)).toEqual([received]);
    expect(res.body.messages[0].flags).not.toContain('historical');
  });

  it('answers found_anchor, found_oldest, found_newest and history_limited, all false, and no anchor', async () => {
    const res = await t.client(alice).get('/messages', { message_ids: [ids.d1] });
    expect(res.body).toMatchObject({ result: 'success', found_anchor: false, found_oldest: false, found_newest: false, history_limited: false });
    expect(res.body.anchor).toBeUndefined();
    expect(idsOf(res)).toEqual([ids.d1]);
  });

  it('filters by narrow too', async () => {
    const res = await t.client(alice).get('/messages', { message_ids: [ids.d1, ids.d3, ids.g1], narrow: [{ operator: 'topic', operand: 'colors' }] });
    expect(idsOf(res)).toEqual([ids.d1]);
  });
});

describe('GET /messages presentation', () => {
  it('apply_markdown=false returns the Markdown source', async () => {
    const res = await t.client(alice).get('/messages', { anchor: ids.d1, num_before: 0, num_after: 0, apply_markdown: false });
    expect(res.body.messages[0].content).toBe('red is a colour');
    expect(res.body.messages[0].content_type).toBe('text/x-markdown');
  });

  it('client_gravatar=false always sends avatar URLs; true leaves them null for gravatars', async () => {
    const withUrls = await t.client(alice).get('/messages', { anchor: ids.d1, num_before: 0, num_after: 0, client_gravatar: false });
    expect(withUrls.body.messages[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    const computed = await t.client(alice).get('/messages', { anchor: ids.d1, num_before: 0, num_after: 0 });
    expect(computed.body.messages[0].avatar_url).toBeNull();
  });

  it('direct messages list every participant as display_recipient', async () => {
    const res = await t.client(carol).get('/messages', { anchor: ids.dm2, num_before: 0, num_after: 0 });
    const recipients = res.body.messages[0].display_recipient.map((u: { id: number }) => u.id);
    expect(recipients).toEqual([alice.userId, bob.userId, carol.userId].sort((a, b) => a - b));
    expect(res.body.messages[0].stream_id).toBeUndefined();
  });
});

describe('GET /messages across realms', () => {
  it('never returns another organization\'s messages', async () => {
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    await createRealm(t.db, { stringId: 'other', name: 'Other', ownerEmail: 'boss@other.example.com', ownerPassword: 'pw-other-123' });
    const anon = t.client(undefined, 'other.localhost');
    const key = await anon.post('/fetch_api_key', { username: 'boss@other.example.com', password: 'pw-other-123' });
    const boss = t.client({ email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id }, 'other.localhost');
    const res = await boss.get('/messages', { message_ids: Object.values(ids) });
    expect(idsOf(res)).toEqual([]);
    const narrow = await boss.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: channelNarrow('design') });
    expect(narrow.status).toBe(400);
    expect(narrow.body).toMatchObject({ code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel design' });
    const designId = (await t.client(alice).get('/get_stream_id', { stream: 'design' })).body.stream_id;
    const byId = await boss.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: designId }] });
    expect(byId.body).toMatchObject({ code: 'BAD_NARROW', msg: `Invalid narrow operator: unknown channel ${designId}` });
    const search = await boss.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channels', operand: 'public' }, { operator: 'search', operand: 'pizza' }] });
    expect(idsOf(search)).toEqual([]);
    // Realm 1's credentials are not valid at realm 2's address.
    const crossed = await t.client(alice, 'other.localhost').get('/users/me');
    expect(crossed.status).toBe(400);
  });
});
