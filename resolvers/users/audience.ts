// Who hears about changes to a user: every active user who may access them. Guests limited by the
// realm's `can_access_all_users_group` see only users they share a channel or a conversation with
// (and bots), as in the register response (initial-state/state.ts).
import type { Db } from '../../prisma/database.ts';
import type { Prisma, Realm } from '../../prisma/generated/client/client.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { ROLE_ADMINISTRATOR, ROLE_GUEST } from './roles.ts';

type Reader = Db | Prisma.TransactionClient;

/** Who may access `target`, and why the guests among them may. */
export interface Access {
  /** Active users who may access the target (the target included when active). */
  userIds: number[];
  /** Guests without access to everyone who see the target only through a shared channel. */
  throughChannelsOnly: Set<number>;
}

/** Active users of the realm who may access `target` (the target included when active). */
export async function usersWhoCanAccess(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, target: { id: number; isBot: boolean }): Promise<number[]> {
  return (await accessToUser(db, realm, target)).userIds;
}

export async function accessToUser(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, target: { id: number; isBot: boolean }): Promise<Access> {
  const users = await db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true, role: true, isActive: true } });
  const guests = users.filter((u) => u.role === ROLE_GUEST && u.id !== target.id);
  const allowed = new Set(users.filter((u) => u.role !== ROLE_GUEST || u.id === target.id).map((u) => u.id));
  const throughChannelsOnly = new Set<number>();
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
    const byChannel = new Set(channelPeers.map((r) => r.userId));
    const byConversation = new Set(conversationPeers.map((r) => r.userId));
    for (const guest of guests) {
      if (await isUserInGroup(db, guest, realm.canAccessAllUsersGroupId)) allowed.add(guest.id);
      else if (byConversation.has(guest.id)) allowed.add(guest.id);
      else if (byChannel.has(guest.id)) {
        allowed.add(guest.id);
        throughChannelsOnly.add(guest.id);
      }
    }
  } else {
    for (const guest of guests) allowed.add(guest.id);
  }
  return { userIds: [...allowed].sort((a, b) => a - b), throughChannelsOnly };
}

/** May `viewer` access `targetId` (same realm assumed)? The per-viewer form of accessToUser. */
export async function canAccessUser(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, viewer: { id: number; role: number; isActive: boolean }, targetId: number): Promise<boolean> {
  if (viewer.role !== ROLE_GUEST || viewer.id === targetId) return true;
  if (await isUserInGroup(db, viewer, realm.canAccessAllUsersGroupId)) return true;
  const target = await db.user.findUnique({ where: { id: targetId }, select: { isBot: true } });
  if (!target) return false;
  if (target.isBot) return true;
  const [channel, conversation] = await Promise.all([
    db.subscription.findFirst({
      where: { userId: viewer.id, active: true, channel: { subscriptions: { some: { userId: targetId, active: true } } } },
      select: { id: true },
    }),
    db.directConversationMember.findFirst({
      where: { userId: viewer.id, conversation: { realmId: realm.id, members: { some: { userId: targetId } } } },
      select: { userId: true },
    }),
  ]);
  return channel !== null || conversation !== null;
}

/** Active users who may access the user with this ID (see accessToUser). */
export async function userIdsWhoCanAccess(db: Reader, realm: Pick<Realm, 'id' | 'canAccessAllUsersGroupId'>, targetId: number): Promise<number[]> {
  const target = await db.user.findUnique({ where: { id: targetId }, select: { id: true, isBot: true } });
  return target ? usersWhoCanAccess(db, realm, target) : [];
}

/** Every active user of the realm. */
export async function activeUserIds(db: Reader, realmId: number): Promise<number[]> {
  return (await db.user.findMany({ where: { realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);
}

/** Who administers a bot (and hears `realm_bot` events): active administrators and its owner. */
export async function botAdministrators(db: Reader, realmId: number, bot: { botOwnerId: number | null }): Promise<number[]> {
  const users = await db.user.findMany({
    where: { realmId, isActive: true, OR: [{ role: { lte: ROLE_ADMINISTRATOR } }, ...(bot.botOwnerId ? [{ id: bot.botOwnerId }] : [])] },
    select: { id: true }, orderBy: { id: 'asc' },
  });
  return users.map((u) => u.id);
}
