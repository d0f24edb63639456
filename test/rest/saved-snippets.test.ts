// Saved snippets (Zulip's zerver/views/saved_snippets.py): title 1–60 and content 1–10000 code
// points after trimming, only one's own (someone else's is "not found"), `saved_snippets` events
// to the owner only, and the register response's `saved_snippets`.
import { describe, expect, it } from 'vitest';
import { makeBot, makeUser } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);
const boss = useOtherRealmOwner(t, 'other');
const OTHER = 'other.localhost';

const client = (u: Credentials) => t.client(u);

const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['saved_snippets'] })).queue_id;
async function snippets(c: ApiClient) {
  const res = await c.get('/saved_snippets');
  expect(res.status).toBe(200);
  return res.body.saved_snippets as any[];
}
async function create(c: ApiClient, title: string, content: string): Promise<number> {
  const res = await c.post('/saved_snippets', { title, content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.saved_snippet_id;
}

describe('POST /saved_snippets', () => {
  it('creates a snippet (trimmed) and returns its ID; GET lists it with date_created', async () => {
    const carol = await makeUser(t);
    const before = Math.floor(Date.now() / 1000);
    const id = await create(client(carol), '  Welcome  ', '  Welcome to **the team**!\n');
    expect(Number.isInteger(id)).toBe(true);
    const list = await snippets(client(carol));
    expect(list).toEqual([{ id, title: 'Welcome', content: 'Welcome to **the team**!', date_created: expect.any(Number) }]);
    expect(list[0].date_created).toBeGreaterThanOrEqual(before - 1);
  });

  it('requires title and content', async () => {
    for (const [params, missing] of [[{ content: 'x' }, 'title'], [{ title: 'x' }, 'content']] as const) {
      const res = await client(alice).post('/saved_snippets', params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: missing });
    }
    expect(await snippets(client(alice))).toEqual([]);
  });

  it('refuses an empty or blank title or content', async () => {
    const cases = [
      [{ title: '', content: 'x' }, 'Title cannot be empty.'],
      [{ title: '   ', content: 'x' }, 'Title cannot be empty.'],
      [{ title: 'x', content: '' }, 'Content cannot be empty.'],
      [{ title: 'x', content: ' \n ' }, 'Content cannot be empty.'],
    ] as const;
    for (const [params, msg] of cases) {
      const res = await client(alice).post('/saved_snippets', params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect(await snippets(client(alice))).toEqual([]);
  });

  it('limits the title to 60 and the content to 10000 code points', async () => {
    const dave = await makeUser(t);
    await create(client(dave), '😀'.repeat(60), 'x'.repeat(10000));
    const longTitle = await client(dave).post('/saved_snippets', { title: 'x'.repeat(61), content: 'x' });
    expect(longTitle.status).toBe(400);
    expect(longTitle.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'title is too long (limit: 60 characters)' });
    const longContent = await client(dave).post('/saved_snippets', { title: 'x', content: 'x'.repeat(10001) });
    expect(longContent.status).toBe(400);
    expect(longContent.body.msg).toBe('content is too long (limit: 10000 characters)');
    expect(await snippets(client(dave))).toHaveLength(1);
  });

  it('needs credentials', async () => {
    expect((await t.client().post('/saved_snippets', { title: 'a', content: 'b' })).status).toBe(401);
    expect((await t.client().get('/saved_snippets')).status).toBe(401);
  });

  it('sends saved_snippets add to the owner only', async () => {
    const erin = await makeUser(t);
    const mine = await queue(client(erin));
    const theirs = await queue(client(bob));
    const id = await create(client(erin), 'Hi', 'Hello');
    const [event] = await allEvents(client(erin), mine);
    expect(event).toEqual({ id: 0, type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Hi', content: 'Hello', date_created: expect.any(Number) } });
    expect(await allEvents(client(bob), theirs)).toEqual([]);
  });
});

describe('Saved snippets for every role', () => {
  it('lets owners, admins, moderators, members, guests and bots keep their own snippets', async () => {
    const users: Credentials[] = [t.owner];
    for (const role of [200, 300, 400, 600]) users.push(await makeUser(t, { role }));
    users.push(await makeBot(t, t.owner, { fullName: 'Snippet Bot' }));
    for (const u of users) {
      const id = await create(client(u), `Snippet of ${u.userId}`, 'text');
      expect(await snippets(client(u))).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
      expect((await snippets(client(alice))).map((s) => s.id)).not.toContain(id);
    }
  });
});

describe('PATCH /saved_snippets/{saved_snippet_id}', () => {
  it('changes the title, the content, or both, with an update event carrying the whole snippet', async () => {
    const frank = await makeUser(t);
    const id = await create(client(frank), 'Old', 'Old content');
    const q = await queue(client(frank));
    expect((await client(frank).patch(`/saved_snippets/${id}`, { title: 'New' })).status).toBe(200);
    expect((await client(frank).patch(`/saved_snippets/${id}`, { content: ' New content ' })).status).toBe(200);
    expect((await client(frank).patch(`/saved_snippets/${id}`, { title: 'Both', content: 'Both content' })).status).toBe(200);
    const [snippet] = await snippets(client(frank));
    expect(snippet).toMatchObject({ id, title: 'Both', content: 'Both content' });
    const evs = await allEvents(client(frank), q);
    expect(evs.map((e) => [e.op, e.saved_snippet.title, e.saved_snippet.content])).toEqual([
      ['update', 'New', 'Old content'], ['update', 'New', 'New content'], ['update', 'Both', 'Both content'],
    ]);
    expect(evs[0].saved_snippet).toEqual({ id, title: 'New', content: 'Old content', date_created: snippet.date_created });
  });

  it('needs at least one of title and content', async () => {
    const id = await create(client(alice), 'Keep', 'Keep me');
    const res = await client(alice).patch(`/saved_snippets/${id}`, {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    await client(alice).delete(`/saved_snippets/${id}`);
  });

  it('validates the new values as on creation and changes nothing when refused', async () => {
    const gina = await makeUser(t);
    const id = await create(client(gina), 'T', 'C');
    for (const params of [{ title: ' ' }, { content: '' }, { title: 'x'.repeat(61) }, { title: 'ok', content: 'x'.repeat(10001) }]) {
      const res = await client(gina).patch(`/saved_snippets/${id}`, params);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    expect(await snippets(client(gina))).toMatchObject([{ id, title: 'T', content: 'C' }]);
  });

  it("answers 404 for a missing snippet and for someone else's, in this or another realm", async () => {
    const hal = await makeUser(t);
    const id = await create(client(hal), 'Private', 'Mine only');
    for (const [c, target] of [[client(bob), id], [t.client(boss, OTHER), id], [client(hal), id + 1000]] as const) {
      const res = await c.patch(`/saved_snippets/${target}`, { title: 'Stolen' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Saved snippet does not exist.' });
    }
    expect(await snippets(client(hal))).toMatchObject([{ id, title: 'Private' }]);
  });
});

describe('DELETE /saved_snippets/{saved_snippet_id}', () => {
  it('deletes the snippet and tells the owner only', async () => {
    const ivy = await makeUser(t);
    const id = await create(client(ivy), 'Bye', 'Bye');
    const q = await queue(client(ivy));
    const other = await queue(client(bob));
    expect((await client(ivy).delete(`/saved_snippets/${id}`)).status).toBe(200);
    expect(await snippets(client(ivy))).toEqual([]);
    expect(await allEvents(client(ivy), q)).toEqual([{ id: 0, type: 'saved_snippets', op: 'remove', saved_snippet_id: id }]);
    expect(await allEvents(client(bob), other)).toEqual([]);
    const again = await client(ivy).delete(`/saved_snippets/${id}`);
    expect(again.status).toBe(404);
  });

  it("refuses someone else's snippet as not found and keeps it", async () => {
    const jack = await makeUser(t);
    const id = await create(client(jack), 'Jack', 'Jack');
    for (const c of [client(bob), t.client(boss, OTHER)]) {
      const res = await c.delete(`/saved_snippets/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.msg).toBe('Saved snippet does not exist.');
    }
    expect(await snippets(client(jack))).toHaveLength(1);
  });
});

describe('POST /register saved_snippets', () => {
  it("holds the user's own snippets only", async () => {
    const kim = await makeUser(t);
    const id = await create(client(kim), 'Reg', 'Register me');
    const res = await client(kim).post('/register', { fetch_event_types: ['saved_snippets'] });
    expect(res.body.saved_snippets).toEqual([{ id, title: 'Reg', content: 'Register me', date_created: expect.any(Number) }]);
    const bobs = await client(bob).post('/register', { fetch_event_types: ['saved_snippets'] });
    expect(bobs.body.saved_snippets.map((s: any) => s.id)).not.toContain(id);
  });
});
