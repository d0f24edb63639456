// Default channels (Zulip's /default_streams): administrators add public channels and remove any;
// the list is in register's realm_default_streams and every change sends a default_streams event to
// the organization's members (not guests); new users are subscribed to the default channels.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeOtherRealmOwner, makeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let lobby: number;
let vault: number;
const t = useTestServer();
const { admin, member, guest } = useTeam(t, ['admin', 'member', 'guest']);

async function defaults(c: ApiClient): Promise<number[]> {
  const res = await c.post('/register', { fetch_event_types: ['default_streams'] });
  expect(res.status).toBe(200);
  return res.body.realm_default_streams;
}
const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['default_streams'] })).queue_id;

beforeAll(async () => {
  lobby = await makeChannel(t.client(admin), 'lobby');
  vault = await makeChannel(t.client(admin), 'vault', { invite_only: true });
});

describe('POST /default_streams', () => {
  it('adds a public channel, announced to members but not guests, and new users join it', async () => {
    const before = await defaults(t.client(member));
    const memberQueue = await queue(t.client(member));
    const guestQueue = await queue(t.client(guest));
    const res = await t.client(admin).post('/default_streams', { stream_id: lobby });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = [...before, lobby].sort((a, b) => a - b);
    expect(await defaults(t.client(member))).toEqual(after);
    expect(await defaults(t.client(guest))).toEqual([]);
    expect(await allEvents(t.client(member), memberQueue)).toEqual([{ type: 'default_streams', default_streams: after, id: 0 }]);
    expect(await allEvents(t.client(guest), guestQueue)).toEqual([]);
    const newcomer = await makeUser(t, { fullName: 'Newcomer' });
    const subs = (await t.client(newcomer).get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id);
    expect(subs).toContain(lobby);
  });

  it('adding a default channel again changes nothing and sends nothing', async () => {
    await t.client(admin).post('/default_streams', { stream_id: lobby });
    const memberQueue = await queue(t.client(member));
    expect((await t.client(admin).post('/default_streams', { stream_id: lobby })).status).toBe(200);
    expect(await allEvents(t.client(member), memberQueue)).toEqual([]);
  });

  it('refuses private channels, unknown and archived ones, and channels of other organizations', async () => {
    expect((await t.client(admin).post('/default_streams', { stream_id: vault })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: 'Private channels cannot be made default.' });
    const other = await makeOtherRealmOwner(t, 'defaults');
    const theirs = await makeChannel(t.client(other, other.host), 'theirs');
    const archived = await makeChannel(t.client(admin), 'attic');
    await t.client(admin).delete(`/streams/${archived}`);
    for (const id of [987654, theirs, archived]) {
      expect((await t.client(admin).post('/default_streams', { stream_id: id })).body, String(id)).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    }
    expect(await defaults(t.client(admin))).not.toContain(theirs);
  });

  it('is for administrators only', async () => {
    const res = await t.client(member).post('/default_streams', { stream_id: lobby });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    expect((await t.client(member).post('/default_streams', {})).status).toBe(400);
  });

  it('keeps one row when added by parallel requests', async () => {
    const plaza = await makeChannel(t.client(admin), 'plaza');
    const results = await Promise.all([1, 2, 3, 4].map(() => t.client(admin).post('/default_streams', { stream_id: plaza })));
    for (const r of results) expect(r.status).toBe(200);
    expect((await defaults(t.client(admin))).filter((id) => id === plaza)).toHaveLength(1);
  });
});

describe('DELETE /default_streams', () => {
  it('removes a default channel with an event; new users no longer join it', async () => {
    const hall = await makeChannel(t.client(admin), 'hall');
    await t.client(admin).post('/default_streams', { stream_id: hall });
    const memberQueue = await queue(t.client(member));
    const res = await t.client(admin).delete('/default_streams', { stream_id: hall });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await defaults(t.client(member))).not.toContain(hall);
    const [event] = await allEvents(t.client(member), memberQueue);
    expect(event.default_streams).not.toContain(hall);
    const newcomer = await makeUser(t);
    expect((await t.client(newcomer).get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id)).not.toContain(hall);
  });

  it('is for administrators, for channels they may see', async () => {
    expect((await t.client(member).delete('/default_streams', { stream_id: lobby })).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    expect((await t.client(admin).delete('/default_streams', { stream_id: 987654 })).body).toMatchObject({ msg: 'Invalid channel ID' });
  });
});

describe('Default channels elsewhere', () => {
  it('creating a channel with is_default_stream announces the new list', async () => {
    const memberQueue = await queue(t.client(member));
    const res = await t.client(admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'foyer' }], is_default_stream: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const foyer = (await t.client(admin).get('/get_stream_id', { stream: 'foyer' })).body.stream_id;
    const [event] = await allEvents(t.client(member), memberQueue);
    expect(event).toMatchObject({ type: 'default_streams' });
    expect(event.default_streams).toContain(foyer);
  });

  it('through GraphQL: defaultChannelIds, addDefaultChannel, removeDefaultChannel', async () => {
    const porch = await makeChannel(t.client(admin), 'porch');
    await ok(t, 'mutation($id: Int!) { addDefaultChannel(channelId: $id) }', { id: porch }, admin);
    expect((await ok(t, '{ defaultChannelIds }', {}, member)).defaultChannelIds).toContain(porch);
    expect((await ok(t, '{ defaultChannelIds }', {}, guest)).defaultChannelIds).toEqual([]);
    await ok(t, 'mutation($id: Int!) { removeDefaultChannel(channelId: $id) }', { id: porch }, admin);
    expect((await ok(t, '{ defaultChannelIds }', {}, member)).defaultChannelIds).not.toContain(porch);
    const { error } = await fails(t, 'mutation($id: Int!) { addDefaultChannel(channelId: $id) }', { id: porch }, member);
    expect(error.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
  });
});
