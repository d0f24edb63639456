// User groups.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const groupRoutes: Route[] = [
  { method: 'POST', path: '/user_groups/create', field: 'createUserGroup', shape: (id) => ({ group_id: id }) },
  {
    method: 'GET', path: '/user_groups', field: 'userGroups',
    select: 'id name description dateCreated creatorId members directSubgroupIds isSystemGroup deactivated canAddMembersGroup canJoinGroup canLeaveGroup canManageGroup canMentionGroup canRemoveMembersGroup',
    shape: (groups) => ({ user_groups: snakeKeys(groups) }),
  },
  { method: 'PATCH', path: '/user_groups/{user_group_id}', field: 'updateUserGroup' },
  { method: 'POST', path: '/user_groups/{user_group_id}/deactivate', field: 'deactivateUserGroup' },
  { method: 'POST', path: '/user_groups/{user_group_id}/members', field: 'updateUserGroupMembers' },
  { method: 'GET', path: '/user_groups/{user_group_id}/members', field: 'userGroupMembers', shape: (members) => ({ members }) },
  {
    method: 'GET', path: '/user_groups/{user_group_id}/members/{user_id}', field: 'isUserGroupMember',
    shape: (member) => ({ is_user_group_member: member }),
  },
  { method: 'POST', path: '/user_groups/{user_group_id}/subgroups', field: 'updateUserGroupSubgroups' },
  { method: 'GET', path: '/user_groups/{user_group_id}/subgroups', field: 'userGroupSubgroups', shape: (subgroups) => ({ subgroups }) },
];
