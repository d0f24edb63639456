// Who is subscribed to what, as the viewer may see it: GET /streams/{id}/members,
// GET /users/{id}/subscriptions/{stream_id} and the subscriber lists of GET /users/me/subscriptions.
import type { Channel, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { SubscriberListShape } from '../../schema/subscriptions.ts';
import { requestMemo } from '../../schema/request-cache.ts';
import type { Db } from '../../prisma/database.ts';
import { PARTIAL_SUBSCRIBERS_ACTIVE_DAYS, PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE } from '../limits.ts';
import { metadataAccessGroupIds } from './permission-settings.ts';
import { BadRequestError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { accessChannelById, isSubscribed } from './access.ts';
import { canAccessUser } from '../users/audience.ts';

/** Zulip's validate_user_access_to_subscribers, for a channel the viewer already has metadata access to. */
async function checkSubscriberAccess(ctx: Context, viewer: User, channel: Channel): Promise<void> {
  if (channel.isWebPublic) return;
  const subscribed = await isSubscribed(ctx.db, viewer.id, channel.id);
  if (isGuest(viewer) && subscribed) return;
  if (isGuest(viewer) && !channel.inviteOnly) throw new BadRequestError('Subscriber data is not available for this channel');
  if (isAdmin(viewer) || !channel.inviteOnly || subscribed) return;
  for (const groupId of metadataAccessGroupIds(channel)) {
    if (await isUserInGroup(ctx.db, viewer, groupId)) return;
  }
  throw new BadRequestError('Unable to retrieve subscribers for private channel');
}

export async function channelSubscribers(ctx: Context, viewer: User, channelId: number): Promise<number[]> {
  const channel = await accessChannelById(ctx.db, viewer, channelId);
  await checkSubscriberAccess(ctx, viewer, channel);
  const rows = await ctx.db.subscription.findMany({
    where: { channelId: channel.id, active: true, isUserActive: true }, select: { userId: true }, orderBy: { userId: 'asc' },
  });
  return rows.map((r) => r.userId);
}

export async function userIsSubscribed(ctx: Context, viewer: User, userId: number, channelId: number): Promise<boolean> {
  const target = await ctx.db.user.findFirst({ where: { id: userId, realmId: ctx.realm.id } });
  if (!target) throw new BadRequestError('No such user');
  // Guests limited to the users they share something with may not probe anyone else (Zulip's access_user_by_id).
  if (!(await canAccessUser(ctx.db, ctx.realm, viewer, target.id))) throw new BadRequestError('Insufficient permission');
  const channel = await accessChannelById(ctx.db, viewer, channelId);
  // Whether someone else is in a channel is subscriber data.
  if (target.id !== viewer.id) await checkSubscriberAccess(ctx, viewer, channel);
  return isSubscribed(ctx.db, target.id, channel.id);
}

/** Subscriber lists of all the viewer's subscribed channels, computed once per request and mode. */
export function subscriberListsForViewer(ctx: Context, partial: boolean): Promise<Map<number, SubscriberListShape>> {
  return requestMemo(ctx, `subscriberLists:${partial}`, async () => {
    const subs = await ctx.db.subscription.findMany({ where: { userId: ctx.user?.id ?? -1, active: true }, select: { channelId: true } });
    const lists = await subscriberLists(ctx.db, subs.map((s) => ({ id: s.channelId })), partial);
    const out = new Map<number, SubscriberListShape>();
    for (const [id, userIds] of lists.full) out.set(id, { userIds, partial: false });
    for (const [id, userIds] of lists.partial) out.set(id, { userIds, partial: true });
    return out;
  });
}

const DAY_MS = 86_400_000;

/**
 * Subscriber IDs for the given channels, in two queries. With include_subscribers=partial,
 * channels of PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE or more subscribers list only bots and users
 * active in the last PARTIAL_SUBSCRIBERS_ACTIVE_DAYS days, as `partial_subscribers`.
 */
export async function subscriberLists(db: Db, channels: Pick<Channel, 'id'>[], partialMode: boolean) {
  const full = new Map<number, number[]>();
  const partial = new Map<number, number[]>();
  if (!channels.length) return { full, partial };
  const ids = channels.map((c) => c.id);
  let partialIds: number[] = [];
  if (partialMode) {
    const counts = await db.subscription.groupBy({
      by: ['channelId'],
      where: { channelId: { in: ids }, active: true, isUserActive: true },
      _count: { _all: true },
    });
    partialIds = counts.filter((c) => c._count._all >= PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE).map((c) => c.channelId);
  }
  const partialSet = new Set(partialIds);
  const fullIds = ids.filter((id) => !partialSet.has(id));
  const since = new Date(Date.now() - PARTIAL_SUBSCRIBERS_ACTIVE_DAYS * DAY_MS);
  const [fullRows, partialRows] = await Promise.all([
    fullIds.length
      ? db.subscription.findMany({
          where: { channelId: { in: fullIds }, active: true, isUserActive: true },
          select: { channelId: true, userId: true },
          orderBy: [{ channelId: 'asc' }, { userId: 'asc' }],
        })
      : Promise.resolve([]),
    partialIds.length
      ? db.subscription.findMany({
          where: {
            channelId: { in: partialIds }, active: true, isUserActive: true,
            user: { OR: [{ isBot: true }, { lastActivity: { gte: since } }] },
          },
          select: { channelId: true, userId: true },
          orderBy: [{ channelId: 'asc' }, { userId: 'asc' }],
        })
      : Promise.resolve([]),
  ]);
  for (const id of fullIds) full.set(id, []);
  for (const id of partialIds) partial.set(id, []);
  for (const row of fullRows) full.get(row.channelId)!.push(row.userId);
  for (const row of partialRows) partial.get(row.channelId)!.push(row.userId);
  return { full, partial };
}
