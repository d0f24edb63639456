// `user_group` events, published after commit to every active user of the organization (Zulip's
// notify_* functions in zerver/actions/user_groups.py). Deactivation and reactivation are sent as
// `update` events carrying the group's record, so that resolvers/events/shape.ts can turn them
// into `remove`/`add` for clients without the `include_deactivated_groups` capability.
import type { Context } from '../../schema/context.ts';
import type { Json } from '../events/initial-state/state.ts';
import { GroupIndex } from '../events/initial-state/groups.ts';

/** Private key on deactivation/reactivation events: the group's record, removed before delivery. */
export const GROUP_RECORD_KEY = 'group_record';

export async function realmAudience(ctx: Context): Promise<number[]> {
  const users = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true }, select: { id: true } });
  return users.map((u) => u.id);
}

/** A named group's record as GET /user_groups and `user_group add` show it. */
export async function groupRecord(ctx: Context, groupId: number): Promise<Json> {
  const index = await GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: true, viewerId: null });
  return index.apiGroup(index.groups.get(groupId)!);
}

export async function publishGroupEvents(ctx: Context, events: Record<string, unknown>[]): Promise<void> {
  if (!events.length) return;
  const audience = await realmAudience(ctx);
  for (const event of events) ctx.events.publish(ctx.realm.id, audience, { type: 'user_group', ...event });
}
