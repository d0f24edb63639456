// POST /user_groups/{id}/members and the legacy POST /user_groups/{id}/subgroups: Zulip's
// update_user_group_backend and update_subgroups_of_user_group. All four changes run in one
// transaction in Zulip's order (add, delete, add_subgroups, delete_subgroups); the first refusal
// undoes everything.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { accessGroupForUpdate, activeUsersByIds, refuseGuests } from './access.ts';
import { publishGroupEvents, type GroupEventBody } from './events.ts';
import { accessSubgroups, lockForSubgroupChange, refuseCycles } from './subgroups.ts';

type Tx = Prisma.TransactionClient;

export interface MembershipChange {
  add?: number[] | null;
  delete?: number[] | null;
  addSubgroups?: number[] | null;
  deleteSubgroups?: number[] | null;
}

export const NOTHING_TO_DO_MEMBERS = 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".';
export const NOTHING_TO_DO_SUBGROUPS = 'Nothing to do. Specify at least one of "add" or "delete".';

interface Outcome {
  events: GroupEventBody[];
  groupName: string;
  added: number[];
  removed: number[];
}

async function addMembers(tx: Tx, ctx: Context, actor: User, groupId: number, userIds: number[], out: Outcome) {
  // Joining oneself needs can_join_group, or the right to add anyone.
  const self = userIds.length === 1 && userIds[0] === actor.id;
  const group = await accessGroupForUpdate(tx, ctx.realm, actor, groupId, self ? ['can_join_group', 'can_add_members_group'] : 'can_add_members_group', { allowDeactivated: true });
  const users = await activeUsersByIds(tx, ctx.realm.id, userIds);
  const existing = new Set((await tx.userGroupMember.findMany({ where: { groupId, userId: { in: users } }, select: { userId: true } })).map((m) => m.userId));
  const already = users.find((id) => existing.has(id));
  if (already !== undefined) throw new BadRequestError(`User ${already} is already a member of this group`);
  await tx.userGroupMember.createMany({ data: users.map((userId) => ({ groupId, userId })), skipDuplicates: true });
  out.groupName = group.name!;
  out.added.push(...users);
  out.events.push({ op: 'add_members', group_id: groupId, user_ids: users });
}

async function removeMembers(tx: Tx, ctx: Context, actor: User, groupId: number, userIds: number[], out: Outcome) {
  const users = await activeUsersByIds(tx, ctx.realm.id, userIds);
  // Leaving oneself needs can_leave_group, or the right to remove anyone.
  const self = userIds.length === 1 && userIds[0] === actor.id;
  const group = await accessGroupForUpdate(tx, ctx.realm, actor, groupId, self ? ['can_leave_group', 'can_remove_members_group'] : 'can_remove_members_group', { allowDeactivated: true });
  const direct = new Set((await tx.userGroupMember.findMany({ where: { groupId, user: { isActive: true } }, select: { userId: true } })).map((m) => m.userId));
  const missing = userIds.find((id) => !direct.has(id));
  if (missing !== undefined) throw new BadRequestError(`There is no member '${missing}' in this user group`);
  await tx.userGroupMember.deleteMany({ where: { groupId, userId: { in: users } } });
  out.groupName = group.name!;
  out.removed.push(...users);
  out.events.push({ op: 'remove_members', group_id: groupId, user_ids: users });
}

async function addSubgroups(tx: Tx, ctx: Context, actor: User, groupId: number, subgroupIds: number[], out: Outcome) {
  const subgroups = await accessSubgroups(tx, ctx.realm.id, subgroupIds);
  await accessGroupForUpdate(tx, ctx.realm, actor, groupId, 'can_add_members_group', { allowDeactivated: true });
  await lockForSubgroupChange(tx, groupId, subgroups);
  const existing = new Set((await tx.userGroupSubgroup.findMany({ where: { supergroupId: groupId }, select: { subgroupId: true } })).map((s) => s.subgroupId));
  const already = subgroups.find((id) => existing.has(id));
  if (already !== undefined) throw new BadRequestError(`User group ${already} is already a subgroup of this group.`);
  await refuseCycles(tx, groupId, subgroups);
  await tx.userGroupSubgroup.createMany({ data: subgroups.map((subgroupId) => ({ supergroupId: groupId, subgroupId })), skipDuplicates: true });
  out.events.push({ op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: subgroups });
}

async function removeSubgroups(tx: Tx, ctx: Context, actor: User, groupId: number, subgroupIds: number[], out: Outcome) {
  const subgroups = await accessSubgroups(tx, ctx.realm.id, subgroupIds);
  // Zulip asks for the right to manage the group here, not can_remove_members_group.
  await accessGroupForUpdate(tx, ctx.realm, actor, groupId, 'can_manage_group', { allowDeactivated: true });
  const existing = new Set((await tx.userGroupSubgroup.findMany({ where: { supergroupId: groupId }, select: { subgroupId: true } })).map((s) => s.subgroupId));
  const missing = subgroups.find((id) => !existing.has(id));
  if (missing !== undefined) throw new BadRequestError(`User group ${missing} is not a subgroup of this group.`);
  await tx.userGroupSubgroup.deleteMany({ where: { supergroupId: groupId, subgroupId: { in: subgroups } } });
  out.events.push({ op: 'remove_subgroups', group_id: groupId, direct_subgroup_ids: subgroups });
}

export async function updateGroupMembership(
  ctx: Context, actor: User, groupId: number, change: MembershipChange, nothingToDo: string,
): Promise<void> {
  refuseGuests(actor);
  const { add, delete: del, addSubgroups: addSub, deleteSubgroups: delSub } = change;
  if (!add?.length && !del?.length && !addSub?.length && !delSub?.length) throw new BadRequestError(nothingToDo);
  const out: Outcome = { events: [], groupName: '', added: [], removed: [] };
  await ctx.db.$transaction(async (tx) => {
    if (add?.length) await addMembers(tx, ctx, actor, groupId, add, out);
    if (del?.length) await removeMembers(tx, ctx, actor, groupId, del, out);
    if (addSub?.length) await addSubgroups(tx, ctx, actor, groupId, addSub, out);
    if (delSub?.length) await removeSubgroups(tx, ctx, actor, groupId, delSub, out);
  });
  await publishGroupEvents(ctx, out.events);
  await notifyMembershipChanges(ctx, actor, out);
}

/** Zulip tells people (not bots, not the actor) that someone else added or removed them. */
async function notifyMembershipChanges(ctx: Context, actor: User, out: Outcome): Promise<void> {
  const ids = [...out.added, ...out.removed].filter((id) => id !== actor.id);
  if (!ids.length) return;
  const humans = new Set((await ctx.db.user.findMany({ where: { id: { in: ids }, isBot: false }, select: { id: true } })).map((u) => u.id));
  const who = `@_**${actor.fullName}|${actor.id}**`;
  for (const [list, verb] of [[out.added, 'added you to'], [out.removed, 'removed you from']] as const) {
    for (const userId of list) {
      if (userId === actor.id || !humans.has(userId)) continue;
      await sendAsNotificationBot(ctx, { userIds: [userId] }, `${who} ${verb} the group @_*${out.groupName}*.`);
    }
  }
}
