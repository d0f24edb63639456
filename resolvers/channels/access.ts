// Who may see and do what in a channel. Zulip distinguishes metadata access (knowing the channel
// exists, its name and settings) from content access (reading its messages).
import type { Db } from '../../prisma/database.ts';
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { BadRequestError, StreamDoesNotExistError } from '../errors.ts';
import { exactInsensitive, reviveTimestamps } from '../rows.ts';
import type { RowCache } from '../row-cache.ts';

type Reader = Db | Prisma.TransactionClient;

export async function isSubscribed(db: Reader, userId: number, channelId: number): Promise<boolean> {
  const sub = await db.subscription.findUnique({ where: { userId_channelId: { userId, channelId } }, select: { active: true } });
  return !!sub?.active;
}

/** Content access: may read the channel's messages (subject to history rules) and subscribe to it. */
export async function hasContentAccess(db: Reader, user: User, channel: Channel, subscribed?: boolean): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  const sub = subscribed ?? (await isSubscribed(db, user.id, channel.id));
  if (sub) return true;
  if (!channel.inviteOnly && !isGuest(user)) return true;
  // Members of these groups could subscribe themselves, so they may read too (feature levels 349, 357).
  if (channel.inviteOnly) {
    if (await isUserInGroup(db, user, channel.canAddSubscribersGroupId)) return true;
    if (await isUserInGroup(db, user, channel.canSubscribeGroupId)) return true;
  }
  return false;
}

/** Metadata access: content access, or an administrator role for the channel or the organization. */
export async function hasMetadataAccess(db: Reader, user: User, channel: Channel, subscribed?: boolean): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  if (await hasContentAccess(db, user, channel, subscribed)) return true;
  if (isAdmin(user)) return true;
  return isUserInGroup(db, user, channel.canAdministerChannelGroupId);
}

/** May read the full history, or only messages the user received? */
export function historyIsPublicTo(channel: Channel, user: User, subscribed: boolean): boolean {
  if (!channel.inviteOnly) return !isGuest(user) || subscribed;
  return channel.historyPublicToSubscribers && subscribed;
}

/**
 * Finds a channel the user may know about. A private channel the user may not see is reported exactly
 * like a missing one, so its existence does not leak.
 */
export async function accessChannelById(db: Reader, user: User, channelId: number): Promise<Channel> {
  const channel = await db.channel.findUnique({ where: { id: channelId } });
  if (!channel || !(await hasMetadataAccess(db, user, channel))) throw new BadRequestError('Invalid channel ID');
  return channel;
}

export async function findChannelByName(db: Reader, realmId: number, name: string): Promise<Channel | null> {
  return db.channel.findFirst({ where: { realmId, name: exactInsensitive(name.trim()) } });
}

/**
 * A channel by ID or name with its active subscribers, in one statement: sending a message needs
 * both, on the server's hottest path.
 */
export interface ChannelWithSubscribers {
  channel: Channel;
  subscriberIds: number[];
}

/** Channels with their subscribers, between messages (resolvers/row-cache.ts). */
export type ChannelCache = RowCache<ChannelWithSubscribers>;

export async function channelWithSubscribers(
  db: Reader, realmId: number, target: { id: number } | { name: string },
): Promise<ChannelWithSubscribers | null> {
  const id = 'id' in target ? target.id : null;
  const name = 'name' in target ? target.name.trim() : null;
  const [row] = await db.$queryRaw<{ channel: Channel; subscribers: number[] }[]>`
    SELECT to_jsonb(c) AS channel,
      ARRAY(SELECT s."userId" FROM "Subscription" s WHERE s."channelId" = c.id AND s.active AND s."isUserActive") AS subscribers
    FROM "Channel" c
    WHERE c."realmId" = ${realmId} AND (c.id = ${id}::int OR lower(c.name) = lower(${name}::text))
    LIMIT 1`;
  if (!row) return null;
  return { channel: reviveTimestamps(row.channel, ['dateCreated']), subscriberIds: row.subscribers };
}

/**
 * `channelWithSubscribers` through `cache` (outside transactions only: one may have changed the
 * rows it would read). The values are shared: never modified.
 */
export function cachedChannelWithSubscribers(
  ctx: { db: Reader; channelCache?: ChannelCache; tx?: unknown }, realmId: number, target: { id: number } | { name: string },
): Promise<ChannelWithSubscribers | null> {
  const load = () => channelWithSubscribers(ctx.db, realmId, target);
  if (!ctx.channelCache || 'tx' in ctx) return load();
  return ctx.channelCache.get('id' in target ? `${realmId}#${target.id}` : `${realmId}:${target.name}`, load);
}

export async function accessChannelByName(db: Reader, user: User, name: string): Promise<Channel> {
  const channel = await findChannelByName(db, user.realmId, name);
  // Zulip's access_stream_by_name: a plain BAD_REQUEST (not STREAM_DOES_NOT_EXIST), the same for
  // hidden and missing channels; Zulip's API examples (test_invalid_stream_error) check the code.
  if (!channel || !(await hasMetadataAccess(db, user, channel))) throw new BadRequestError(`Invalid channel name '${name}'`);
  return channel;
}
