// Presence: clients report `active` or `idle` every minute (POST /users/me/presence) and poll the
// others' presence, after Zulip's zerver/actions/presence.py and zerver/lib/presence.py.
//
// Zulip numbers presence rows from a per-realm counter (`last_update_id`). Parley's UserPresence
// table has no such column, so a row's update ID is the millisecond timestamp of its last report,
// which every report advances. Incremental fetches (`last_update_id`) return rows reported after the
// ID the client holds; a report whose request began before another's and committed after a
// client's fetch is picked up by that user's next report instead.
import type { Context } from '../../schema/context.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { ParleyEvent } from '../events/bus.ts';
import { BadRequestError, InvalidArgumentError } from '../errors.ts';
import { toUnixSeconds } from '../time.ts';
import { exactInsensitive } from '../rows.ts';
import {
  DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS, PRESENCE_LEGACY_ACTIVITY_OFFSET_SECS, PRESENCE_OFFLINE_THRESHOLD_SECS,
} from '../limits.ts';
import { canAccessUser, userIdsWhoCanAccess } from '../users/audience.ts';
import { presenceEnabledIn } from '../status/update.ts';

const DAY_MS = 86_400_000;

/** One user's presence, in the terms of Zulip's modern format. */
export interface PresenceView {
  userId: number;
  email: string;
  /** Last time a client reported the user as actively present (UNIX seconds). */
  activeTimestamp: number;
  /** Last time the user had any client connected (UNIX seconds). */
  idleTimestamp: number;
  updateId: number;
}

export interface PresenceSnapshot {
  presences: PresenceView[];
  serverTimestamp: number;
  presenceLastUpdateId: number;
}

interface PresenceRow {
  userId: number;
  lastConnectedTime: Date | null;
  lastActiveTime: Date | null;
}

function view(row: PresenceRow, user: { id: number; email: string; dateJoined: Date }): PresenceView {
  // As Zulip: a time never reported counts from the day the user joined.
  const active = row.lastActiveTime ?? user.dateJoined;
  const connected = row.lastConnectedTime ?? row.lastActiveTime ?? user.dateJoined;
  return {
    userId: user.id,
    email: user.email,
    activeTimestamp: toUnixSeconds(active),
    idleTimestamp: toUnixSeconds(connected),
    updateId: Math.max(connected.getTime(), active.getTime()),
  };
}

/** Legacy format: `active` when the last activity is within a ping or so of the last connection. */
export function legacyStatus(p: Pick<PresenceView, 'activeTimestamp' | 'idleTimestamp'>): { status: 'active' | 'idle'; timestamp: number } {
  const isActive = p.activeTimestamp + PRESENCE_LEGACY_ACTIVITY_OFFSET_SECS >= p.idleTimestamp;
  return { status: isActive ? 'active' : 'idle', timestamp: isActive ? p.activeTimestamp : p.idleTimestamp };
}

function requireHuman(user: User): void {
  if (user.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
}

export async function updatePresence(ctx: Context, user: User, status: string): Promise<void> {
  requireHuman(user);
  if (status !== 'active' && status !== 'idle') throw new BadRequestError(`Invalid status: ${status}`);
  const now = new Date();
  const previous = await ctx.db.$transaction(async (tx) => {
    const prev = await tx.userPresence.findUnique({ where: { userId: user.id } });
    const lastActiveTime = status === 'active' ? now : (prev?.lastActiveTime ?? null);
    await tx.userPresence.upsert({
      where: { userId: user.id },
      create: { userId: user.id, realmId: user.realmId, lastConnectedTime: now, lastActiveTime },
      update: { lastConnectedTime: now, lastActiveTime },
    });
    return prev;
  });
  // Others poll for ordinary changes; an event goes out only when the user comes (back) online or
  // becomes active again, so nobody who just appeared looks offline. Invisible users send none.
  const threshold = PRESENCE_OFFLINE_THRESHOLD_SECS * 1000;
  const cameOnline = !previous?.lastConnectedTime || now.getTime() - previous.lastConnectedTime.getTime() > threshold;
  const becameActive = status === 'active' && (!previous?.lastActiveTime || now.getTime() - previous.lastActiveTime.getTime() > threshold);
  const fresh = await ctx.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { settings: true, email: true, dateJoined: true } });
  if (!(cameOnline || becameActive) || !presenceEnabledIn(fresh.settings)) return;
  const row = { userId: user.id, lastConnectedTime: now, lastActiveTime: status === 'active' ? now : (previous?.lastActiveTime ?? null) };
  ctx.events.publish(ctx.realm.id, await userIdsWhoCanAccess(ctx.db, ctx.realm, user.id), presenceEvent({ id: user.id, ...fresh }, row, status, now));
}

