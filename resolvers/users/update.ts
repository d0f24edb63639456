// PATCH /users/{user_id}: administrators change another user's name, role, custom profile data
// and (owners with the special permission) email address. Rules and wording follow Zulip's
// update_user_backend; everything is written in one transaction, events follow the commit.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, UnauthorizedPrincipalError } from '../errors.ts';
import { syncRoleGroups } from '../groups/system.ts';
import { exactInsensitive } from '../rows.ts';
import { validateEmail, validateFullName } from './create.ts';
import { applyProfileData, type ProfileChange, type ProfileDataItem } from './profile-data.ts';
import { canSeeDeliveryEmail, emailVisibilityOf, EMAIL_VISIBLE_TO_EVERYONE } from './present.ts';
import { avatarFields } from './avatars.ts';
import { publishRoleChannelAccess } from './role-channels.ts';
import { activeUserIds, botAdministrators, usersWhoCanAccess } from './audience.ts';
import { isAdmin, isOwner, ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_OWNER, ROLES } from './roles.ts';

export const ADMIN_REQUIRED = 'Must be an organization administrator';
export const OWNER_REQUIRED = 'Must be an organization owner';
const LAST_OWNER_ROLE = 'The owner permission cannot be removed from the only organization owner.';

export interface UserChanges {
  fullName?: string | null;
  role?: number | null;
  profileData?: ProfileDataItem[] | null;
  newEmail?: string | null;
}

/** A user of the actor's realm by ID, deactivated users and bots included. */
export async function findTarget(ctx: Context, userId: number): Promise<User> {
  const target = await ctx.db.user.findFirst({ where: { id: userId, realmId: ctx.realm.id } });
  if (!target) throw new BadRequestError('No such user');
  return target;
}

export function requireAdmin(actor: User): void {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError(ADMIN_REQUIRED);
}

/**
 * Whether `user` is the realm's only active human owner. Inside a transaction the owners' rows stay
 * locked until it ends, so two owners demoting or deactivating each other cannot both succeed.
 */
export async function isLastOwner(db: Db | Prisma.TransactionClient, realmId: number, user: Pick<User, 'id' | 'role' | 'isBot'>): Promise<boolean> {
  if (!isOwner(user) || user.isBot) return false;
  const owners = await db.$queryRaw<{ id: number }[]>`
    SELECT id FROM "User" WHERE "realmId" = ${realmId} AND role = ${ROLE_OWNER} AND "isActive" AND NOT "isBot" ORDER BY id FOR UPDATE`;
  return owners.length <= 1;
}

export async function updateUser(ctx: Context, actor: User, userId: number, changes: UserChanges): Promise<void> {
  requireAdmin(actor);
  const target = await findTarget(ctx, userId);
  if (changes.newEmail != null && !(isOwner(actor) && actor.canChangeUserEmails)) {
    throw new PermissionDeniedError('User not authorized to change user emails');
  }

  const role = changes.role ?? null;
  const roleChanges = role !== null && role !== target.role;
  if (role !== null && !(ROLES as readonly number[]).includes(role)) throw new BadRequestError('Invalid role');
  if (roleChanges) {
    if ((role === ROLE_OWNER || target.role === ROLE_OWNER) && !isOwner(actor)) throw new UnauthorizedPrincipalError(OWNER_REQUIRED);
    if (await isLastOwner(ctx.db, ctx.realm.id, target)) throw new BadRequestError(LAST_OWNER_ROLE);
    if (target.role === ROLE_GUEST && role! <= ROLE_ADMINISTRATOR) throw new BadRequestError('Guests cannot be organization administrators');
  }

  const fullName = changes.fullName != null ? validateFullName(changes.fullName) : null;
  const nameChanges = fullName !== null && fullName !== target.fullName;
  const newEmail = changes.newEmail != null ? validateEmail(changes.newEmail) : null;
  const emailChanges = newEmail !== null && newEmail !== target.deliveryEmail;

  const result = await ctx.db.$transaction(async (tx) => {
    let groupsLeft: number[] = [];
    let groupsJoined: number[] = [];
    if (roleChanges) {
      if (await isLastOwner(tx, ctx.realm.id, target)) throw new BadRequestError(LAST_OWNER_ROLE);
      await tx.user.update({ where: { id: target.id }, data: { role: role! } });
      ({ left: groupsLeft, joined: groupsJoined } = await syncRoleGroups(tx, ctx.realm.id, target.id, role!));
    }
    if (nameChanges) await tx.user.update({ where: { id: target.id }, data: { fullName: fullName! } });
    const profileChanges: ProfileChange[] = changes.profileData ? await applyProfileData(tx, actor, target, changes.profileData) : [];
    const updated = emailChanges ? await writeDeliveryEmail(tx, ctx.realm.id, target, newEmail!) : target;
    return { groupsLeft, groupsJoined, profileChanges, updated };
  });

  const audience = await usersWhoCanAccess(ctx.db, ctx.realm, target);
  const publish = (person: Record<string, unknown>, userIds = audience) =>
    ctx.events.publish(ctx.realm.id, userIds, { type: 'realm_user', op: 'update', person: { user_id: target.id, ...person } });
  if (nameChanges) {
    publish({ full_name: fullName });
    if (target.isBot) {
      ctx.events.publish(ctx.realm.id, await botAdministrators(ctx.db, ctx.realm.id, target), { type: 'realm_bot', op: 'update', bot: { user_id: target.id, full_name: fullName } });
    }
  }
  if (roleChanges) {
    publish({ role });
    await publishRoleChannelAccess(ctx, { ...target, role: role! }, target.role);
    const everyone = await activeUserIds(ctx.db, ctx.realm.id);
    for (const groupId of result.groupsLeft) ctx.events.publish(ctx.realm.id, everyone, { type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: [target.id] });
    for (const groupId of result.groupsJoined) ctx.events.publish(ctx.realm.id, everyone, { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [target.id] });
  }
  for (const change of result.profileChanges) publish({ custom_profile_field: change });
  if (emailChanges) await announceDeliveryEmail(ctx, target, result.updated, audience);
}

