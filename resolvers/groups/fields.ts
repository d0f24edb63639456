// GraphQL fields of the user-groups area. Rules live in the actions beside this file.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { UserGroupType, type UserGroupRecord } from '../../schema/groups.ts';
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { GroupIndex } from './group-index.ts';
import { groupInRealm, refuseGuests } from './access.ts';
import { createUserGroup } from './create.ts';
import { deactivateUserGroup } from './deactivate.ts';
import { NOTHING_TO_DO_MEMBERS, NOTHING_TO_DO_SUBGROUPS, updateGroupMembership } from './members.ts';
import { activeUserIdsInGroup, isUserInGroup } from './membership.ts';
import { subgroupIdsOf } from './subgroups.ts';
import { updateUserGroup } from './update.ts';
import { isDbId } from '../rows.ts';

const SETTING_ARGS = {
  canAddMembersGroup: 'can_add_members_group',
  canJoinGroup: 'can_join_group',
  canLeaveGroup: 'can_leave_group',
  canManageGroup: 'can_manage_group',
  canMentionGroup: 'can_mention_group',
  canRemoveMembersGroup: 'can_remove_members_group',
} as const;

function settingsFrom(args: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [arg, wire] of Object.entries(SETTING_ARGS)) if (args[arg] != null) settings[wire] = args[arg];
  return settings;
}

const groupArg = builder.args((t) => ({ userGroupId: t.int({ required: true, description: 'The group.' }) }));

/** The group a reading member (not a guest) names. */
async function groupForMember(ctx: Context, user: User, groupId: number) {
  refuseGuests(user);
  return groupInRealm(ctx.db as any, ctx.realm.id, groupId);
}

builder.queryFields((t) => ({
  userGroups: t.field({
    type: [UserGroupType],
    description: 'The organization\'s named user groups, system groups included (Zulip\'s GET /user_groups).',
    args: { includeDeactivatedGroups: t.arg.boolean({ defaultValue: false, description: 'Also list deactivated groups.' }) },
    resolve: forUser(async (ctx, user, args) => {
      refuseGuests(user);
      const index = await GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: true, viewerId: null });
      return [...index.groups.values()]
        .filter((g) => g.name !== null && (args.includeDeactivatedGroups || !g.deactivated))
        .map((g) => index.apiGroup(g) as unknown as UserGroupRecord);
    }),
  }),
  userGroupMembers: t.intList({
    description: 'IDs of the group\'s active members: direct ones, or (by default) through subgroups too.',
    args: {
      ...groupArg,
      directMemberOnly: t.arg.boolean({ defaultValue: false, description: 'Only direct members.' }),
    },
    resolve: forUser(async (ctx, user, args) => {
      const group = await groupForMember(ctx, user, args.userGroupId);
      if (!args.directMemberOnly) return (await activeUserIdsInGroup(ctx.db, group.id)).sort((a, b) => a - b);
      const rows = await ctx.db.userGroupMember.findMany({ where: { groupId: group.id, user: { isActive: true } }, select: { userId: true }, orderBy: { userId: 'asc' } });
      return rows.map((r) => r.userId);
    }),
  }),
  isUserGroupMember: t.boolean({
    description: 'Whether an active user is a member of the group (through subgroups too, unless directMemberOnly).',
    args: {
      ...groupArg,
      userId: t.arg.int({ required: true, description: 'The user.' }),
      directMemberOnly: t.arg.boolean({ defaultValue: false, description: 'Only direct membership counts.' }),
    },
    resolve: forUser(async (ctx, user, args) => {
      const group = await groupForMember(ctx, user, args.userGroupId);
      const target = isDbId(args.userId) ? await ctx.db.user.findFirst({ where: { id: args.userId, realmId: ctx.realm.id } }) : null;
      if (!target) throw new BadRequestError('No such user');
      if (!target.isActive) throw new BadRequestError('User is deactivated');
      if (!args.directMemberOnly) return isUserInGroup(ctx.db, target.id, group.id);
      return (await ctx.db.userGroupMember.count({ where: { groupId: group.id, userId: target.id } })) > 0;
    }),
  }),
  userGroupSubgroups: t.intList({
    description: 'IDs of the group\'s subgroups: direct ones, or (by default) at any depth.',
    args: {
      ...groupArg,
      directSubgroupOnly: t.arg.boolean({ defaultValue: false, description: 'Only direct subgroups.' }),
    },
    resolve: forUser(async (ctx, user, args) => {
      const group = await groupForMember(ctx, user, args.userGroupId);
      return subgroupIdsOf(ctx.db as any, group.id, args.directSubgroupOnly ?? false);
    }),
  }),
}));

