// Who hears about a user's status or presence: every active user who can access that user. Only
// guests outside the realm's can_access_all_users_group are limited, to the people they share a
// channel subscription or a direct-message conversation with (as Zulip's
// get_user_ids_who_can_access_user).
import type { Realm } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { ROLE_GUEST } from '../users/roles.ts';

type Reader = Db | Prisma.TransactionClient;

export async function userIdsWhoCanAccess(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, targetId: number): Promise<number[]> {
  const users = await db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true, role: true, isActive: true } });
  const audience: number[] = [];
  let sharing: Set<number> | null = null;
  for (const u of users) {
    if (u.role !== ROLE_GUEST || u.id === targetId || (await isUserInGroup(db, u, realm.canAccessAllUsersGroupId))) {
      audience.push(u.id);
      continue;
    }
    sharing ??= await usersSharingWith(db, realm.id, targetId);
    if (sharing.has(u.id)) audience.push(u.id);
  }
  return audience;
}

/** May `viewer` see `targetId` at all (same realm assumed)? */
export async function canAccessUser(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, viewer: { id: number; role: number; isActive: boolean }, targetId: number): Promise<boolean> {
  if (viewer.role !== ROLE_GUEST || viewer.id === targetId) return true;
  if (await isUserInGroup(db, viewer, realm.canAccessAllUsersGroupId)) return true;
  const target = await db.user.findUnique({ where: { id: targetId }, select: { isBot: true } });
  if (target?.isBot) return true;
  return (await usersSharingWith(db, realm.id, targetId)).has(viewer.id);
}

/** Users sharing an active channel subscription or a direct-message conversation with the target. */
async function usersSharingWith(db: Reader, realmId: number, targetId: number): Promise<Set<number>> {
  const channels = await db.subscription.findMany({ where: { userId: targetId, active: true }, select: { channelId: true } });
  const [coSubscribers, coParticipants] = await Promise.all([
    channels.length
      ? db.subscription.findMany({ where: { channelId: { in: channels.map((c) => c.channelId) }, active: true }, select: { userId: true }, distinct: ['userId'] })
      : Promise.resolve([]),
    db.directConversationMember.findMany({
      where: { conversation: { realmId, members: { some: { userId: targetId } } } },
      select: { userId: true },
      distinct: ['userId'],
    }),
  ]);
  return new Set([...coSubscribers.map((r) => r.userId), ...coParticipants.map((r) => r.userId)]);
}