/** The `presence` event, in both formats; resolvers/events/shape.ts gives each queue the one it asked for. */
function presenceEvent(user: { id: number; email: string; dateJoined: Date }, row: PresenceRow, status: 'active' | 'idle', reported: Date): ParleyEvent {
  const current = view(row, user);
  return {
    type: 'presence',
    user_id: user.id,
    email: user.email,
    server_timestamp: Date.now() / 1000,
    presence: { website: { client: 'website', status, timestamp: toUnixSeconds(reported), pushable: false } },
    presences: { [String(user.id)]: { active_timestamp: current.activeTimestamp, idle_timestamp: current.idleTimestamp } },
  };
}

/**
 * Turning presence sharing on or off is itself a presence report, as in Zulip's
 * do_change_user_setting: on, the user is active now; off, their presence is set to just past the
 * offline threshold, so that everyone sees them go offline at once. Runs in the caller's
 * transaction; returns the event to publish after it commits (to userIdsWhoCanAccess).
 */
export async function presenceToggleReport(tx: Prisma.TransactionClient, user: Pick<User, 'id' | 'realmId' | 'email' | 'dateJoined'>, enabled: boolean): Promise<ParleyEvent> {
  const when = enabled ? new Date() : new Date(Date.now() - (PRESENCE_OFFLINE_THRESHOLD_SECS + 120) * 1000);
  const row = { userId: user.id, lastConnectedTime: when, lastActiveTime: when };
  await tx.userPresence.upsert({
    where: { userId: user.id },
    create: { ...row, realmId: user.realmId },
    update: { lastConnectedTime: when, lastActiveTime: when },
  });
  return presenceEvent(user, row, enabled ? 'active' : 'idle', when);
}

export interface PresenceQuery {
  lastUpdateId?: number | null;
  historyLimitDays?: number | null;
}

export function checkPresenceQuery(query: PresenceQuery): void {
  if (query.lastUpdateId != null && !Number.isSafeInteger(query.lastUpdateId)) throw new InvalidArgumentError('last_update_id', 'last_update_id is not an integer');
}

/** The presence of the users the viewer may see who share theirs (active humans, recently seen). */
export async function realmPresence(ctx: Context, viewer: User, query: PresenceQuery = {}): Promise<PresenceSnapshot> {
  checkPresenceQuery(query);
  const lastUpdateId = query.lastUpdateId ?? null;
  const serverTimestamp = Date.now() / 1000;
  // A client that already holds presence data asks only for what changed since.
  const incremental = lastUpdateId !== null && lastUpdateId > 0;
  const days = query.historyLimitDays != null && query.historyLimitDays > 0 ? query.historyLimitDays : DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS;
  // A limit reaching before the earliest representable date means no limit at all.
  const since = new Date(Math.max(Date.now() - days * DAY_MS, 0));
  // Dates stop at ±8.64e15 ms; any larger ID is past every report.
  const after = incremental ? new Date(Math.min(lastUpdateId, 8.64e15)) : since;
  const rows = await ctx.db.userPresence.findMany({
    where: {
      realmId: ctx.realm.id,
      user: { isActive: true, isBot: false },
      ...(incremental
        ? { OR: [{ lastConnectedTime: { gt: after } }, { lastActiveTime: { gt: after } }] }
        : { OR: [{ lastConnectedTime: { gte: since } }, { lastActiveTime: { gte: since } }] }),
    },
    include: { user: { select: { id: true, email: true, dateJoined: true, settings: true } } },
    orderBy: { userId: 'asc' },
  });
  const presences: PresenceView[] = [];
  for (const row of rows) {
    if (!presenceEnabledIn(row.user.settings)) continue;
    if (!(await canAccessUser(ctx.db, ctx.realm, viewer, row.userId))) continue;
    const v = view(row, row.user);
    if (lastUpdateId !== null && v.updateId <= lastUpdateId) continue;
    presences.push(v);
  }
  const newest = presences.reduce((max, p) => Math.max(max, p.updateId), -1);
  return { presences, serverTimestamp, presenceLastUpdateId: Math.max(newest, lastUpdateId ?? -1) };
}

/** One user's presence by ID or API email (GET /users/{user_id_or_email}/presence). */
export async function presenceOfUser(ctx: Context, viewer: User, userIdOrEmail: string): Promise<PresenceView> {
  const byId = /^\d+$/.test(userIdOrEmail) && Number(userIdOrEmail) <= 2_147_483_647;
  const target = await ctx.db.user.findFirst({
    where: { realmId: ctx.realm.id, isActive: true, ...(byId ? { id: Number(userIdOrEmail) } : { email: exactInsensitive(userIdOrEmail) }) },
    include: { presence: true },
  });
  if (!target) throw new BadRequestError('No such user');
  if (target.isBot) throw new BadRequestError('Presence is not supported for bot users.');
  if (!(await canAccessUser(ctx.db, ctx.realm, viewer, target.id))) throw new BadRequestError('Insufficient permission');
  if (!target.presence || !presenceEnabledIn(target.settings)) throw new BadRequestError(`No presence data for ${userIdOrEmail}`);
  return view(target.presence, target);
}

/** Is a legacy timestamp too old for the user to count as online? */
export function isOffline(timestamp: number, now = Date.now() / 1000): boolean {
  return now - timestamp > PRESENCE_OFFLINE_THRESHOLD_SECS;
}