const settingArg = (t: any, description: string) => t.arg({ type: 'JSON', description });

builder.mutationFields((t) => ({
  createUserGroup: t.int({
    description: 'Creates a user group; returns its ID. Absent permission settings take Zulip\'s defaults (`group_creator`: the creator alone).',
    args: {
      name: t.arg.string({ required: true, description: 'Unique name; not empty, at most 100 characters, no `role:`-like prefix.' }),
      description: t.arg.string({ required: true, description: 'The description.' }),
      members: t.arg.intList({ required: true, description: 'IDs of the initial members (active users).' }),
      subgroups: t.arg.intList({ description: 'IDs of the initial subgroups (active named groups).' }),
      canAddMembersGroup: settingArg(t, 'Group-setting value: who may add members.'),
      canJoinGroup: settingArg(t, 'Group-setting value: who may join.'),
      canLeaveGroup: settingArg(t, 'Group-setting value: who may leave.'),
      canManageGroup: settingArg(t, 'Group-setting value: who may manage the group.'),
      canMentionGroup: settingArg(t, 'Group-setting value: who may mention the group.'),
      canRemoveMembersGroup: settingArg(t, 'Group-setting value: who may remove members.'),
    },
    resolve: forUser((ctx, user, args) => createUserGroup(ctx, user, {
      name: args.name, description: args.description, members: args.members, subgroups: args.subgroups ?? null, settings: settingsFrom(args),
    })),
  }),
  updateUserGroup: t.boolean({
    description: 'Changes a group\'s name, description or permission settings, or reactivates it. Settings are update objects `{new, old?}`.',
    args: {
      ...groupArg,
      name: t.arg.string({ description: 'New name.' }),
      description: t.arg.string({ description: 'New description.' }),
      deactivated: t.arg.boolean({ description: '`false` reactivates the group; `true` does nothing.' }),
      canAddMembersGroup: settingArg(t, 'Update object for who may add members.'),
      canJoinGroup: settingArg(t, 'Update object for who may join.'),
      canLeaveGroup: settingArg(t, 'Update object for who may leave.'),
      canManageGroup: settingArg(t, 'Update object for who may manage the group.'),
      canMentionGroup: settingArg(t, 'Update object for who may mention the group.'),
      canRemoveMembersGroup: settingArg(t, 'Update object for who may remove members.'),
    },
    resolve: userAction((ctx, user, args) => updateUserGroup(ctx, user, args.userGroupId, {
      name: args.name, description: args.description, deactivated: args.deactivated, settings: settingsFrom(args),
    })),
  }),
  deactivateUserGroup: t.boolean({
    description: 'Deactivates a group that is no longer used as a subgroup or in any permission setting.',
    args: groupArg,
    resolve: userAction((ctx, user, args) => deactivateUserGroup(ctx, user, args.userGroupId)),
  }),
  updateUserGroupMembers: t.boolean({
    description: 'Adds and removes members and subgroups of a group, all or nothing.',
    args: {
      ...groupArg,
      add: t.arg.intList({ description: 'User IDs to add.' }),
      delete: t.arg.intList({ description: 'User IDs to remove.' }),
      addSubgroups: t.arg.intList({ description: 'Group IDs to add as subgroups.' }),
      deleteSubgroups: t.arg.intList({ description: 'Group IDs to remove as subgroups.' }),
    },
    resolve: userAction((ctx, user, args) => updateGroupMembership(ctx, user, args.userGroupId, args, NOTHING_TO_DO_MEMBERS)),
  }),
  updateUserGroupSubgroups: t.boolean({
    description: 'Adds and removes subgroups of a group (Zulip\'s older subgroups endpoint).',
    args: {
      ...groupArg,
      add: t.arg.intList({ description: 'Group IDs to add as subgroups.' }),
      delete: t.arg.intList({ description: 'Group IDs to remove as subgroups.' }),
    },
    resolve: userAction((ctx, user, args) => updateGroupMembership(ctx, user, args.userGroupId, { addSubgroups: args.add, deleteSubgroups: args.delete }, NOTHING_TO_DO_SUBGROUPS)),
  }),
}));
