// deleteMessage and updateMessage (moving to another channel) keep a channel's first message ID
// current, and the REST queue of a channel member hears of it.
import { describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel, type MadeUser } from '../support/factories.ts';
import { ok } from './helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { admin, alice, bob } = useTeam(t, ['admin', 'alice', 'bob']);

const stored = async (id: number) => (await t.db.channel.findUniqueOrThrow({ where: { id } })).firstMessageId;

const register = async (who: MadeUser) => (await registerQueue(t.client(who), { event_types: ['stream'] })).queue_id;
async function firstMessageUpdates(who: MadeUser, queueId: string) {
  return (await allEvents(t.client(who), queueId)).filter((e) => e.type === 'stream' && e.property === 'first_message_id').map((e) => [e.stream_id, e.value]);
}

describe('deleteMessage / updateMessage and first_message_id', () => {
  it('deleting the first message moves it on and announces the new ID', async () => {
    const id = await makeChannel(t.client(alice), 'gql-delete');
    const first = await sendToChannel(t.client(alice), 'gql-delete', 'a', 'first');
    const second = await sendToChannel(t.client(alice), 'gql-delete', 'a', 'second');
    const q = await register(bob);
    const data = await ok(t, 'mutation($id: Int!) { deleteMessage(messageId: $id) }', { id: first }, alice);
    expect(data.deleteMessage).toBe(true);
    expect(await stored(id)).toBe(second);
    expect(await firstMessageUpdates(bob, q)).toEqual([[id, second]]);
  });

  it('moving the only message away leaves null behind', async () => {
    const from = await makeChannel(t.client(alice), 'gql-from');
    const to = await makeChannel(t.client(alice), 'gql-to');
    const only = await sendToChannel(t.client(alice), 'gql-from', 'a', 'only');
    const q = await register(bob);
    await ok(t, 'mutation($id: Int!, $to: Int!) { updateMessage(messageId: $id, streamId: $to) { detachedUploads { id } } }', { id: only, to }, admin);
    expect(await stored(from)).toBeNull();
    expect(await stored(to)).toBe(only);
    expect(await firstMessageUpdates(bob, q)).toEqual([[from, null], [to, only]]);
  });
});
