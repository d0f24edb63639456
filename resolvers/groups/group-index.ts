// A realm's user groups loaded in three queries, then every group-setting value, recursive
// membership and API group record computed in memory: what register, the record builders and the
// per-request cache read instead of asking the database group by group.
import type { Db } from '../../prisma/database.ts';
import type { UserGroup } from '../../prisma/generated/client/client.ts';
import { toUnixSeconds } from '../time.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

type Json = Record<string, unknown>;

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

const GROUP_SETTINGS = [
  ['can_add_members_group', 'canAddMembersGroupId'],
  ['can_join_group', 'canJoinGroupId'],
  ['can_leave_group', 'canLeaveGroupId'],
  ['can_manage_group', 'canManageGroupId'],
  ['can_mention_group', 'canMentionGroupId'],
  ['can_remove_members_group', 'canRemoveMembersGroupId'],
] as const;

export class GroupIndex {
  readonly groups = new Map<number, UserGroup>();
  /** Direct members (active users only), by group. */
  private readonly members = new Map<number, number[]>();
  /** Direct subgroups, by group. */
  private readonly subgroups = new Map<number, number[]>();
  /** Direct supergroups, by group. */
  private readonly supergroups = new Map<number, number[]>();
  /** Groups each loaded user is a direct member of. */
  private readonly directGroupsOfUser = new Map<number, number[]>();
  private readonly recursiveCache = new Map<number, Set<number>>();

  static async load(db: Db, realmId: number, options: { allMembers: boolean; viewerId: number | null }): Promise<GroupIndex> {
    const memberWhere = options.allMembers
      ? { group: { realmId }, user: { isActive: true } }
      : {
          group: { realmId },
          user: { isActive: true },
          OR: [{ group: { name: null } }, ...(options.viewerId != null ? [{ userId: options.viewerId }] : [])],
        };
    const [groups, edges, members] = await Promise.all([
      db.userGroup.findMany({ where: { realmId }, orderBy: { id: 'asc' } }),
      db.userGroupSubgroup.findMany({ where: { supergroup: { realmId } }, select: { supergroupId: true, subgroupId: true } }),
      db.userGroupMember.findMany({ where: memberWhere, select: { groupId: true, userId: true } }),
    ]);
    const index = new GroupIndex();
    for (const group of groups) index.groups.set(group.id, group);
    for (const { supergroupId, subgroupId } of edges) {
      push(index.subgroups, supergroupId, subgroupId);
      push(index.supergroups, subgroupId, supergroupId);
    }
    for (const { groupId, userId } of members) {
      push(index.members, groupId, userId);
      push(index.directGroupsOfUser, userId, groupId);
    }
    for (const list of [...index.members.values(), ...index.subgroups.values()]) list.sort((a, b) => a - b);
    return index;
  }

  /** A group-setting value as the API shows it: a named group's ID, or an anonymous group's explicit set. */
  settingValue(groupId: number | null): GroupSettingValue {
    if (groupId == null) return { direct_members: [], direct_subgroups: [] };
    const group = this.groups.get(groupId);
    if (!group || group.name !== null) return groupId;
    return { direct_members: [...(this.members.get(groupId) ?? [])], direct_subgroups: [...(this.subgroups.get(groupId) ?? [])] };
  }

  /** The groups `userId` belongs to directly or through subgroups, at any depth (loaded users only). */
  groupsOfUser(userId: number): Set<number> {
    let result = this.recursiveCache.get(userId);
    if (result) return result;
    result = new Set<number>();
    const pending = [...(this.directGroupsOfUser.get(userId) ?? [])];
    while (pending.length) {
      const id = pending.pop()!;
      if (result.has(id)) continue;
      result.add(id);
      pending.push(...(this.supergroups.get(id) ?? []));
    }
    this.recursiveCache.set(userId, result);
    return result;
  }

  /** The system group's name for a group ID, if it is one. */
  systemName(groupId: number | null): string | null {
    if (groupId == null) return null;
    const group = this.groups.get(groupId);
    return group?.isSystemGroup ? group.name : null;
  }

  /** A named group as `realm_user_groups` lists it. */
  apiGroup(group: UserGroup): Json {
    const record: Json = {
      id: group.id,
      name: group.name,
      description: group.description,
      date_created: toUnixSeconds(group.dateCreated),
      creator_id: group.creatorId,
      members: [...(this.members.get(group.id) ?? [])],
      direct_subgroup_ids: [...(this.subgroups.get(group.id) ?? [])],
      is_system_group: group.isSystemGroup,
      deactivated: group.deactivated,
    };
    for (const [key, column] of GROUP_SETTINGS) record[key] = this.settingValue(group[column]);
    return record;
  }
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Register's `realm_user_groups`: the realm's named groups, system groups included, by ID. Anonymous
 * groups (the explicit sets behind settings) are never listed; deactivated groups only for clients
 * with the `include_deactivated_groups` capability.
 */
initialStatePart(['realm_user_groups'], async (s) => {
  const index = await s.groups();
  const withDeactivated = s.capability('include_deactivated_groups');
  const groups = [...index.groups.values()]
    .filter((g) => g.name !== null && (withDeactivated || !g.deactivated))
    .map((g) => index.apiGroup(g));
  return { realm_user_groups: groups };
});
