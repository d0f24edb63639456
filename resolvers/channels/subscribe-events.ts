// Events after a subscribe commits: `stream create` for new channels (to everyone who may see them),
// `subscription add` to each new subscriber, `subscription peer_add` to the channel's other subscribers.
import type { Channel } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { GroupIndex } from '../events/initial-state/groups.ts';
import { channelRecord, subscriptionFields } from './wire.ts';

export async function publishSubscribeEvents(ctx: Context, created: Channel[], added: { userId: number; channelId: number }[]): Promise<void> {
  if (!created.length && !added.length) return;
  const channelIds = [...new Set([...created.map((c) => c.id), ...added.map((a) => a.channelId)])];
  const [groups, channels, subscriptions] = await Promise.all([
    GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: false, viewerId: null }),
    ctx.db.channel.findMany({ where: { id: { in: channelIds } } }),
    ctx.db.subscription.findMany({ where: { channelId: { in: channelIds }, active: true, isUserActive: true } }),
  ]);
  const byId = new Map(channels.map((c) => [c.id, c]));
  const subscribersOf = (channelId: number) => subscriptions.filter((s) => s.channelId === channelId).map((s) => s.userId).sort((a, b) => a - b);

  for (const channel of created) {
    const record = channelRecord(byId.get(channel.id)!, groups, null);
    const audience = channel.inviteOnly
      ? subscribersOf(channel.id)
      : (await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, role: { not: 600 } }, select: { id: true } })).map((u) => u.id);
    ctx.events.publish(ctx.realm.id, audience, { type: 'stream', op: 'create', streams: [record] });
  }

  const addedByChannel = new Map<number, number[]>();
  for (const { userId, channelId } of added) addedByChannel.set(channelId, [...(addedByChannel.get(channelId) ?? []), userId]);
  for (const [channelId, userIds] of addedByChannel) {
    const channel = byId.get(channelId)!;
    const subscribers = subscribersOf(channelId);
    for (const userId of userIds) {
      const sub = subscriptions.find((s) => s.channelId === channelId && s.userId === userId)!;
      ctx.events.publish(ctx.realm.id, [userId], {
        type: 'subscription', op: 'add',
        subscriptions: [{ ...channelRecord(channel, groups, null), ...subscriptionFields(sub), subscribers }],
      });
    }
    const peers = subscribers.filter((id) => !userIds.includes(id));
    ctx.events.publish(ctx.realm.id, peers, { type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: userIds });
  }
}
