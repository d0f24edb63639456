// System groups, kept in step with roles. They nest as Zulip's do: each includes the next more
// privileged one as a subgroup (everyone ⊃ members ⊃ full members ⊃ moderators ⊃ administrators ⊃ owners),
// and every user is a direct member of the group of their own role.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '../users/roles.ts';
import { isProvisionalMember } from './full-members.ts';

type Tx = Prisma.TransactionClient;

export const SYSTEM_GROUPS = {
  internet: 'role:internet',
  everyone: 'role:everyone',
  members: 'role:members',
  fullMembers: 'role:fullmembers',
  moderators: 'role:moderators',
  administrators: 'role:administrators',
  owners: 'role:owners',
  nobody: 'role:nobody',
} as const;

const DESCRIPTIONS: Record<string, string> = {
  'role:internet': 'Everyone on the Internet',
  'role:everyone': 'Everyone including guests',
  'role:members': 'Everyone except guests',
  'role:fullmembers': 'Members who are not new',
  'role:moderators': 'Moderators',
  'role:administrators': 'Administrators',
  'role:owners': 'Owners',
  'role:nobody': 'Nobody',
};

// Each group's direct subgroup (the next more privileged group).
const NESTING: [string, string][] = [
  ['role:internet', 'role:everyone'],
  ['role:everyone', 'role:members'],
  ['role:members', 'role:fullmembers'],
  ['role:fullmembers', 'role:moderators'],
  ['role:moderators', 'role:administrators'],
  ['role:administrators', 'role:owners'],
];

/**
 * The system groups a user of `role` is a direct member of. A member is also a direct member of
 * role:fullmembers once past the organization's waiting period (groups/full-members.ts).
 */
export function systemGroupNamesForRole(role: number, fullMember: boolean): string[] {
  switch (role) {
    case ROLE_OWNER: return ['role:owners'];
    case ROLE_ADMINISTRATOR: return ['role:administrators'];
    case ROLE_MODERATOR: return ['role:moderators'];
    case ROLE_MEMBER: return fullMember ? ['role:members', 'role:fullmembers'] : ['role:members'];
    case ROLE_GUEST: return ['role:everyone'];
    default: return [];
  }
}

export async function createSystemGroups(tx: Tx, realmId: number): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const name of Object.values(SYSTEM_GROUPS)) {
    const group = await tx.userGroup.create({
      data: { realmId, name, description: DESCRIPTIONS[name]!, isSystemGroup: true },
    });
    ids[name] = group.id;
  }
  await tx.userGroupSubgroup.createMany({
    data: NESTING.map(([sup, sub]) => ({ supergroupId: ids[sup]!, subgroupId: ids[sub]! })),
  });
  // System groups are managed by the server alone: nobody may join, leave or manage them.
  const nobody = ids['role:nobody']!;
  await tx.userGroup.updateMany({
    where: { realmId, isSystemGroup: true },
    data: {
      canAddMembersGroupId: nobody, canJoinGroupId: nobody, canLeaveGroupId: nobody,
      canManageGroupId: nobody, canMentionGroupId: ids['role:everyone']!, canRemoveMembersGroupId: nobody,
    },
  });
  return ids;
}

export async function systemGroupIds(tx: Tx, realmId: number): Promise<Record<string, number>> {
  const groups = await tx.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true } });
  return Object.fromEntries(groups.map((g) => [g.name!, g.id]));
}

/**
 * Puts the user in the system groups of their role (and the waiting period), and only those; the
 * system groups they left and joined, for the caller's `user_group` events.
 */
export async function syncRoleGroups(tx: Tx, realmId: number, userId: number, role: number): Promise<{ left: number[]; joined: number[] }> {
  const ids = await systemGroupIds(tx, realmId);
  const [user, realm, current] = await Promise.all([
    tx.user.findUniqueOrThrow({ where: { id: userId }, select: { dateJoined: true } }),
    tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { waitingPeriodThreshold: true } }),
    tx.userGroupMember.findMany({ where: { userId, group: { realmId, isSystemGroup: true } }, select: { groupId: true } }),
  ]);
  const fullMember = !isProvisionalMember(user.dateJoined, realm.waitingPeriodThreshold);
  const wanted = new Set(systemGroupNamesForRole(role, fullMember).map((name) => ids[name]!));
  const present = new Set(current.map((m) => m.groupId));
  const left = [...present].filter((id) => !wanted.has(id));
  const joined = [...wanted].filter((id) => !present.has(id));
  if (left.length) await tx.userGroupMember.deleteMany({ where: { userId, groupId: { in: left } } });
  if (joined.length) await tx.userGroupMember.createMany({ data: joined.map((groupId) => ({ groupId, userId })), skipDuplicates: true });
  return { left, joined };
}
