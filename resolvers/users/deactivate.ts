// Deactivating and reactivating accounts. A deactivated user keeps their rows (messages,
// subscriptions, group memberships) but stops counting: their API key is refused, subscriptions
// carry isUserActive=false, group reads skip them, and their event queues are dropped.
// Rules and wording follow Zulip's deactivate_user_backend / reactivate_user_backend.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { RealmUserEvent } from './events.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, CannotDeactivateLastUserError, PermissionDeniedError, UnauthorizedPrincipalError } from '../errors.ts';
import { accessToUser, activeUserIds, botAdministrators } from './audience.ts';
import { INACCESSIBLE_USER_NAME, MAX_DEACTIVATION_COMMENT_LENGTH } from '../limits.ts';
import { codePointLength } from '../text.ts';
import { realmUrl } from '../realm/urls.ts';
import { findTarget, isLastOwner, OWNER_REQUIRED, requireAdmin } from './update.ts';
import { isAdmin, isGuest, isOwner } from './roles.ts';
import { subscriberViewers } from '../channels/subscribe-events.ts';
import { checkBotReactivation } from '../bots/bots.ts';
import { announceExportConsent } from '../exports/consent.ts';

const LAST_OWNER = 'Cannot deactivate the only organization owner';

/**
 * DELETE /users/{user_id}: administrators; owners only by owners; never the last owner. With a
 * notification comment (even an empty one), the user is told by e-mail, as in Zulip.
 */
export async function deactivateUser(ctx: Context, actor: User, userId: number, notificationComment?: string | null): Promise<void> {
  requireAdmin(actor);
  const comment = notificationComment == null ? null : notificationComment.trim();
  if (comment != null && codePointLength(comment) > MAX_DEACTIVATION_COMMENT_LENGTH) {
    throw new BadRequestError(`deactivation_notification_comment is too long (limit: ${MAX_DEACTIVATION_COMMENT_LENGTH} characters)`);
  }
  const target = await findTarget(ctx, userId);
  if (target.isBot) throw new BadRequestError('No such user');
  if (!target.isActive) throw new BadRequestError('User is deactivated');
  if (isOwner(target) && !isOwner(actor)) throw new UnauthorizedPrincipalError(OWNER_REQUIRED);
  if (await isLastOwner(ctx.db, ctx.realm.id, target)) throw new BadRequestError(LAST_OWNER);
  await deactivate(ctx, target, () => new BadRequestError(LAST_OWNER));
  if (comment != null) await sendDeactivationNotice(ctx, target, comment);
}

/** Zulip's zerver/emails/deactivate, sent once the deactivation has committed. */
async function sendDeactivationNotice(ctx: Context, target: User, comment: string): Promise<void> {
  const text = `Your Zulip account on ${realmUrl(ctx.realm, ctx.config)} has been deactivated, and you will no longer be able to log in.\n`
    + (comment ? `\nThe administrators provided the following comment:\n\n${comment}\n` : '');
  // A mail server that refuses does not undo the deactivation.
  await ctx.mailer?.send({ to: target.deliveryEmail, subject: `Notification of account deactivation on ${ctx.realm.name}`, text }).catch(() => {});
}

/** DELETE /users/me: anyone but the only owner or the only user. */
export async function deactivateSelf(ctx: Context, actor: User): Promise<void> {
  const active = await ctx.db.user.count({ where: { realmId: ctx.realm.id, isActive: true } });
  if (active <= 1) throw new CannotDeactivateLastUserError(false);
  if (await isLastOwner(ctx.db, ctx.realm.id, actor)) throw new CannotDeactivateLastUserError(true);
  await deactivate(ctx, actor, () => new CannotDeactivateLastUserError(true));
}

/** POST /users/{user_id}/reactivate: administrators. */
export async function reactivateUser(ctx: Context, actor: User, userId: number): Promise<void> {
  requireAdmin(actor);
  const target = await findTarget(ctx, userId);
  if (target.isActive) throw new BadRequestError('User is already active');
  if (target.isBot) await checkBotReactivation(ctx, actor, target);
  const channelIds = await ctx.db.$transaction(async (tx) => {
    // Another request may have reactivated them meanwhile: only one of us does the work.
    const { count } = await tx.user.updateMany({ where: { id: target.id, isActive: false }, data: { isActive: true } });
    if (!count) throw new BadRequestError('User is already active');
    return setSubscriptionsActive(tx, [target.id], true);
  });
  await publishActivity(ctx, target, true, channelIds);
  await announceExportConsent(ctx, target);
  // Group memberships were kept; the realm hears that the user is back in each named group.
  await publishGroupMembership(ctx, [target.id], 'add_members');
}

/** Deactivates an account (and the bots it owns) whose deactivation the caller has allowed. */
export async function deactivateAccount(ctx: Context, target: User): Promise<void> {
  await deactivate(ctx, target, () => new BadRequestError(LAST_OWNER));
}

