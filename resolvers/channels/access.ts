// Who may see and do what in a channel. Zulip distinguishes metadata access (knowing the channel
// exists, its name and settings) from content access (reading its messages).
import type { Db } from '../../prisma/database.ts';
import { Prisma, type Channel, type User } from '../../prisma/generated/client/client.ts';
import { activeUserIdsInGroup, isUserInGroup } from '../groups/membership.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { BadRequestError, StreamDoesNotExistError } from '../errors.ts';
import { exactInsensitive, reviveTimestamps } from '../rows.ts';
import type { RowCache } from '../row-cache.ts';

type Reader = Db | Prisma.TransactionClient;

export async function isSubscribed(db: Reader, userId: number, channelId: number): Promise<boolean> {
  const sub = await db.subscription.findUnique({ where: { userId_channelId: { userId, channelId } }, select: { active: true } });
  return !!sub?.active;
}

/**
 * Content access (Zulip's user_has_content_access): may read the channel's messages (subject to
 * history rules) and subscribe to it. Web-public channels are open even to guests.
 */
export async function hasContentAccess(db: Reader, user: User, channel: Channel, subscribed?: boolean): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  if (channel.isWebPublic) return true;
  const sub = subscribed ?? (await isSubscribed(db, user.id, channel.id));
  if (sub) return true;
  if (isGuest(user)) return false;
  if (!channel.inviteOnly) return true;
  return groupsGrantContentAccess(db, user, channel);
}

/**
 * Members of these groups could subscribe themselves, so they may read too (feature levels 349,
 * 357). The settings never allow the everyone group, so callers must have ruled out guests first.
 */
async function groupsGrantContentAccess(db: Reader, user: User, channel: Channel): Promise<boolean> {
  return (await isUserInGroup(db, user, channel.canSubscribeGroupId)) || isUserInGroup(db, user, channel.canAddSubscribersGroupId);
}

/** Metadata access: content access, or an administrator role for the channel or the organization. */
export async function hasMetadataAccess(db: Reader, user: User, channel: Channel, subscribed?: boolean): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  if (await hasContentAccess(db, user, channel, subscribed)) return true;
  if (isGuest(user)) return false;
  if (isAdmin(user)) return true;
  return isUserInGroup(db, user, channel.canAdministerChannelGroupId);
}

/**
 * May the user post in the channel without further ado? Zulip's access_stream_for_send_message,
 * past its can_send_message_group and archive checks: a web-public channel takes even guests'
 * messages, a public one members', and otherwise a subscriber's; the members of the groups above
 * may post without subscribing only where the history is shared (they could read it all anyway).
 */
export async function hasPostingAccess(db: Reader, user: User, channel: Channel, subscribed?: boolean): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  if (channel.isWebPublic) return true;
  if (!channel.inviteOnly && !isGuest(user)) return true;
  if (subscribed ?? (await isSubscribed(db, user.id, channel.id))) return true;
  return channel.historyPublicToSubscribers && !isGuest(user) && groupsGrantContentAccess(db, user, channel);
}

/**
 * May read the channel's whole history, or only the messages they received? Zulip's
 * can_access_stream_history, which decides whether a channel narrow reaches messages the user
 * never received: a web-public channel's history is open to everyone (guests included), a public
 * channel's to members, and otherwise shared history to whoever has content access (subscribers,
 * and the members of the groups above) while the channel is not archived (Zulip checks that
 * content access with access_stream_common, which refuses archived channels).
 */
export async function historyIsPublicTo(db: Reader, channel: Channel, user: User, subscribed?: boolean): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  if (channel.isWebPublic) return true;
  if (!channel.inviteOnly && !isGuest(user)) return true;
  return channel.historyPublicToSubscribers && !channel.isArchived && hasContentAccess(db, user, channel, subscribed);
}

/**
 * `historyIsPublicTo` for many users of one channel at once (a move's recipients): the IDs of those
 * who may read its whole history, `subscribedIds` counting as subscribed. At most two group
 * statements however many users, where one check per user would take two each.
 */
export async function usersWithReadableHistory(db: Reader, channel: Channel, users: User[], subscribedIds: ReadonlySet<number>): Promise<Set<number>> {
  const readers = new Set<number>();
  let grantees: Set<number> | undefined;
  for (const user of users) {
    if (channel.realmId !== user.realmId) continue;
    if (channel.isWebPublic || (!channel.inviteOnly && !isGuest(user))) readers.add(user.id);
    else if (!channel.historyPublicToSubscribers || channel.isArchived) continue;
    else if (subscribedIds.has(user.id)) readers.add(user.id);
    else if (channel.inviteOnly && !isGuest(user)) {
      // groupsGrantContentAccess, for everyone at once.
      grantees ??= new Set((await Promise.all([channel.canSubscribeGroupId, channel.canAddSubscribersGroupId]
        .map((groupId) => (groupId == null ? [] : activeUserIdsInGroup(db, groupId))))).flat());
      if (grantees.has(user.id)) readers.add(user.id);
    }
  }
  return readers;
}

