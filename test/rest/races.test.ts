// Parallel requests that read and then write the same rows: each is answered (success or Zulip's
// error, never a 500) and the result is what some serial order would give. Run on PGlite (which
// serializes transactions) and on PostgreSQL (TEST_DATABASE_URL), where the races are real:
// conflicts are retried by every transaction (resolvers/transaction.ts), a concurrent insert of
// the same key is retried once so the domain answers it, and read-modify-write locks its row.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse } from '../support/client.ts';
import { makeChannel, makeUser, sendToChannel, type MadeUser } from '../support/factories.ts';
import { useTestServer } from '../support/fixtures.ts';

let owner: ApiClient;
let alice: MadeUser;
const t = useTestServer();

beforeAll(async () => {
  owner = new ApiClient(t.baseUrl, t.owner, undefined, false);
  alice = await makeUser(t, { fullName: 'Alice' });
});

const PARALLEL = 20;

function expectAnswered(responses: ApiResponse[]) {
  for (const res of responses) {
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(res.body.result, JSON.stringify(res.body)).toBeDefined();
  }
}

describe('PATCH /messages/{id}: parallel edits', () => {
  it(`${PARALLEL} parallel content edits each leave their entry in edit_history`, async () => {
    const author = new ApiClient(t.baseUrl, t.owner, undefined, false);
    const id = await sendToChannel(t.client(t.owner), 'general', 'edits', 'version 0');
    const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => author.patch(`/messages/${id}`, { content: `version ${i + 1}` })));
    expectAnswered(responses);
    const succeeded = responses.filter((r) => r.status === 200).length;
    expect(succeeded).toBe(PARALLEL);
    const history = (await author.get(`/messages/${id}/history`)).body.message_history as { content: string; prev_content?: string }[];
    // The original plus one snapshot per edit, each edit's prev_content being the content before it.
    expect(history.length).toBe(PARALLEL + 1);
    const contents = history.map((h) => h.content);
    expect(new Set(contents).size).toBe(PARALLEL + 1);
    for (let i = 1; i < history.length; i++) expect(history[i]!.prev_content).toBe(history[i - 1]!.content);
  });
});

describe('POST and DELETE /users/me/subscriptions: one user, in parallel', () => {
  it(`${PARALLEL} parallel subscribes and unsubscribes never fail, and the end state is one of theirs`, async () => {
    await makeChannel(owner, 'flapping');
    const client = new ApiClient(t.baseUrl, alice, undefined, false);
    const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => (i % 2
      ? client.delete('/users/me/subscriptions', { subscriptions: ['flapping'] })
      : client.post('/users/me/subscriptions', { subscriptions: [{ name: 'flapping' }] }))));
    expectAnswered(responses);
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const subscribed = ((await client.get('/users/me/subscriptions')).body.subscriptions as { name: string }[]).some((s) => s.name === 'flapping');
    const members = (await owner.get('/streams')).body.streams.find((s: { name: string }) => s.name === 'flapping');
    const subscribers = (await owner.get(`/streams/${members.stream_id}/members`)).body.subscribers as number[];
    expect(subscribers.includes(alice.userId)).toBe(subscribed);
  });

  it(`${PARALLEL} parallel subscribes of one user to one channel: one subscribes, the others find it done`, async () => {
    await makeChannel(owner, 'crowded');
    const client = new ApiClient(t.baseUrl, alice, undefined, false);
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => client.post('/users/me/subscriptions', { subscriptions: [{ name: 'crowded' }] })));
    expectAnswered(responses);
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = responses.filter((r) => Object.keys(r.body.subscribed).length > 0);
    expect(fresh.length).toBe(1);
  });
});

describe('channel names are unique ignoring case', () => {
  const lowerNames = async () => ((await owner.get('/streams')).body.streams as { name: string }[]).map((s) => s.name.toLowerCase());

  it('parallel creations of one name in different cases create one channel; everyone is subscribed to it', async () => {
    const spellings = ['Race', 'RACE', 'race', 'rAce', 'raCe', 'racE', 'RAce', 'raCE'];
    const clients = await Promise.all(spellings.map(async () => new ApiClient(t.baseUrl, await makeUser(t), undefined, false)));
    const responses = await Promise.all(clients.map((c, i) => c.post('/users/me/subscriptions', { subscriptions: [{ name: spellings[i] }] })));
    expectAnswered(responses);
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await lowerNames()).filter((n) => n === 'race').length).toBe(1);
    const id = (await owner.get('/get_stream_id', { stream: 'race' })).body.stream_id;
    expect(((await owner.get(`/streams/${id}/members`)).body.subscribers as number[]).length).toBe(spellings.length);
  });

  it('parallel renames of different channels to one name in different cases: one wins, the others are told it exists', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => makeChannel(owner, `rename-source-${i}`)));
    const responses = await Promise.all(ids.map((id, i) => owner.patch(`/streams/${id}`, { new_name: i % 2 ? 'Winner' : 'WINNER' })));
    expectAnswered(responses);
    expect(responses.filter((r) => r.status === 200).length).toBe(1);
    for (const res of responses.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/already exists/);
    }
    expect((await lowerNames()).filter((n) => n === 'winner').length).toBe(1);
  });

  it('parallel renames of one channel to different names all answer, and the last one stands', async () => {
    const id = await makeChannel(owner, 'renamed-often');
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => owner.patch(`/streams/${id}`, { new_name: `renamed-${i}` })));
    expectAnswered(responses);
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const name = (await owner.get(`/streams/${id}`)).body.stream.name;
    expect(name).toMatch(/^renamed-\d$/);
  });
});

describe('e-mail addresses are unique per organization ignoring case', () => {
  it('parallel POST /users with one address in different cases: one account, the others told it is in use', async () => {
    const spellings = ['dup@example.com', 'DUP@example.com', 'Dup@example.com', 'dUp@example.com', 'duP@example.com', 'DUP@EXAMPLE.COM'];
    const responses = await Promise.all(spellings.map((email) => owner.post('/users', { email, password: 'a long enough password', full_name: 'Dup' })));
    expectAnswered(responses);
    expect(responses.filter((r) => r.status === 200).length).toBe(1);
    for (const res of responses.filter((r) => r.status !== 200)) expect(res.body.msg).toMatch(/already in use/);
    const users = (await owner.get('/users')).body.members as { email: string; delivery_email?: string }[];
    expect(users.filter((u) => (u.delivery_email ?? u.email).toLowerCase() === 'dup@example.com').length).toBe(1);
  });
});
