// Per-request memos for list fields: a GraphQL list resolves each item's fields separately, so
// anything all items need (the realm's groups, channel traffic) is loaded once per request here
// rather than once per item.
import type { Context } from './context.ts';
import { GroupIndex } from '../resolvers/groups/group-index.ts';

const caches = new WeakMap<object, Map<string, Promise<unknown>>>();

export function requestMemo<T>(ctx: Context, key: string, load: () => Promise<T>): Promise<T> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  let value = cache.get(key) as Promise<T> | undefined;
  if (!value) cache.set(key, (value = load()));
  return value;
}

/** The realm's groups, for group-setting values and system-group names. */
export function realmGroups(ctx: Context): Promise<GroupIndex> {
  return requestMemo(ctx, 'groups', () => GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: false, viewerId: null }));
}

/** Messages per channel over the last 28 days (for weekly traffic). */
export function recentChannelTraffic(ctx: Context): Promise<Map<number, number>> {
  return requestMemo(ctx, 'traffic', async () => {
    const since = new Date(Date.now() - 28 * 86_400_000);
    const rows = await ctx.db.message.groupBy({
      by: ['channelId'],
      where: { realmId: ctx.realm.id, channelId: { not: null }, dateSent: { gte: since } },
      _count: { _all: true },
    });
    return new Map(rows.map((r) => [r.channelId!, r._count._all]));
  });
}

/** Active subscribers per channel. */
export function subscriberCounts(ctx: Context): Promise<Map<number, number>> {
  return requestMemo(ctx, 'subscriberCounts', async () => {
    const rows = await ctx.db.subscription.groupBy({
      by: ['channelId'],
      where: { active: true, isUserActive: true, channel: { realmId: ctx.realm.id } },
      _count: { _all: true },
    });
    return new Map(rows.map((r) => [r.channelId, r._count._all]));
  });
}

/** Active subscribers of every channel the viewer is subscribed to. */
export function subscribersOfViewerChannels(ctx: Context): Promise<Map<number, number[]>> {
  return requestMemo(ctx, 'subscribers', async () => {
    const rows = await ctx.db.subscription.findMany({
      where: { active: true, isUserActive: true, channel: { subscriptions: { some: { userId: ctx.user?.id ?? -1, active: true } } } },
      select: { channelId: true, userId: true },
      orderBy: { userId: 'asc' },
    });
    const map = new Map<number, number[]>();
    for (const row of rows) map.set(row.channelId, [...(map.get(row.channelId) ?? []), row.userId]);
    return map;
  });
}
