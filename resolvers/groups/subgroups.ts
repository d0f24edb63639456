// Subgroup edges: which groups may become subgroups, and the cycle check (Zulip's
// lock_subgroups_with_respect_to_supergroup and add_subgroups_to_group_backend).
import { Prisma } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { isDbId } from '../rows.ts';
import { groupClosure } from './membership.ts';

type Tx = Prisma.TransactionClient;

/** Named, active groups of the realm, in the order given (duplicates dropped). */
export async function accessSubgroups(tx: Tx, realmId: number, groupIds: number[]): Promise<number[]> {
  const groups = groupIds.every(isDbId)
    ? await tx.userGroup.findMany({ where: { realmId, id: { in: groupIds }, name: { not: null } }, select: { id: true, deactivated: true } })
    : [];
  const missing = groupIds.find((id) => !groups.some((g) => g.id === id));
  if (missing !== undefined) throw new BadRequestError(`Invalid user group ID: ${missing}`);
  if (groups.some((g) => g.deactivated)) throw new BadRequestError('User group is deactivated.');
  return [...new Set(groupIds)];
}

/** Refuses edges that would make `supergroupId` its own (indirect) subgroup. */
export async function refuseCycles(tx: Tx, supergroupId: number, subgroupIds: number[]): Promise<void> {
  for (const subgroupId of subgroupIds) {
    if ((await groupClosure(tx, subgroupId)).includes(supergroupId)) {
      throw new BadRequestError(`User group ${supergroupId} is already a subgroup of one of the passed subgroups.`);
    }
  }
}

/** Strict subgroups (at any depth, or direct only) of a group. */
export async function subgroupIdsOf(tx: Tx, groupId: number, directOnly: boolean): Promise<number[]> {
  if (directOnly) {
    const rows = await tx.userGroupSubgroup.findMany({ where: { supergroupId: groupId }, select: { subgroupId: true }, orderBy: { subgroupId: 'asc' } });
    return rows.map((r) => r.subgroupId);
  }
  return (await groupClosure(tx, groupId)).filter((id) => id !== groupId).sort((a, b) => a - b);
}

/**
 * Locks the supergroup and every group under the given subgroups, in ID order, before subgroup
 * edges change: two concurrent changes that could close a cycle between them always share a
 * locked group, so the second one sees the first's edge (Zulip's lock_subgroups_with_respect_to_supergroup).
 */
export async function lockForSubgroupChange(tx: Tx, supergroupId: number, subgroupIds: number[]): Promise<void> {
  const ids = new Set([supergroupId]);
  for (const id of subgroupIds) for (const sub of await groupClosure(tx, id)) ids.add(sub);
  await tx.$queryRaw`SELECT id FROM "UserGroup" WHERE id IN (${Prisma.join([...ids])}) ORDER BY id FOR UPDATE`;
}
