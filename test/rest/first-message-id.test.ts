// A channel's first_message_id when its first message is deleted (DELETE /messages/{id}) or moved
// to another channel (PATCH /messages/{id} with stream_id): the column is recomputed in the same
// transaction and everyone who may see the channel gets a `stream update` for first_message_id.
import { describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { admin, alice, bob, carol, guest } = useTeam(t, ['admin', 'alice', 'bob', 'carol', 'guest']);
const stranger = useOtherRealmOwner(t, 'other');
const OTHER = 'other.localhost';
let seq = 0;
const fresh = (prefix: string) => `${prefix}-${++seq}`;

const as = (who: Credentials) => (who === stranger ? t.client(who, OTHER) : t.client(who));
const stored = async (id: number) => (await t.db.channel.findUniqueOrThrow({ where: { id } })).firstMessageId;

const register = async (who: Credentials) => (await registerQueue(as(who), { event_types: ['stream'] })).queue_id;
/** The first_message_id updates this queue received, as [stream_id, value]. */
async function firstMessageUpdates(who: Credentials, queueId: string): Promise<[number, number | null][]> {
  return (await allEvents(as(who), queueId))
    .filter((e) => e.type === 'stream' && e.op === 'update' && e.property === 'first_message_id')
    .map((e) => [e.stream_id, e.value]);
}
async function registerAll(users: Credentials[]): Promise<Map<Credentials, string>> {
  return new Map(await Promise.all(users.map(async (u) => [u, await register(u)] as const)));
}

describe('DELETE /messages/{message_id}: the channel\'s first message', () => {
  it('moves first_message_id to the next message and tells everyone who may see a public channel', async () => {
    const name = fresh('public');
    const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    const first = await sendToChannel(t.client(alice), name, 'a', 'first');
    const second = await sendToChannel(t.client(bob), name, 'b', 'second');
    expect(await stored(id)).toBe(first);
    const queues = await registerAll([alice, bob, carol, admin, guest, stranger]);

    const res = await t.client(alice).delete(`/messages/${first}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(id)).toBe(second);
    expect((await t.client(carol).get(`/streams/${id}`)).body.stream.first_message_id).toBe(second);
    // Subscribers, members who are not subscribed, administrators: everyone who can see the channel.
    for (const who of [alice, bob, carol, admin]) expect(await firstMessageUpdates(who, queues.get(who)!)).toEqual([[id, second]]);
    // A guest who is not subscribed cannot see a public channel; another organization never can.
    for (const who of [guest, stranger]) expect(await firstMessageUpdates(who, queues.get(who)!)).toEqual([]);
  });

  it('says nothing when a later message is deleted', async () => {
    const name = fresh('later');
    const id = await makeChannel(t.client(alice), name);
    const first = await sendToChannel(t.client(alice), name, 'a', 'first');
    const second = await sendToChannel(t.client(alice), name, 'a', 'second');
    const q = await register(alice);
    expect((await t.client(alice).delete(`/messages/${second}`)).status).toBe(200);
    expect(await stored(id)).toBe(first);
    expect(await firstMessageUpdates(alice, q)).toEqual([]);
  });

  it('becomes null when the channel\'s only message goes', async () => {
    const name = fresh('lonely');
    const id = await makeChannel(t.client(alice), name);
    const only = await sendToChannel(t.client(alice), name, 'a', 'only');
    const q = await register(bob);
    expect((await t.client(admin).delete(`/messages/${only}`)).status).toBe(200);
    expect(await stored(id)).toBeNull();
    expect((await t.client(alice).get(`/streams/${id}`)).body.stream.first_message_id).toBeNull();
    expect(await firstMessageUpdates(bob, q)).toEqual([[id, null]]);
    // The next message becomes the first again.
    const next = await sendToChannel(t.client(alice), name, 'a', 'again');
    expect(await stored(id)).toBe(next);
  });

  it('in a private channel reaches subscribers and administrators only', async () => {
    const name = fresh('secret');
    const id = await makeChannel(t.client(alice), name, { invite_only: true, principals: [alice.userId, guest.userId] });
    const first = await sendToChannel(t.client(alice), name, 'a', 'first');
    const second = await sendToChannel(t.client(alice), name, 'a', 'second');
    const queues = await registerAll([alice, guest, admin, bob, carol]);
    expect((await t.client(alice).delete(`/messages/${first}`)).status).toBe(200);
    expect(await stored(id)).toBe(second);
    for (const who of [alice, guest, admin]) expect(await firstMessageUpdates(who, queues.get(who)!)).toEqual([[id, second]]);
    for (const who of [bob, carol]) expect(await firstMessageUpdates(who, queues.get(who)!)).toEqual([]);
  });

  it('a refused deletion changes neither the message nor first_message_id', async () => {
    const name = fresh('kept');
    const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId] });
    const first = await sendToChannel(t.client(alice), name, 'a', 'first');
    await sendToChannel(t.client(alice), name, 'a', 'second');
    const q = await register(alice);
    const res = await t.client(bob).delete(`/messages/${first}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "You don't have permission to delete this message" });
    expect(await stored(id)).toBe(first);
    expect(await firstMessageUpdates(alice, q)).toEqual([]);
  });
});

