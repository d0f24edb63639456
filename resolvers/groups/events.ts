// `user_group` events, published after commit to every active user of the organization (Zulip's
// notify_* functions in zerver/actions/user_groups.py). Deactivation and reactivation are sent as
// `update` events carrying the group's record, so that the tailoring below can turn them into
// `remove`/`add` for clients without the `include_deactivated_groups` capability.
import type { Context } from '../../schema/context.ts';
import type { Json } from '../events/initial-state/state.ts';
import { GroupIndex } from './group-index.ts';
import { tailorEvents, type EventBody, type WireEvent } from '../events/kinds.ts';


async function realmAudience(ctx: Context): Promise<number[]> {
  const users = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true }, select: { id: true } });
  return users.map((u) => u.id);
}

/** A named group's record as GET /user_groups and `user_group add` show it. */
export async function groupRecord(ctx: Context, groupId: number): Promise<Json> {
  const index = await GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: true, viewerId: null });
  return index.apiGroup(index.groups.get(groupId)!);
}

export async function publishGroupEvents(ctx: Context, events: GroupEventBody[]): Promise<void> {
  if (!events.length) return;
  const audience = await realmAudience(ctx);
  for (const event of events) ctx.events.publish(ctx.realm.id, audience, { type: 'user_group', ...event } as UserGroupEvent);
}


export type UserGroupEvent =
  | { type: 'user_group'; op: 'add'; group: Json }
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | UserGroupUpdateEvent
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

export interface UserGroupUpdateEvent {
  type: 'user_group';
  op: 'update';
  group_id: number;
  data: Json;
  /**
   * On deactivation and reactivation: the group's record, for clients without the
   * `include_deactivated_groups` capability (to them the group is removed, then added back).
   * Removed before delivery.
   */
  group_record?: Json | null;
}

/** A `user_group` event without its type: what the group actions collect. */
export type GroupEventBody = EventBody<UserGroupEvent>;

declare module '../events/kinds.ts' {
  interface EventKinds {
    user_group: UserGroupEvent;
  }
}

tailorEvents('user_group', (event, queue) => {
  if (event.op !== 'update' || !('group_record' in event)) return [event as WireEvent];
  const { group_record: record, ...update } = event;
  if (queue.options.capabilities.include_deactivated_groups) return [update];
  return update.data.deactivated ? [{ type: 'user_group', op: 'remove', group_id: update.group_id }] : [{ type: 'user_group', op: 'add', group: record }];
});
