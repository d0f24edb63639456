// User groups as GraphQL shows them: the same record as Zulip's `user_group` objects.
import { builder } from './builder.ts';

export interface UserGroupRecord {
  id: number;
  name: string;
  description: string;
  date_created: number | null;
  creator_id: number | null;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated: boolean;
  [setting: string]: unknown;
}

const setting = (t: any, key: string, description: string) =>
  t.field({
    type: 'JSON',
    description: `${description} A group-setting value: a user group ID, or \`{direct_members, direct_subgroups}\`.`,
    resolve: (g: UserGroupRecord) => g[key],
  });

export const UserGroupType = builder.objectRef<UserGroupRecord>('UserGroup').implement({
  description: 'A named user group: a system group (`role:*`) or one created by a user.',
  fields: (t) => ({
    id: t.int({ description: 'The group\'s ID.', resolve: (g) => g.id }),
    name: t.string({ description: 'The group\'s name, unique in the organization.', resolve: (g) => g.name }),
    description: t.string({ description: 'The group\'s description.', resolve: (g) => g.description }),
    dateCreated: t.int({ nullable: true, description: 'UNIX timestamp of creation.', resolve: (g) => g.date_created }),
    creatorId: t.int({ nullable: true, description: 'The user who created the group; null for system groups.', resolve: (g) => g.creator_id }),
    members: t.intList({ description: 'IDs of the active direct members.', resolve: (g) => g.members }),
    directSubgroupIds: t.intList({ description: 'IDs of the direct subgroups.', resolve: (g) => g.direct_subgroup_ids }),
    isSystemGroup: t.boolean({ description: 'True for the groups that follow roles (`role:*`).', resolve: (g) => g.is_system_group }),
    deactivated: t.boolean({ description: 'Deactivated groups cannot be mentioned or used in permissions until reactivated.', resolve: (g) => g.deactivated }),
    canAddMembersGroup: setting(t, 'can_add_members_group', 'Who may add members.'),
    canJoinGroup: setting(t, 'can_join_group', 'Who may join.'),
    canLeaveGroup: setting(t, 'can_leave_group', 'Who may leave.'),
    canManageGroup: setting(t, 'can_manage_group', 'Who may manage the group (every other permission included).'),
    canMentionGroup: setting(t, 'can_mention_group', 'Who may mention the group.'),
    canRemoveMembersGroup: setting(t, 'can_remove_members_group', 'Who may remove members.'),
  }),
});
