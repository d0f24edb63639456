// Drafts (Zulip's /drafts, zerver/lib/drafts.py): the owner's only, channel drafts to exactly one
// channel the owner can read, direct drafts to existing active users (stored as the other
// participants), unaddressed drafts, timestamps; `drafts` add/update/remove events to the owner;
// register's `drafts`; refused while `enable_drafts_synchronization` is off. The same through GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeOtherRealmOwner, makeUser, updateSettings } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let general: number;
let secret: number;
const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol'], { alice: { fullName: 'Alice' } });

beforeAll(async () => {
  general = await makeChannel(t.client(alice), 'drafting');
  secret = await makeChannel(t.client(bob), 'bob-secret', { invite_only: true });
});

const client = (u: Credentials) => t.client(u);

const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['drafts'] })).queue_id;
async function list(c: ApiClient) {
  const res = await c.get('/drafts');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.count).toBe(res.body.drafts.length);
  return res.body.drafts as any[];
}
async function create(c: ApiClient, drafts: unknown[]) {
  return c.post('/drafts', { drafts });
}

describe('POST /drafts', () => {
  it('creates channel, direct, group and unaddressed drafts and answers their IDs in order', async () => {
    const dave = await makeUser(t);
    const res = await create(client(dave), [
      { type: 'stream', to: [general], topic: 'sync drafts', content: 'Channel draft', timestamp: 1595479019 },
      { type: 'private', to: [alice.userId], topic: 'ignored', content: 'To Alice', timestamp: 1595479020 },
      { type: 'private', to: [bob.userId, alice.userId, dave.userId], topic: '', content: 'Group', timestamp: 1595479021 },
      { type: 'private', to: [dave.userId], topic: '', content: 'Note to self', timestamp: 1595479022 },
      { type: 'private', to: [], topic: 'x', content: 'No one yet', timestamp: 1595479023 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ids).toHaveLength(5);
    const [a, b, c, d, e] = res.body.ids;
    expect(await list(client(dave))).toEqual([
      { id: e, type: '', to: [], topic: '', content: 'No one yet', timestamp: 1595479023 },
      { id: d, type: 'private', to: [dave.userId], topic: '', content: 'Note to self', timestamp: 1595479022 },
      { id: c, type: 'private', to: [alice.userId, bob.userId].sort((x, y) => x - y), topic: '', content: 'Group', timestamp: 1595479021 },
      { id: b, type: 'private', to: [alice.userId], topic: '', content: 'To Alice', timestamp: 1595479020 },
      { id: a, type: 'stream', to: [general], topic: 'sync drafts', content: 'Channel draft', timestamp: 1595479019 },
    ]);
  });

  it('fills in a missing timestamp with the current time', async () => {
    const dave = await makeUser(t);
    const before = Math.floor(Date.now() / 1000);
    expect((await create(client(dave), [{ type: '', to: [], topic: '', content: 'now' }])).status).toBe(200);
    const [draft] = await list(client(dave));
    expect(draft.timestamp).toBeGreaterThanOrEqual(before);
    expect(draft.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('refuses bad drafts with Zulip\'s messages and creates none of the batch', async () => {
    const dave = await makeUser(t);
    const cases: [unknown, string][] = [
      [{ type: 'stream', to: [], topic: 't', content: 'x' }, 'Must specify exactly 1 channel ID for channel messages'],
      [{ type: 'stream', to: [general, general], topic: 't', content: 'x' }, 'Must specify exactly 1 channel ID for channel messages'],
      [{ type: 'stream', to: [secret], topic: 't', content: 'x' }, 'Invalid channel ID'],
      [{ type: 'stream', to: [999999], topic: 't', content: 'x' }, 'Invalid channel ID'],
      [{ type: 'private', to: [999999], topic: '', content: 'x' }, 'Invalid user ID 999999'],
      [{ type: '', to: [], topic: '', content: 'x', timestamp: -10.1 }, 'Timestamp must not be negative.'],
      [{ type: '', to: [], topic: '', content: '   ' }, 'Message must not be empty'],
      [{ type: 'huddle', to: [], topic: '', content: 'x' }, 'Invalid type'],
    ];
    for (const [bad, msg] of cases) {
      const res = await create(client(dave), [{ type: '', to: [], topic: '', content: 'fine' }, bad]);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect(await list(client(dave))).toEqual([]);
  });

  it('refuses deactivated recipients and users of other organizations', async () => {
    const dave = await makeUser(t);
    const gone = await makeUser(t);
    expect((await t.client(t.owner).delete(`/users/${gone.userId}`)).status).toBe(200);
    let res = await create(client(dave), [{ type: 'private', to: [gone.userId], topic: '', content: 'x' }]);
    expect(res.body.msg).toBe(`'${gone.email}' is no longer using Zulip.`);
    const boss = await makeOtherRealmOwner(t, 'draftsother');
    res = await create(client(dave), [{ type: 'private', to: [boss.userId], topic: '', content: 'x' }]);
    expect(res.body.msg).toBe(`Invalid user ID ${boss.userId}`);
  });

  it('requires a JSON list of draft objects', async () => {
    const dave = await makeUser(t);
    expect((await client(dave).post('/drafts', {})).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'drafts' });
    expect((await client(dave).post('/drafts', { drafts: '{"type": ""}' })).status).toBe(400);
    expect((await create(client(dave), [{ type: '', to: [], topic: '', content: 'x', id: 5 }])).status).toBe(400);
  });
});

describe('PATCH /drafts/{draft_id}', () => {
  it('replaces the owner\'s draft', async () => {
    const dave = await makeUser(t);
    const [id] = (await create(client(dave), [{ type: 'stream', to: [general], topic: 'drafts', content: 'v1', timestamp: 1595505700 }])).body.ids;
    const draft = { type: 'private', to: [alice.userId], topic: 'x', content: 'v2', timestamp: 1595505800 };
    const res = await client(dave).patch(`/drafts/${id}`, { draft });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await list(client(dave))).toEqual([{ id, type: 'private', to: [alice.userId], topic: '', content: 'v2', timestamp: 1595505800 }]);
  });

  it('answers 404 for missing drafts and other users\' drafts, changing nothing', async () => {
    const dave = await makeUser(t);
    const [id] = (await create(client(dave), [{ type: '', to: [], topic: '', content: 'mine', timestamp: 1 }])).body.ids;
    const draft = { type: '', to: [], topic: '', content: 'theirs' };
    for (const [who, target] of [[alice, id], [dave, 999999]] as const) {
      const res = await client(who).patch(`/drafts/${target}`, { draft });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Draft does not exist' });
    }
    expect((await list(client(dave)))[0].content).toBe('mine');
  });
});

describe('DELETE /drafts/{draft_id}', () => {
  it('deletes the owner\'s draft only', async () => {
    const dave = await makeUser(t);
    const [id] = (await create(client(dave), [{ type: '', to: [], topic: '', content: 'x' }])).body.ids;
    expect((await client(alice).delete(`/drafts/${id}`)).status).toBe(404);
    expect((await client(dave).delete(`/drafts/${id}`)).status).toBe(200);
    expect(await list(client(dave))).toEqual([]);
    expect((await client(dave).delete(`/drafts/${id}`)).body).toMatchObject({ msg: 'Draft does not exist' });
  });
});

describe('Drafts events and register', () => {
  it('announce additions, edits and removals to the owner only', async () => {
    const dave = await makeUser(t);
    const daveQueue = await queue(client(dave));
    const aliceQueue = await queue(client(alice));
    const [id] = (await create(client(dave), [{ type: 'stream', to: [general], topic: 't', content: 'a', timestamp: 100 }])).body.ids;
    await client(dave).patch(`/drafts/${id}`, { draft: { type: 'stream', to: [general], topic: 't2', content: 'b', timestamp: 200 } });
    await client(dave).delete(`/drafts/${id}`);
    expect(await allEvents(client(dave), daveQueue)).toEqual([
      { type: 'drafts', op: 'add', drafts: [{ id, type: 'stream', to: [general], topic: 't', content: 'a', timestamp: 100 }], id: 0 },
      { type: 'drafts', op: 'update', draft: { id, type: 'stream', to: [general], topic: 't2', content: 'b', timestamp: 200 }, id: 1 },
      { type: 'drafts', op: 'remove', draft_id: id, id: 2 },
    ]);
    expect(await allEvents(client(alice), aliceQueue)).toEqual([]);
  });

  it('register lists the drafts, most recently edited first', async () => {
    const dave = await makeUser(t);
    const ids = (await create(client(dave), [
      { type: '', to: [], topic: '', content: 'old', timestamp: 10 },
      { type: '', to: [], topic: '', content: 'new', timestamp: 20 },
    ])).body.ids;
    const res = await client(dave).post('/register', { fetch_event_types: ['drafts'] });
    expect(res.body.drafts.map((d: any) => d.id)).toEqual([ids[1], ids[0]]);
  });
});

describe('enable_drafts_synchronization', () => {
  it('turned off, every drafts endpoint is refused', async () => {
    const dave = await makeUser(t);
    const [id] = (await create(client(dave), [{ type: '', to: [], topic: '', content: 'x' }])).body.ids;
    await updateSettings(t, dave, { enable_drafts_synchronization: false });
    const msg = 'User has disabled synchronizing drafts.';
    expect((await client(dave).get('/drafts')).body).toMatchObject({ code: 'BAD_REQUEST', msg });
    expect((await create(client(dave), [])).body).toMatchObject({ msg });
    expect((await client(dave).patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'y' } })).body).toMatchObject({ msg });
    expect((await client(dave).delete(`/drafts/${id}`)).body).toMatchObject({ msg });
  });
});

describe('Drafts through GraphQL', () => {
  it('create, list, edit and delete with the same rules', async () => {
    const dave = await makeUser(t);
    const created = await ok(t, 'mutation($d: [DraftInput!]!) { createDrafts(drafts: $d) }', {
      d: [{ type: 'stream', to: [general], topic: 'gql', content: 'hello', timestamp: 42 }],
    }, dave);
    const [id] = created.createDrafts;
    expect((await ok(t, '{ drafts { id type to topic content timestamp } }', {}, dave)).drafts).toEqual([
      { id, type: 'stream', to: [general], topic: 'gql', content: 'hello', timestamp: 42 },
    ]);
    await ok(t, 'mutation($id: Int!, $d: DraftInput!) { editDraft(draftId: $id, draft: $d) }', {
      id, d: { type: 'private', to: [carol.userId], topic: '', content: 'changed', timestamp: 43 },
    }, dave);
    expect((await ok(t, '{ drafts { to content } }', {}, dave)).drafts).toEqual([{ to: [carol.userId], content: 'changed' }]);
    const { error } = await fails(t, 'mutation($id: Int!) { deleteDraft(draftId: $id) }', { id }, alice);
    expect(error.message).toBe('Draft does not exist');
    expect(error.extensions?.httpStatus).toBe(404);
    await ok(t, 'mutation($id: Int!) { deleteDraft(draftId: $id) }', { id }, dave);
    expect((await ok(t, '{ drafts { id } }', {}, dave)).drafts).toEqual([]);
  });
});
