// Who hears about changes to a user: every active user who may access them. Guests limited by the
// realm's `can_access_all_users_group` see only users they share a channel or a conversation with
// (and bots), as in the register response (initial-state/state.ts).
import type { Db } from '../../prisma/database.ts';
import type { Prisma, Realm } from '../../prisma/generated/client/client.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { ROLE_GUEST } from './roles.ts';

type Reader = Db | Prisma.TransactionClient;

/** Active users of the realm who may access `target` (the target included when active). */
export async function usersWhoCanAccess(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, target: { id: number; isBot: boolean }): Promise<number[]> {
  const users = await db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true, role: true, isActive: true } });
  const guests = users.filter((u) => u.role === ROLE_GUEST && u.id !== target.id);
  const allowed = new Set(users.filter((u) => u.role !== ROLE_GUEST || u.id === target.id).map((u) => u.id));
  if (guests.length && !target.isBot) {
    const [channelPeers, conversationPeers] = await Promise.all([
      db.subscription.findMany({
        where: { active: true, isUserActive: true, channel: { subscriptions: { some: { userId: target.id, active: true } } } },
        select: { userId: true }, distinct: ['userId'],
      }),
      db.directConversationMember.findMany({
        where: { conversation: { realmId: realm.id, members: { some: { userId: target.id } } } },
        select: { userId: true }, distinct: ['userId'],
      }),
    ]);
    const peers = new Set([...channelPeers, ...conversationPeers].map((r) => r.userId));
    for (const guest of guests) {
      if (peers.has(guest.id) || (await isUserInGroup(db, guest, realm.canAccessAllUsersGroupId))) allowed.add(guest.id);
    }
  } else {
    for (const guest of guests) allowed.add(guest.id);
  }
  return [...allowed].sort((a, b) => a - b);
}

/** Every active user of the realm. */
export async function activeUserIds(db: Reader, realmId: number): Promise<number[]> {
  return (await db.user.findMany({ where: { realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);
}

/** Who administers a bot (and hears `realm_bot` events): active administrators and its owner. */
export async function botAdministrators(db: Reader, realmId: number, bot: { botOwnerId: number | null }): Promise<number[]> {
  const users = await db.user.findMany({
    where: { realmId, isActive: true, OR: [{ role: { lte: 200 } }, ...(bot.botOwnerId ? [{ id: bot.botOwnerId }] : [])] },
    select: { id: true }, orderBy: { id: 'asc' },
  });
  return users.map((u) => u.id);
}
