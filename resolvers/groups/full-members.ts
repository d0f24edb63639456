// Full members (Zulip's role:fullmembers): members whose account is at least the organization's
// `waiting_period_threshold` days old. As in Zulip, membership is stored (the group's direct members
// are exactly the full members with the member role; moderators and above hold it through the
// nesting), so GET /user_groups, register and the recursive permission checks agree. It is brought
// up to date when an account is made or changes role, when the threshold changes, and by a worker
// in every server process that promotes accounts that aged past the threshold (Zulip's
// promote_new_full_members cron job).
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Services } from '../../server/context.ts';
import { inTransaction, type TransactionHost } from '../transaction.ts';
import { activeUserIds } from '../users/audience.ts';
import { ROLE_MEMBER } from '../users/roles.ts';
import { SYSTEM_GROUPS } from './system.ts';
import { startPeriodicJob } from '../periodic.ts';

type Tx = Prisma.TransactionClient;

const DAY_MS = 86_400_000;

/**
 * Zulip's is_provisional_member: whole days since joining below the threshold (a threshold of 0
 * makes every member full at once).
 */
export function isProvisionalMember(dateJoined: Date, thresholdDays: number, now = new Date()): boolean {
  return Math.floor((now.getTime() - dateJoined.getTime()) / DAY_MS) < thresholdDays;
}

export interface FullMembershipChange {
  groupId: number;
  added: number[];
  removed: number[];
}

/**
 * Makes the full-members group's direct members the realm's non-provisional members (of
 * `userIds` only, when given); Zulip's update_users_in_full_members_system_group. The caller
 * announces the change (see publishFullMembershipChange).
 */
export async function refreshFullMembers(tx: Tx, realmId: number, userIds?: number[]): Promise<FullMembershipChange> {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { waitingPeriodThreshold: true } });
  const group = await tx.userGroup.findFirstOrThrow({ where: { realmId, name: SYSTEM_GROUPS.fullMembers, isSystemGroup: true }, select: { id: true } });
  const scope = userIds ? { id: { in: userIds } } : {};
  const [candidates, current] = await Promise.all([
    tx.user.findMany({ where: { realmId, role: ROLE_MEMBER, ...scope }, select: { id: true, dateJoined: true } }),
    tx.userGroupMember.findMany({ where: { groupId: group.id, ...(userIds ? { userId: { in: userIds } } : {}) }, select: { userId: true } }),
  ]);
  const now = new Date();
  const wanted = new Set(candidates.filter((u) => !isProvisionalMember(u.dateJoined, realm.waitingPeriodThreshold, now)).map((u) => u.id));
  const present = new Set(current.map((m) => m.userId));
  const added = [...wanted].filter((id) => !present.has(id)).sort((a, b) => a - b);
  const removed = [...present].filter((id) => !wanted.has(id)).sort((a, b) => a - b);
  if (removed.length) await tx.userGroupMember.deleteMany({ where: { groupId: group.id, userId: { in: removed } } });
  if (added.length) await tx.userGroupMember.createMany({ data: added.map((userId) => ({ groupId: group.id, userId })), skipDuplicates: true });
  return { groupId: group.id, added, removed };
}

/** `user_group` add_members/remove_members events for a change, to everyone in the realm (as Zulip). */
export async function publishFullMembershipChange(ctx: TransactionHost, realmId: number, change: FullMembershipChange): Promise<void> {
  if (!change.added.length && !change.removed.length) return;
  const everyone = await activeUserIds(ctx.db, realmId);
  if (change.removed.length) ctx.events.publish(realmId, everyone, { type: 'user_group', op: 'remove_members', group_id: change.groupId, user_ids: change.removed });
  if (change.added.length) ctx.events.publish(realmId, everyone, { type: 'user_group', op: 'add_members', group_id: change.groupId, user_ids: change.added });
}

/**
 * Promotes, in every active organization with a waiting period, the members who have aged past it.
 * The organization's row is locked for each, so processes running this at once (or a concurrent
 * change of the threshold) announce each promotion once.
 */
export async function promoteNewFullMembers(services: Services): Promise<number> {
  const realms = await services.db.realm.findMany({ where: { deactivated: false, waitingPeriodThreshold: { gt: 0 } }, select: { id: true } });
  let promoted = 0;
  for (const { id } of realms) {
    promoted += await inTransaction(services, async (tx) => {
      await tx.tx.$queryRaw`SELECT id FROM "Realm" WHERE id = ${id} FOR UPDATE`;
      const change = await refreshFullMembers(tx.tx, id);
      await publishFullMembershipChange(tx, id, change);
      return change.added.length;
    });
  }
  if (promoted) await services.queues.settled?.();
  return promoted;
}

export interface FullMemberPromotion {
  /** Runs a promotion now; resolves with how many accounts became full members. */
  promoteNow(): Promise<number>;
  stop(): Promise<void>;
}

/** The promotion worker: every `intervalMs` (0 turns it off). */
export function startFullMemberPromotion(services: Services, intervalMs: number, log: (line: string) => void): FullMemberPromotion {
  const job = startPeriodicJob('full member promotion', intervalMs, log, async (stopped) => (stopped() ? 0 : promoteNewFullMembers(services)));
  return { promoteNow: job.runNow, stop: job.stop };
}