describe('PATCH /messages/{message_id}: moving messages between channels', () => {
  it('moving a channel\'s first message away updates the source (and a target it becomes first in)', async () => {
    const from = fresh('from');
    const to = fresh('to');
    const fromId = await makeChannel(t.client(alice), from, { principals: [alice.userId, bob.userId] });
    const first = await sendToChannel(t.client(alice), from, 'moving', 'first');
    const toId = await makeChannel(t.client(alice), to, { principals: [alice.userId, bob.userId] });
    const kept = await sendToChannel(t.client(alice), from, 'staying', 'kept');
    const targetFirst = await sendToChannel(t.client(alice), to, 'there', 'already there');
    expect(await stored(toId)).toBe(targetFirst);
    const queues = await registerAll([bob, carol, guest]);

    const res = await t.client(admin).patch(`/messages/${first}`, { stream_id: toId, propagate_mode: 'change_one' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(fromId)).toBe(kept);
    // The moved message is older than anything in the target, so it becomes the target's first.
    expect(await stored(toId)).toBe(first);
    for (const who of [bob, carol]) expect(await firstMessageUpdates(who, queues.get(who)!)).toEqual([[fromId, kept], [toId, first]]);
    expect(await firstMessageUpdates(guest, queues.get(guest)!)).toEqual([]);
  });

  it('moving a whole channel\'s topic away empties it: null; a newer message moved in changes nothing there', async () => {
    const from = fresh('emptied');
    const to = fresh('older');
    const toId = await makeChannel(t.client(alice), to);
    const targetFirst = await sendToChannel(t.client(alice), to, 'there', 'older');
    const fromId = await makeChannel(t.client(alice), from);
    const a = await sendToChannel(t.client(alice), from, 'all', 'one');
    await sendToChannel(t.client(alice), from, 'all', 'two');
    const q = await register(carol);
    const res = await t.client(admin).patch(`/messages/${a}`, { stream_id: toId, propagate_mode: 'change_all' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(fromId)).toBeNull();
    expect(await stored(toId)).toBe(targetFirst);
    expect(await firstMessageUpdates(carol, q)).toEqual([[fromId, null]]);
  });

  it('moving a later message, or renaming the topic in place, says nothing', async () => {
    const from = fresh('calm');
    const to = fresh('calm-to');
    const fromId = await makeChannel(t.client(alice), from);
    const toId = await makeChannel(t.client(alice), to);
    const first = await sendToChannel(t.client(alice), from, 'x', 'first');
    const toFirst = await sendToChannel(t.client(alice), to, 'z', 'target first');
    const later = await sendToChannel(t.client(alice), from, 'y', 'later');
    const q = await register(carol);
    expect((await t.client(admin).patch(`/messages/${later}`, { stream_id: toId, propagate_mode: 'change_one' })).status).toBe(200);
    expect((await t.client(admin).patch(`/messages/${first}`, { topic: 'renamed', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await stored(fromId)).toBe(first);
    expect(await stored(toId)).toBe(toFirst);
    expect(await firstMessageUpdates(carol, q)).toEqual([]);
  });
});
