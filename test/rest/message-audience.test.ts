// Who hears of a change to a message (Zulip's event_recipient_ids_for_action_on_messages): those who
// received it, and, in a channel whose history its subscribers may read, every subscriber — one who
// joined later may have the message on screen from the history.
import { describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import { openQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ scheduledPollMs: 0 });
const { alice, carol } = useTeam(t, ['alice', 'carol']);

let counter = 0;

/** A channel of Alice's with a message sent before Carol joined, and Carol's queue opened after. */
async function laterSubscriber(options: Record<string, unknown>) {
  counter += 1;
  const name = `audience-${counter}`;
  await makeChannel(t.client(alice), name, options);
  const id = await sendToChannel(t.client(alice), name, 'old news', 'before Carol');
  const added = await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [carol.userId] });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const queue = await openQueue(t.client(carol), { event_types: ['reaction', 'update_message', 'delete_message'] });
  return { id, queue };
}

describe('changes to a message in a channel with shared history', () => {
  it('reach a subscriber who joined after it was sent: reactions, edits, deletion', async () => {
    const { id, queue } = await laterSubscriber({});
    expect((await t.client(alice).post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status).toBe(200);
    expect((await t.client(alice).patch(`/messages/${id}`, { content: 'edited' })).status).toBe(200);
    expect((await t.client(alice).delete(`/messages/${id}`)).status).toBe(200);
    expect((await queue.events()).map((e) => e.type)).toEqual(['reaction', 'update_message', 'delete_message']);
  });
});

describe('changes to a message in a channel with protected history', () => {
  it('do not reach a subscriber who joined after it was sent (they cannot read it)', async () => {
    const { id, queue } = await laterSubscriber({ invite_only: true, history_public_to_subscribers: false });
    expect((await t.client(alice).post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status).toBe(200);
    expect((await t.client(alice).patch(`/messages/${id}`, { content: 'edited' })).status).toBe(200);
    expect(await queue.events()).toEqual([]);
  });
});
