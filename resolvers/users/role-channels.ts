// A role change can change which channels a user may know about: a member who becomes a guest
// loses public channels they are not subscribed to; an administrator gains private ones. The user
// hears `stream create` for channels gained and `stream delete` for channels lost, as Zulip sends
// them (feature level 205).
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { hasMetadataAccess } from '../channels/access.ts';
import { channelRecord } from '../channels/wire.ts';
import { GroupIndex } from '../groups/group-index.ts';

export async function publishRoleChannelAccess(ctx: Context, user: User, oldRole: number): Promise<void> {
  const [channels, subs] = await Promise.all([
    ctx.db.channel.findMany({ where: { realmId: ctx.realm.id, isArchived: false }, orderBy: { id: 'asc' } }),
    ctx.db.subscription.findMany({ where: { userId: user.id, active: true }, select: { channelId: true } }),
  ]);
  const subscribed = new Set(subs.map((s) => s.channelId));
  const before = { ...user, role: oldRole };
  const gained = [];
  const lost = [];
  for (const channel of channels) {
    const isSub = subscribed.has(channel.id);
    const had = await hasMetadataAccess(ctx.db, before, channel, isSub);
    const has = await hasMetadataAccess(ctx.db, user, channel, isSub);
    if (has && !had) gained.push(channel);
    if (had && !has) lost.push(channel);
  }
  if (gained.length) {
    const groups = await GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: false, viewerId: null });
    ctx.events.publish(ctx.realm.id, [user.id], { type: 'stream', op: 'create', streams: gained.map((c) => channelRecord(c, groups, null)) });
  }
  if (lost.length) {
    ctx.events.publish(ctx.realm.id, [user.id], {
      type: 'stream', op: 'delete', streams: lost.map((c) => ({ stream_id: c.id })), stream_ids: lost.map((c) => c.id),
    });
  }
}
