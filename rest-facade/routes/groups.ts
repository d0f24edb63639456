// User groups.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

const GROUP_FIELDS = 'id name description dateCreated creatorId members directSubgroupIds isSystemGroup deactivated canAddMembersGroup canJoinGroup canLeaveGroup canManageGroup canMentionGroup canRemoveMembersGroup';

const SETTINGS = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'];
const settingParams = Object.fromEntries(SETTINGS.map((s) => [s, { type: 'json' as const }]));
const settingVars = '$canAddMembersGroup: JSON, $canJoinGroup: JSON, $canLeaveGroup: JSON, $canManageGroup: JSON, $canMentionGroup: JSON, $canRemoveMembersGroup: JSON';
const settingArgs = 'canAddMembersGroup: $canAddMembersGroup, canJoinGroup: $canJoinGroup, canLeaveGroup: $canLeaveGroup, canManageGroup: $canManageGroup, canMentionGroup: $canMentionGroup, canRemoveMembersGroup: $canRemoveMembersGroup';
const groupId = { user_group_id: { type: 'int' as const, in: 'path' as const, required: true } };

export const groupRoutes: Route[] = [
  {
    method: 'POST', path: '/user_groups/create',
    params: {
      name: { type: 'string', required: true },
      description: { type: 'string', required: true },
      members: { type: 'intList', required: true },
      subgroups: { type: 'intList' },
      ...settingParams,
    },
    document: `mutation($name: String!, $description: String!, $members: [Int!]!, $subgroups: [Int!], ${settingVars}) {
      createUserGroup(name: $name, description: $description, members: $members, subgroups: $subgroups, ${settingArgs}) }`,
    shape: (d) => ({ group_id: d.createUserGroup }),
  },
  {
    method: 'GET', path: '/user_groups',
    params: { include_deactivated_groups: { type: 'bool', default: false } },
    document: `query($includeDeactivatedGroups: Boolean) { userGroups(includeDeactivatedGroups: $includeDeactivatedGroups) { ${GROUP_FIELDS} } }`,
    shape: (d) => ({ user_groups: snakeKeys(d.userGroups) }),
  },
  {
    method: 'PATCH', path: '/user_groups/{user_group_id}',
    params: { ...groupId, name: { type: 'string' }, description: { type: 'string' }, deactivated: { type: 'bool' }, ...settingParams },
    document: `mutation($userGroupId: Int!, $name: String, $description: String, $deactivated: Boolean, ${settingVars}) {
      updateUserGroup(userGroupId: $userGroupId, name: $name, description: $description, deactivated: $deactivated, ${settingArgs}) }`,
  },
  {
    method: 'POST', path: '/user_groups/{user_group_id}/deactivate',
    params: groupId,
    document: 'mutation($userGroupId: Int!) { deactivateUserGroup(userGroupId: $userGroupId) }',
  },
  {
    method: 'POST', path: '/user_groups/{user_group_id}/members',
    params: { ...groupId, add: { type: 'intList' }, delete: { type: 'intList' }, add_subgroups: { type: 'intList' }, delete_subgroups: { type: 'intList' } },
    document: `mutation($userGroupId: Int!, $add: [Int!], $delete: [Int!], $addSubgroups: [Int!], $deleteSubgroups: [Int!]) {
      updateUserGroupMembers(userGroupId: $userGroupId, add: $add, delete: $delete, addSubgroups: $addSubgroups, deleteSubgroups: $deleteSubgroups) }`,
  },
  {
    method: 'GET', path: '/user_groups/{user_group_id}/members',
    params: { ...groupId, direct_member_only: { type: 'bool', default: false } },
    document: 'query($userGroupId: Int!, $directMemberOnly: Boolean) { userGroupMembers(userGroupId: $userGroupId, directMemberOnly: $directMemberOnly) }',
    shape: (d) => ({ members: d.userGroupMembers }),
  },
  {
    method: 'GET', path: '/user_groups/{user_group_id}/members/{user_id}',
    params: { ...groupId, user_id: { type: 'int', in: 'path', required: true }, direct_member_only: { type: 'bool', default: false } },
    document: 'query($userGroupId: Int!, $userId: Int!, $directMemberOnly: Boolean) { isUserGroupMember(userGroupId: $userGroupId, userId: $userId, directMemberOnly: $directMemberOnly) }',
    shape: (d) => ({ is_user_group_member: d.isUserGroupMember }),
  },
  {
    method: 'POST', path: '/user_groups/{user_group_id}/subgroups',
    params: { ...groupId, add: { type: 'intList' }, delete: { type: 'intList' } },
    document: 'mutation($userGroupId: Int!, $add: [Int!], $delete: [Int!]) { updateUserGroupSubgroups(userGroupId: $userGroupId, add: $add, delete: $delete) }',
  },
  {
    method: 'GET', path: '/user_groups/{user_group_id}/subgroups',
    params: { ...groupId, direct_subgroup_only: { type: 'bool', default: false } },
    document: 'query($userGroupId: Int!, $directSubgroupOnly: Boolean) { userGroupSubgroups(userGroupId: $userGroupId, directSubgroupOnly: $directSubgroupOnly) }',
    shape: (d) => ({ subgroups: d.userGroupSubgroups }),
  },
];
