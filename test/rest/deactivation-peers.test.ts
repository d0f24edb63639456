// Deactivating a user tells everyone who sees a private channel's subscribers,
// including members of the groups that grant access without a subscription.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let channelId: number;
// keeper: in the channel's can_add_subscribers_group, not subscribed
// leaver: subscribed, then deactivated
// outsider: neither
const t = useTestServer();
const { keeper, leaver, outsider } = useTeam(t, ['keeper', 'leaver', 'outsider'], { keeper: { fullName: 'Keeper' }, leaver: { fullName: 'Leaver' }, outsider: { fullName: 'Outsider' } });

const register = async (client: ApiClient) => (await registerQueue(client, { event_types: ['subscription'] })).queue_id;

beforeAll(async () => {
  const owner = t.client(t.owner);
  channelId = await makeChannel(owner, 'guarded', { invite_only: true, principals: [t.owner.userId, leaver.userId] });
  const res = await owner.patch(`/streams/${channelId}`, {
    can_add_subscribers_group: { new: { direct_members: [keeper.userId], direct_subgroups: [] } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});

describe('DELETE /users/{user_id} on a private channel subscriber', () => {
  it('sends peer_remove to members of the groups granting access, not to outsiders', async () => {
    const keeperQueue = await register(t.client(keeper));
    const outsiderQueue = await register(t.client(outsider));
    const res = await t.client(t.owner).delete(`/users/${leaver.userId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The leaver's default channels come in the same event.
    const kept = (await allEvents(t.client(keeper), keeperQueue)).filter((e) => e.op === 'peer_remove' && e.stream_ids.includes(channelId));
    expect(kept).toEqual([expect.objectContaining({ type: 'subscription', op: 'peer_remove', user_ids: [leaver.userId] })]);
    const outside = (await allEvents(t.client(outsider), outsiderQueue)).filter((e) => e.op === 'peer_remove' && e.stream_ids.includes(channelId));
    expect(outside).toEqual([]);
  });
});
