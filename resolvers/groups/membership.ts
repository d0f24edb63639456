// Permission checks are decided by recursive group membership: a user holds a group-setting
// permission when they are a direct member of the setting's group or of any of its subgroups,
// at any depth. One recursive query answers each question.
import type { Db } from '../../prisma/database.ts';
import { Prisma } from '../../prisma/generated/client/client.ts';
import { ROLE_ADMINISTRATOR, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '../users/roles.ts';

type Reader = Db | Prisma.TransactionClient;

/** `closure(id)`: the group and all its subgroups, at any depth. */
function closureOf(groupId: number): Prisma.Sql {
  return Prisma.sql`WITH RECURSIVE closure(id) AS (
      SELECT ${groupId}::int
      UNION
      SELECT s."subgroupId" FROM "UserGroupSubgroup" s JOIN closure c ON s."supergroupId" = c.id
    )`;
}

/** IDs of the group and all its subgroups, at any depth. */
export async function groupClosure(db: Reader, groupId: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>`${closureOf(groupId)} SELECT id FROM closure`;
  return rows.map((r) => r.id);
}

// Whether a group is a system group, and which: a group's kind never changes, so this is
// remembered for the life of the process.
const systemGroupNameById = new Map<number, string | null>();

async function systemGroupName(db: Reader, groupId: number): Promise<string | null> {
  let name = systemGroupNameById.get(groupId);
  if (name === undefined) {
    const group = await db.userGroup.findUnique({ where: { id: groupId }, select: { name: true, isSystemGroup: true } });
    name = group?.isSystemGroup ? group.name : null;
    if (systemGroupNameById.size > 100_000) systemGroupNameById.clear();
    systemGroupNameById.set(groupId, name);
  }
  return name;
}

/**
 * System groups follow roles (see groups/system.ts), so membership is a role comparison, except a
 * member's full membership, which follows the waiting period and is read from the group (null).
 */
function roleHoldsSystemGroup(role: number, name: string): boolean | null {
  switch (name) {
    case 'role:internet':
    case 'role:everyone': return true;
    case 'role:members': return role <= ROLE_MEMBER;
    case 'role:fullmembers': return role < ROLE_MEMBER ? true : role === ROLE_MEMBER ? null : false;
    case 'role:moderators': return role <= ROLE_MODERATOR;
    case 'role:administrators': return role <= ROLE_ADMINISTRATOR;
    case 'role:owners': return role <= ROLE_OWNER;
    default: return false;
  }
}

export interface Member {
  id: number;
  role: number;
  isActive: boolean;
}

/**
 * Does the user hold the permission this group grants? Pass the user row (not just an ID) to let
 * system groups, the common case, be answered from the role without a recursive query.
 */
export async function isUserInGroup(db: Reader, user: number | Member, groupId: number | null | undefined): Promise<boolean> {
  if (groupId == null) return false;
  if (typeof user === 'object') {
    if (!user.isActive) return false;
    const name = await systemGroupName(db, groupId);
    const holds = name ? roleHoldsSystemGroup(user.role, name) : null;
    if (holds !== null) return holds;
  }
  const userId = typeof user === 'number' ? user : user.id;
  const rows = await db.$queryRaw<{ found: number }[]>`
    ${closureOf(groupId)}
    SELECT 1 AS found FROM "UserGroupMember" m
    JOIN "User" u ON u.id = m."userId" AND u."isActive"
    WHERE m."userId" = ${userId} AND m."groupId" IN (SELECT id FROM closure)
    LIMIT 1`;
  return rows.length > 0;
}

/** Active users holding the group's permission (recursive). */
export async function activeUserIdsInGroup(db: Reader, groupId: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ userId: number }[]>`
    ${closureOf(groupId)}
    SELECT DISTINCT m."userId" FROM "UserGroupMember" m
    JOIN "User" u ON u.id = m."userId" AND u."isActive"
    WHERE m."groupId" IN (SELECT id FROM closure)`;
  return rows.map((r) => r.userId);
}

/** Creates the anonymous group backing one setting's explicit set. */
export async function createAnonymousGroup(
  tx: Prisma.TransactionClient, realmId: number, memberIds: number[], subgroupIds: number[] = [],
): Promise<number> {
  const group = await tx.userGroup.create({ data: { realmId, name: null } });
  if (memberIds.length) await tx.userGroupMember.createMany({ data: memberIds.map((userId) => ({ groupId: group.id, userId })) });
  if (subgroupIds.length) await tx.userGroupSubgroup.createMany({ data: subgroupIds.map((subgroupId) => ({ supergroupId: group.id, subgroupId })) });
  return group.id;
}
