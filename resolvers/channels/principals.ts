// Resolving `principals` (user IDs or API emails) to active users of the realm.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { exactInsensitive, isDbId } from '../rows.ts';

/** The `principals` argument (JSON): absent, or a list of user IDs and API emails. */
export function principalList(raw: unknown): (number | string)[] | null {
  if (raw == null) return null;
  if (!Array.isArray(raw) || !raw.every((p) => typeof p === 'number' || typeof p === 'string')) throw new BadRequestError('Invalid principals');
  return raw as (number | string)[];
}

export async function resolvePrincipals(tx: Prisma.TransactionClient, realmId: number, principals: (number | string)[]): Promise<User[]> {
  const users: User[] = [];
  for (const principal of principals) {
    const user = typeof principal === 'number'
      ? !isDbId(principal) ? null : await tx.user.findFirst({ where: { id: principal, realmId } })
      : await tx.user.findFirst({ where: { realmId, email: exactInsensitive(principal) } });
    // Unknown and deactivated principals get the same answer (400 since feature level 208).
    if (!user || !user.isActive) {
      throw new BadRequestError(typeof principal === 'number' ? `No such user` : `No such user`);
    }
    if (!users.some((u) => u.id === user.id)) users.push(user);
  }
  return users;
}