/**
 * Zulip's do_change_user_delivery_email, inside the caller's transaction: the new address (unless
 * another account has it), the API address too while everyone may see the real one, and a new
 * Gravatar, which is computed from the address.
 */
export async function writeDeliveryEmail(tx: Prisma.TransactionClient, realmId: number, target: User, newEmail: string): Promise<User> {
  const clash = await tx.user.findFirst({
    where: { realmId, id: { not: target.id }, OR: [{ email: exactInsensitive(newEmail) }, { deliveryEmail: exactInsensitive(newEmail) }] },
    select: { id: true },
  });
  if (clash) throw new BadRequestError(`Email '${newEmail}' already in use`);
  return tx.user.update({
    where: { id: target.id },
    data: {
      email: emailVisibilityOf(target) === EMAIL_VISIBLE_TO_EVERYONE ? newEmail : target.email, deliveryEmail: newEmail,
      ...(target.avatarSource === 'G' ? { avatarVersion: { increment: 1 } } : {}),
    },
  });
}

/**
 * The `realm_user` updates for a changed address: `delivery_email` to those who may see it,
 * `new_email` when the API address followed, and the Gravatar.
 */
export async function announceDeliveryEmail(
  ctx: Pick<Context, 'db' | 'realm' | 'events' | 'config'>, before: User, updated: User, audience?: number[],
): Promise<void> {
  const userIds = audience ?? await usersWhoCanAccess(ctx.db, ctx.realm, before);
  const publish = (person: Record<string, unknown>, to = userIds) =>
    ctx.events.publish(ctx.realm.id, to, { type: 'realm_user', op: 'update', person: { user_id: before.id, ...person } });
  const viewers = await ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, role: true } });
  publish({ delivery_email: updated.deliveryEmail }, viewers.filter((v) => canSeeDeliveryEmail(v, updated)).map((v) => v.id));
  if (updated.email !== before.email) publish({ new_email: updated.email });
  if (before.avatarSource === 'G') publish(avatarFields(updated, ctx.config.gravatarEnabled));
}

/** Profile data the user edits themselves (PATCH and DELETE /users/me/profile_data). */
export async function updateOwnProfileData(ctx: Context, actor: User, items: ProfileDataItem[]): Promise<void> {
  if (actor.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  const changes = await ctx.db.$transaction((tx) => applyProfileData(tx, actor, actor, items));
  if (!changes.length) return;
  const audience = await usersWhoCanAccess(ctx.db, ctx.realm, actor);
  for (const change of changes) {
    ctx.events.publish(ctx.realm.id, audience, { type: 'realm_user', op: 'update', person: { user_id: actor.id, custom_profile_field: change } });
  }
}
