// The realm's default channels changed: Zulip sends the whole list (channel IDs since feature
// level 330) to everyone.
import type { Context } from '../../schema/context.ts';

export async function publishDefaultStreams(ctx: Context): Promise<void> {
  const rows = await ctx.db.defaultChannel.findMany({ where: { realmId: ctx.realm.id }, select: { channelId: true }, orderBy: { channelId: 'asc' } });
  const users = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true }, select: { id: true } });
  ctx.events.publish(ctx.realm.id, users.map((u) => u.id), { type: 'default_streams', default_streams: rows.map((r) => r.channelId) });
}
