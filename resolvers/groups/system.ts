// System groups, kept in step with roles. They nest as Zulip's do: each includes the next more
// privileged one as a subgroup (everyone ⊃ members ⊃ full members ⊃ moderators ⊃ administrators ⊃ owners),
// and every user is a direct member of the group of their own role.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '../users/roles.ts';

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

export type SystemGroupKey = keyof typeof SYSTEM_GROUPS;

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

/** The system groups a user of `role` is a direct member of. */
export function systemGroupNamesForRole(role: number): string[] {
  switch (role) {
    case ROLE_OWNER: return ['role:owners'];
    case ROLE_ADMINISTRATOR: return ['role:administrators'];
    case ROLE_MODERATOR: return ['role:moderators'];
    // Full membership follows the waiting period, which Parley's realms start at zero days.
    case ROLE_MEMBER: return ['role:members', 'role:fullmembers'];
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

/** Puts the user in the system groups of their role, and only those. */
export async function syncRoleGroups(tx: Tx, realmId: number, userId: number, role: number): Promise<void> {
  const ids = await systemGroupIds(tx, realmId);
  const wanted = new Set(systemGroupNamesForRole(role).map((name) => ids[name]!));
  await tx.userGroupMember.deleteMany({
    where: { userId, group: { realmId, isSystemGroup: true }, groupId: { notIn: [...wanted] } },
  });
  await tx.userGroupMember.createMany({
    data: [...wanted].map((groupId) => ({ groupId, userId })),
    skipDuplicates: true,
  });
}
