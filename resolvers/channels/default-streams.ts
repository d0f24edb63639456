// Default channels: the channels every new user is subscribed to (Zulip's zerver/actions/
// default_streams.py and the /default_streams views). Administrators add public channels and
// remove any; each change sends the whole list (channel IDs since feature level 330) to the
// organization's active members (guests get neither the list nor its changes).
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { isAdmin, ROLE_GUEST } from '../users/roles.ts';
import { inTransaction } from '../transaction.ts';
import { hasContentAccess, hasMetadataAccess } from './access.ts';

/** The realm's default channels, by ID (archived channels are never defaults). */
export async function defaultChannelIds(ctx: Pick<Context, 'db' | 'realm'>): Promise<number[]> {
  const rows = await ctx.db.defaultChannel.findMany({
    where: { realmId: ctx.realm.id, channel: { isArchived: false } },
    select: { channelId: true },
    orderBy: { channelId: 'asc' },
  });
  return rows.map((r) => r.channelId);
}

/** Zulip's notify_default_streams: the new list to every active member who is not a guest. */
export async function publishDefaultStreams(ctx: Context): Promise<void> {
  const ids = await defaultChannelIds(ctx);
  const users = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, role: { not: ROLE_GUEST } }, select: { id: true } });
  ctx.events.publish(ctx.realm.id, users.map((u) => u.id), { type: 'default_streams', default_streams: ids });
}

function checkCanManage(actor: User): void {
  // Zulip's can_manage_default_streams: organization administrators.
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
}

/** A channel the actor may name here: existing, active, in the realm, and accessible (else it is "invalid", like a missing one). */
async function accessActiveChannel(ctx: Context, actor: User, channelId: number, needContent: boolean) {
  const channel = await ctx.db.channel.findFirst({ where: { id: channelId, realmId: ctx.realm.id } });
  const visible = channel && !channel.isArchived
    && (needContent ? await hasContentAccess(ctx.db, actor, channel) : await hasMetadataAccess(ctx.db, actor, channel));
  if (!visible) throw new BadRequestError('Invalid channel ID');
  return channel;
}

export async function addDefaultChannel(ctx: Context, actor: User, channelId: number): Promise<void> {
  checkCanManage(actor);
  const channel = await accessActiveChannel(ctx, actor, channelId, true);
  if (channel.inviteOnly) throw new BadRequestError('Private channels cannot be made default.');
  await inTransaction(ctx, async (tx) => {
    const created = await tx.db.defaultChannel.createMany({ data: [{ realmId: ctx.realm.id, channelId: channel.id }], skipDuplicates: true });
    if (created.count) await publishDefaultStreams(tx);
  });
}

export async function removeDefaultChannel(ctx: Context, actor: User, channelId: number): Promise<void> {
  checkCanManage(actor);
  const channel = await accessActiveChannel(ctx, actor, channelId, false);
  await inTransaction(ctx, async (tx) => {
    const removed = await tx.db.defaultChannel.deleteMany({ where: { realmId: ctx.realm.id, channelId: channel.id } });
    if (removed.count) await publishDefaultStreams(tx);
  });
}