/**
 * May the user read one message of the channel, given whether they received it? Zulip's
 * has_message_access (by message ID: fetching, reacting, flags, edit history, read receipts).
 * Stricter than `historyIsPublicTo` in two ways, as in Zulip: a guest needs a subscription even
 * in a web-public channel, and in a private channel (or for a guest) having received the message
 * is not enough without a subscription or a group granting content access. Changing the message
 * (`modifying`: editing, moving, deleting, reacting, widgets) is refused in an archived channel.
 */
export async function hasMessageAccess(
  db: Reader, user: User, channel: Channel, received: boolean, { subscribed, modifying = false }: { subscribed?: boolean; modifying?: boolean } = {},
): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  if (modifying && channel.isArchived) return false;
  if (!channel.inviteOnly && !isGuest(user)) return true;
  if (!channel.historyPublicToSubscribers && !received) return false;
  if (subscribed ?? (await isSubscribed(db, user.id, channel.id))) return true;
  return !isGuest(user) && groupsGrantContentAccess(db, user, channel);
}

/**
 * SQL for the IDs of the user's channels whose whole history they may read: `historyIsPublicTo`
 * in SQL, so narrows use it as a subquery at no statement of its own. Without `webPublic`, it is
 * `hasMessageAccess` for messages the user never received instead: a guest's web-public channels
 * count only when subscribed, and archived channels' shared history stays readable.
 */
export function readableHistoryChannelIdsSql(user: User, { webPublic = true }: { webPublic?: boolean } = {}): Prisma.Sql {
  const guest = isGuest(user);
  return Prisma.sql`SELECT c.id FROM "Channel" c
    WHERE c."realmId" = ${user.realmId}
      AND (${guest ? (webPublic ? Prisma.sql`c."isWebPublic"` : Prisma.sql`FALSE`) : Prisma.sql`NOT c."inviteOnly"`}
        OR (c."historyPublicToSubscribers" AND ${webPublic ? Prisma.sql`NOT c."isArchived" AND ` : Prisma.empty}${contentAccessSql(user)}))`;
}

/**
 * SQL condition on a message `m`: `hasMessageAccess`, for every message the user may read by ID
 * (a direct message they received, or a channel message as above). Uploads follow it: Zulip's
 * validate_attachment_request lets a user read a file linked from a message they may read.
 */
export function readableMessageSql(user: User): Prisma.Sql {
  const received = Prisma.sql`EXISTS (SELECT 1 FROM "UserMessage" um WHERE um."messageId" = m.id AND um."userId" = ${user.id})`;
  return Prisma.sql`(m."realmId" = ${user.realmId} AND CASE WHEN m."channelId" IS NULL THEN ${received}
    ELSE m."channelId" IN (SELECT c.id FROM "Channel" c WHERE c."realmId" = ${user.realmId}
      AND (${isGuest(user) ? Prisma.sql`FALSE` : Prisma.sql`NOT c."inviteOnly"`}
        OR ((c."historyPublicToSubscribers" OR ${received}) AND ${contentAccessSql(user)}))) END)`;
}

/**
 * SQL condition on a channel `c`: subscribed, or (never for guests) in a group granting content
 * access, directly or through subgroups (system groups follow roles: every user is a direct member
 * of their role's group).
 */
function contentAccessSql(user: User): Prisma.Sql {
  const subscribed = Prisma.sql`EXISTS (SELECT 1 FROM "Subscription" s WHERE s."channelId" = c.id AND s."userId" = ${user.id} AND s.active)`;
  if (isGuest(user)) return subscribed;
  const groups = Prisma.sql`WITH RECURSIVE mine(id) AS (
      SELECT g."groupId" FROM "UserGroupMember" g WHERE g."userId" = ${user.id}
      UNION
      SELECT sg."supergroupId" FROM "UserGroupSubgroup" sg JOIN mine ON sg."subgroupId" = mine.id
    ) SELECT id FROM mine`;
  return Prisma.sql`(${subscribed} OR c."canSubscribeGroupId" IN (${groups}) OR c."canAddSubscribersGroupId" IN (${groups}))`;
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