async function deactivate(ctx: Context, target: User, lastOwnerError: () => Error): Promise<void> {
  // The user's bots go with them, as in Zulip.
  const bots = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, botOwnerId: target.id, isBot: true, isActive: true } });
  const users = [target, ...bots];
  const channels = await ctx.db.$transaction(async (tx) => {
    if (await isLastOwner(tx, ctx.realm.id, target)) throw lastOwnerError();
    const { count } = await tx.user.updateMany({ where: { id: target.id, isActive: true }, data: { isActive: false } });
    if (!count) throw new BadRequestError('User is deactivated');
    if (bots.length) await tx.user.updateMany({ where: { id: { in: bots.map((b) => b.id) } }, data: { isActive: false } });
    const result = new Map<number, number[]>();
    for (const u of users) result.set(u.id, await setSubscriptionsActive(tx, [u.id], false));
    return result;
  });
  for (const u of users) {
    await publishActivity(ctx, u, false, channels.get(u.id) ?? []);
    await ctx.queues.deleteUserQueues(ctx.realm.id, u.id);
  }
  // Group lists never show deactivated users (feature level 303): the realm hears them leave each
  // named group, and hears them come back on reactivation.
  await publishGroupMembership(ctx, users.map((u) => u.id), 'remove_members');
}

async function publishGroupMembership(ctx: Context, userIds: number[], op: 'add_members' | 'remove_members'): Promise<void> {
  const memberships = await ctx.db.userGroupMember.findMany({
    where: { userId: { in: userIds }, group: { realmId: ctx.realm.id, name: { not: null } } },
    select: { groupId: true, userId: true }, orderBy: [{ groupId: 'asc' }, { userId: 'asc' }],
  });
  if (!memberships.length) return;
  const byGroup = new Map<number, number[]>();
  for (const { groupId, userId } of memberships) byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), userId]);
  const everyone = await activeUserIds(ctx.db, ctx.realm.id);
  for (const [groupId, members] of byGroup) {
    ctx.events.publish(ctx.realm.id, everyone, { type: 'user_group', op, group_id: groupId, user_ids: members });
  }
}

/** Flips the users' subscriptions; returns the channels they are (actively) subscribed to. */
async function setSubscriptionsActive(tx: Prisma.TransactionClient, userIds: number[], active: boolean): Promise<number[]> {
  await tx.subscription.updateMany({ where: { userId: { in: userIds } }, data: { isUserActive: active } });
  const subs = await tx.subscription.findMany({ where: { userId: { in: userIds }, active: true }, select: { channelId: true }, distinct: ['channelId'] });
  return subs.map((s) => s.channelId).sort((a, b) => a - b);
}

/**
 * `realm_user update is_active` to those who may see the user, and subscriber changes to those who
 * keep subscriber lists of the user's channels: everyone but guests for public channels, subscribers
 * and administrators for private ones. On deactivation the peer events come first, as in Zulip.
 */
async function publishActivity(ctx: Context, user: User, isActive: boolean, channelIds: number[]): Promise<void> {
  const access = await accessToUser(ctx.db, ctx.realm, user);
  // Guests who saw a deactivated user only through shared channels lose sight of them (Zulip's
  // send_events_for_user_deactivation): they hear `realm_user remove` instead.
  const losing = isActive ? [] : [...access.throughChannelsOnly];
  const audience = access.userIds.filter((id) => id !== user.id && !losing.includes(id));
  const userEvent: RealmUserEvent = { type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: isActive } };
  if (isActive) ctx.events.publish(ctx.realm.id, audience, userEvent);
  if (channelIds.length) {
    const [channels, subs, others] = await Promise.all([
      ctx.db.channel.findMany({ where: { id: { in: channelIds } } }),
      ctx.db.subscription.findMany({
        where: { channelId: { in: channelIds }, active: true, isUserActive: true, userId: { not: user.id } },
        select: { userId: true, channelId: true },
      }),
      ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, id: { not: user.id } }, select: { id: true, role: true } }),
    ]);
    const channelsByPeer = new Map<number, Set<number>>();
    const add = (userId: number, channelId: number) => {
      let set = channelsByPeer.get(userId);
      if (!set) channelsByPeer.set(userId, (set = new Set()));
      set.add(channelId);
    };
    for (const s of subs) add(s.userId, s.channelId);
    const active = new Set(others.map((o) => o.id));
    for (const channel of channels) {
      // Everyone who may see the channel's subscribers (for private channels also the members of the
      // groups granting metadata access), as for any other subscriber change.
      for (const id of await subscriberViewers(ctx.db, ctx.realm.id, channel, [])) if (active.has(id)) add(id, channel.id);
    }
    // One event per distinct set of channels, as Zulip batches them.
    const peersByChannels = new Map<string, number[]>();
    for (const [peer, ids] of channelsByPeer) {
      const key = [...ids].sort((a, b) => a - b).join(',');
      peersByChannels.set(key, [...(peersByChannels.get(key) ?? []), peer]);
    }
    for (const [key, userIds] of peersByChannels) {
      ctx.events.publish(ctx.realm.id, userIds, {
        type: 'subscription', op: isActive ? 'peer_add' : 'peer_remove', stream_ids: key.split(',').map(Number), user_ids: [user.id],
      });
    }
  }
  if (!isActive) {
    ctx.events.publish(ctx.realm.id, audience, userEvent);
    ctx.events.publish(ctx.realm.id, losing, { type: 'realm_user', op: 'remove', person: { user_id: user.id, full_name: INACCESSIBLE_USER_NAME } });
  }
  if (user.isBot) {
    ctx.events.publish(ctx.realm.id, await botAdministrators(ctx.db, ctx.realm.id, user), {
      type: 'realm_bot', op: 'update', bot: { user_id: user.id, is_active: isActive },
    });
  }
}
