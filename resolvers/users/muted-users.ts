// Muted users (Zulip's zerver/views/muted_users.py and actions/muted_users.py): a user may mute
// anyone else they can see, bots and deactivated users included. Muting marks the muted user's
// messages read for the muter, now and for every later message (sending writes them read, so they
// never count as unread nor notify), and the muter no longer receives their typing notifications.
// Changes reach the muter's queues as a `muted_users` event with the whole list.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { RealmCache } from '../realm-cache.ts';
import { toUnixSeconds } from '../time.ts';
import { isDbId } from '../rows.ts';
import { inTransaction } from '../transaction.ts';
import { canAccessUser } from './audience.ts';

export interface MutedUserWire {
  id: number;
  /** When the user was muted (Unix seconds). */
  timestamp: number;
}

export interface MutedUsersEvent {
  type: 'muted_users';
  muted_users: MutedUserWire[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    muted_users: MutedUsersEvent;
  }
}

initialStatePart(['muted_users'], async (s) => ({ muted_users: s.user ? await listMutedUsers(s.db, s.user) : [] }));

export async function listMutedUsers(db: Db | Prisma.TransactionClient, user: Pick<User, 'id'>): Promise<MutedUserWire[]> {
  const rows = await db.mutedUser.findMany({ where: { userId: user.id }, orderBy: [{ dateMuted: 'asc' }, { mutedUserId: 'asc' }] });
  return rows.map((r) => ({ id: r.mutedUserId, timestamp: toUnixSeconds(r.dateMuted) }));
}

/** Zulip's access_user_by_id_including_cross_realm(for_admin=False): any user of the realm the actor may see. */
async function accessUser(ctx: Context, actor: User, userId: number): Promise<User> {
  const target = isDbId(userId) ? await ctx.db.user.findFirst({ where: { id: userId, realmId: ctx.realm.id } }) : null;
  if (!target || !(await canAccessUser(ctx.db, ctx.realm, actor, target.id))) throw new BadRequestError('No such user');
  return target;
}

export async function muteUser(ctx: Context, actor: User, mutedUserId: number): Promise<void> {
  if (actor.id === mutedUserId) throw new BadRequestError('Cannot mute self');
  const target = await accessUser(ctx, actor, mutedUserId);
  await inTransaction(ctx, async (tx) => {
    // The primary key settles parallel requests: the second insert finds the row and is refused.
    const inserted = await tx.db.$executeRaw`
      INSERT INTO "MutedUser" ("userId", "mutedUserId", "realmId", "dateMuted") VALUES (${actor.id}, ${target.id}, ${ctx.realm.id}, now())
      ON CONFLICT DO NOTHING`;
    if (!inserted) throw new BadRequestError('User already muted');
    // What the muted user already sent becomes read (Zulip's do_mark_muted_user_messages_as_read).
    const read = await tx.db.$queryRaw<{ messageId: number }[]>`
      UPDATE "UserMessage" um SET "read" = true FROM "Message" m
      WHERE um."userId" = ${actor.id} AND NOT um."read" AND m.id = um."messageId" AND m."senderId" = ${target.id}
      RETURNING um."messageId"`;
    if (read.length) {
      const messages = read.map((r) => r.messageId).sort((a, b) => a - b);
      tx.events.publish(ctx.realm.id, [actor.id], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all: false });
    }
    tx.events.publish(ctx.realm.id, [actor.id], { type: 'muted_users', muted_users: await listMutedUsers(tx.db, actor) });
  });
}

export async function unmuteUser(ctx: Context, actor: User, mutedUserId: number): Promise<void> {
  const target = await accessUser(ctx, actor, mutedUserId);
  await inTransaction(ctx, async (tx) => {
    const { count } = await tx.db.mutedUser.deleteMany({ where: { userId: actor.id, mutedUserId: target.id } });
    if (!count) throw new BadRequestError('User is not muted');
    tx.events.publish(ctx.realm.id, [actor.id], { type: 'muted_users', muted_users: await listMutedUsers(tx.db, actor) });
  });
}

/** Who muted whom, per organization: read on every send and typing notification, so cached. */
const realmMutes = new RealmCache<Map<number, Set<number>>>(['muted_users'], async (db, realmId) => {
  const byMuted = new Map<number, Set<number>>();
  for (const { userId, mutedUserId } of await db.mutedUser.findMany({ where: { realmId }, select: { userId: true, mutedUserId: true } })) {
    let muters = byMuted.get(mutedUserId);
    if (!muters) byMuted.set(mutedUserId, (muters = new Set()));
    muters.add(userId);
  }
  return byMuted;
});

/** The users who muted `userId` (Zulip's get_muting_users). */
export async function usersMuting(db: Db | Prisma.TransactionClient, realmId: number, userId: number): Promise<ReadonlySet<number>> {
  return (await realmMutes.get(db, realmId)).get(userId) ?? new Set();
}
