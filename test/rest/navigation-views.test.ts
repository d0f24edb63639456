// Navigation views (spec: POST /navigation_views; Zulip's zerver/views/navigation_views.py):
// per-user, built-in fragments carry no name, custom views need one, duplicates are refused, and
// every change reaches only the owner's clients as a `navigation_view` event.
import { describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);
const boss = useOtherRealmOwner(t, 'other');
const OTHER = 'other.localhost';

const client = (u: MadeUser) => t.client(u);
const path = (fragment: string) => `/navigation_views/${encodeURIComponent(fragment)}`;

const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['navigation_view'] })).queue_id;
async function views(c: ApiClient) {
  const res = await c.get('/navigation_views');
  expect(res.status).toBe(200);
  return res.body.navigation_views as any[];
}

describe('POST /navigation_views', () => {
  it('adds a built-in view without a name and a custom view with one, and lists them in order', async () => {
    const carol = await makeUser(t);
    expect((await client(carol).post('/navigation_views', { fragment: 'inbox', is_pinned: false })).body).toMatchObject({ result: 'success' });
    expect((await client(carol).post('/navigation_views', { fragment: 'narrow/channel/10-design', is_pinned: true, name: 'Design' })).status).toBe(200);
    expect(await views(client(carol))).toEqual([
      { fragment: 'inbox', is_pinned: false },
      { fragment: 'narrow/channel/10-design', is_pinned: true, name: 'Design' },
    ]);
  });

  it('requires a fragment that is not blank', async () => {
    const res = await client(alice).post('/navigation_views', { fragment: '   ', is_pinned: true, name: 'X' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'fragment cannot be blank' });
    const missing = await client(alice).post('/navigation_views', { is_pinned: true, name: 'X' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'fragment' });
  });

  it('requires is_pinned as a boolean', async () => {
    const missing = await client(alice).post('/navigation_views', { fragment: 'recent' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'is_pinned' });
    const bad = await client(alice).post('/navigation_views', { fragment: 'recent', is_pinned: 'perhaps' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    expect(await views(client(alice))).toEqual([]);
  });

  it('refuses a name on every built-in view', async () => {
    for (const fragment of ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred']) {
      const res = await client(alice).post('/navigation_views', { fragment, is_pinned: true, name: 'Mine' });
      expect(res.status, fragment).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name.' });
    }
    expect(await views(client(alice))).toEqual([]);
  });

  it('requires a name for custom views (absent or blank)', async () => {
    for (const name of [undefined, '', '  ']) {
      const res = await client(alice).post('/navigation_views', { fragment: 'narrow/is/followed', is_pinned: true, name });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    const res = await client(alice).post('/navigation_views', { fragment: 'narrow/is/followed', is_pinned: true });
    expect(res.body.msg).toBe('Custom views must have a valid name.');
    expect(await views(client(alice))).toEqual([]);
  });

  it('refuses a duplicate fragment or a duplicate name, and writes nothing', async () => {
    const dave = await makeUser(t);
    await client(dave).post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    const sameFragment = await client(dave).post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Other name' });
    expect(sameFragment.status).toBe(400);
    expect(sameFragment.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Navigation view already exists.' });
    const sameName = await client(dave).post('/navigation_views', { fragment: 'narrow/is/unread', is_pinned: false, name: 'Alerts' });
    expect(sameName.status).toBe(400);
    expect(sameName.body.msg).toBe('Navigation view already exists.');
    expect(await views(client(dave))).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }]);
  });

  it('is per user: another user may use the same fragment and name, and sees only their own', async () => {
    const erin = await makeUser(t);
    const frank = await makeUser(t);
    await client(erin).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' });
    expect(await views(client(frank))).toEqual([]);
    expect((await client(frank).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: false, name: 'DMs' })).status).toBe(200);
    expect(await views(client(erin))).toEqual([{ fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' }]);
  });

  it('needs credentials', async () => {
    const res = await t.client().post('/navigation_views', { fragment: 'inbox', is_pinned: true });
    expect(res.status).toBe(401);
  });

  it('sends navigation_view add to the owner only', async () => {
    const gina = await makeUser(t);
    const mine = await queue(client(gina));
    const theirs = await queue(client(bob));
    await client(gina).post('/navigation_views', { fragment: 'recent', is_pinned: true });
    await client(gina).post('/navigation_views', { fragment: 'narrow/is/private', is_pinned: false, name: 'Private' });
    expect(await allEvents(client(gina), mine)).toEqual([
      { id: 0, type: 'navigation_view', op: 'add', navigation_view: { fragment: 'recent', is_pinned: true } },
      { id: 1, type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/private', is_pinned: false, name: 'Private' } },
    ]);
    expect(await allEvents(client(bob), theirs)).toEqual([]);
  });
});

describe('Navigation views for every role', () => {
  it('lets owners, admins, moderators, members and guests keep their own views', async () => {
    const users = [t.owner];
    for (const role of [200, 300, 400, 600]) users.push(await makeUser(t, { role }));
    for (const u of users) {
      expect((await t.client(u).post('/navigation_views', { fragment: 'narrow/is/role', is_pinned: true, name: `Role ${u.userId}` })).status).toBe(200);
      expect(await views(t.client(u))).toContainEqual({ fragment: 'narrow/is/role', is_pinned: true, name: `Role ${u.userId}` });
    }
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  it('takes a fragment with slashes left as they are in the path, as Zulip\'s API examples send it', async () => {
    const ivy = await makeUser(t);
    await client(ivy).post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' });
    const res = await client(ivy).patch('/navigation_views/narrow/is/alerted', { is_pinned: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await views(client(ivy))).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }]);
    expect((await client(ivy).delete('/navigation_views/narrow/is/alerted')).status).toBe(200);
    expect(await views(client(ivy))).toEqual([]);
  });

  it('changes is_pinned and the name, with an update event carrying only what changed', async () => {
    const hal = await makeUser(t);
    await client(hal).post('/navigation_views', { fragment: 'feed', is_pinned: false });
    await client(hal).post('/navigation_views', { fragment: 'narrow/topic/x', is_pinned: false, name: 'X' });
    const q = await queue(client(hal));
    expect((await client(hal).patch(path('feed'), { is_pinned: true })).status).toBe(200);
    expect((await client(hal).patch(path('narrow/topic/x'), { name: 'Renamed', is_pinned: true })).status).toBe(200);
    expect(await views(client(hal))).toEqual([
      { fragment: 'feed', is_pinned: true },
      { fragment: 'narrow/topic/x', is_pinned: true, name: 'Renamed' },
    ]);
    expect(await allEvents(client(hal), q)).toEqual([
      { id: 0, type: 'navigation_view', op: 'update', fragment: 'feed', data: { is_pinned: true } },
      { id: 1, type: 'navigation_view', op: 'update', fragment: 'narrow/topic/x', data: { name: 'Renamed', is_pinned: true } },
    ]);
  });

  it('refuses a name for a built-in view and a name another view has', async () => {
    const ivy = await makeUser(t);
    await client(ivy).post('/navigation_views', { fragment: 'drafts', is_pinned: false });
    await client(ivy).post('/navigation_views', { fragment: 'a', is_pinned: false, name: 'A' });
    await client(ivy).post('/navigation_views', { fragment: 'b', is_pinned: false, name: 'B' });
    const builtIn = await client(ivy).patch(path('drafts'), { name: 'Mine' });
    expect(builtIn.status).toBe(400);
    expect(builtIn.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name.' });
    const taken = await client(ivy).patch(path('b'), { name: 'A' });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toBe('Navigation view already exists.');
    expect(await views(client(ivy))).toEqual([
      { fragment: 'drafts', is_pinned: false },
      { fragment: 'a', is_pinned: false, name: 'A' },
      { fragment: 'b', is_pinned: false, name: 'B' },
    ]);
  });

  it("answers 404 for a missing view, including another user's", async () => {
    const jack = await makeUser(t);
    await client(jack).post('/navigation_views', { fragment: 'narrow/is/jack', is_pinned: false, name: 'Jack' });
    for (const c of [client(alice), t.client(boss, OTHER)]) {
      const res = await c.patch(path('narrow/is/jack'), { is_pinned: true });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Navigation view does not exist.' });
    }
    expect(await views(client(jack))).toEqual([{ fragment: 'narrow/is/jack', is_pinned: false, name: 'Jack' }]);
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  it('removes the view and tells the owner', async () => {
    const kim = await makeUser(t);
    await client(kim).post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true });
    const q = await queue(client(kim));
    const other = await queue(client(bob));
    expect((await client(kim).delete(path('narrow/is/starred'))).status).toBe(200);
    expect(await views(client(kim))).toEqual([]);
    expect(await allEvents(client(kim), q)).toEqual([{ id: 0, type: 'navigation_view', op: 'remove', fragment: 'narrow/is/starred' }]);
    expect(await allEvents(client(bob), other)).toEqual([]);
  });

  it("answers 404 for a missing view or someone else's, and removes nothing", async () => {
    const lea = await makeUser(t);
    await client(lea).post('/navigation_views', { fragment: 'inbox', is_pinned: true });
    const missing = await client(lea).delete(path('recent'));
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('Navigation view does not exist.');
    const foreign = await client(alice).delete(path('inbox'));
    expect(foreign.status).toBe(404);
    const otherRealm = await t.client(boss, OTHER).delete(path('inbox'));
    expect(otherRealm.status).toBe(404);
    expect(await views(client(lea))).toEqual([{ fragment: 'inbox', is_pinned: true }]);
  });
});

describe('POST /register navigation_views', () => {
  it("returns the user's own views in the register response", async () => {
    const max = await makeUser(t);
    await client(max).post('/navigation_views', { fragment: 'inbox', is_pinned: false });
    await client(max).post('/navigation_views', { fragment: 'narrow/x', is_pinned: true, name: 'X' });
    const res = await client(max).post('/register', { fetch_event_types: ['navigation_views'] });
    expect(res.body.navigation_views).toEqual([{ fragment: 'inbox', is_pinned: false }, { fragment: 'narrow/x', is_pinned: true, name: 'X' }]);
    const others = await t.client(boss, OTHER).post('/register', { fetch_event_types: ['navigation_views'] });
    expect(others.body.navigation_views).toEqual([]);
  });
});
