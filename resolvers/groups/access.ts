// Who may read and change a user group, after Zulip's access_user_group_for_update and friends
// (zerver/lib/user_groups.py). Every user-group action goes through here, so the permission rules
// and their exact wording live in one place.
import type { Prisma, User, UserGroup } from '../../prisma/generated/client/client.ts';
import type { Realm } from '../../prisma/generated/client/client.ts';
import { BadRequestError, PermissionDeniedError } from '../errors.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from './permission-settings.ts';
import { isDbId } from '../rows.ts';
import { isGuest } from '../users/roles.ts';
import { isUserInGroup } from './membership.ts';

type Tx = Prisma.TransactionClient;

export const GROUP_PERMISSION_SETTINGS = [
  'can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group',
] as const;
export type GroupPermissionSetting = (typeof GROUP_PERMISSION_SETTINGS)[number];

/** The UserGroup column holding a setting: `can_join_group` → `canJoinGroupId`. */
export function settingColumn(name: string): string {
  return name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()) + 'Id';
}

export const MAX_GROUP_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Zulip's check_user_group_name. */
export function checkGroupName(name: string): string {
  if (name.trim() === '') throw new BadRequestError("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) throw new BadRequestError(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw new BadRequestError(`User group name cannot start with '${prefix}'.`);
  return name;
}

/** A concurrent request took the name between our check and our write (the unique index caught it). */
export function nameTakenRace(error: unknown, name: string): never {
  if ((error as { code?: string }).code === 'P2002') throw new BadRequestError(`User group '${name}' already exists.`);
  throw error;
}

export async function ensureNameFree(tx: Tx, realmId: number, name: string): Promise<void> {
  if (await tx.userGroup.findFirst({ where: { realmId, name }, select: { id: true } })) {
    throw new BadRequestError(`User group '${name}' already exists.`);
  }
}

/** Guests hold a group permission only where the setting may include everyone (Zulip's rule). */
export async function holdsGroupPermission(
  tx: Tx, user: User, groupId: number | null, allowEveryone: boolean,
): Promise<boolean> {
  if (!allowEveryone && isGuest(user)) return false;
  return isUserInGroup(tx, user, groupId);
}

function canManageAllGroups(tx: Tx, realm: Realm, user: User): Promise<boolean> {
  return holdsGroupPermission(tx, user, realm.canManageAllGroupsGroupId, SUPPORTED_PERMISSION_SETTINGS.realm.can_manage_all_groups.allow_everyone_group);
}

export function canCreateGroups(tx: Tx, realm: Realm, user: User): Promise<boolean> {
  return holdsGroupPermission(tx, user, realm.canCreateGroupsGroupId, SUPPORTED_PERMISSION_SETTINGS.realm.can_create_groups.allow_everyone_group);
}

/** Zulip's require_member_or_admin, minus the bot refusal (bots may use groups since feature level 496). */
export function refuseGuests(user: User): void {
  if (isGuest(user)) throw new BadRequestError('Not allowed for guest users');
}

/** A named group of the realm; anonymous groups and other realms' groups do not exist here. */
export async function groupInRealm(
  tx: Tx, realmId: number, groupId: number, options: { allowDeactivated?: boolean } = {},
): Promise<UserGroup> {
  const group = isDbId(groupId) ? await tx.userGroup.findFirst({ where: { id: groupId, realmId, name: { not: null } } }) : null;
  if (!group) throw new BadRequestError('Invalid user group');
  if (!options.allowDeactivated && group.deactivated) throw new BadRequestError('User group is deactivated.');
  return group;
}

async function holdsSetting(tx: Tx, user: User, group: UserGroup, setting: GroupPermissionSetting): Promise<boolean> {
  const column = settingColumn(setting) as keyof UserGroup;
  return holdsGroupPermission(tx, user, group[column] as number | null, SUPPORTED_PERMISSION_SETTINGS.group[setting].allow_everyone_group);
}

/**
 * The group `user` may change through `permission`. Managing the group (its `can_manage_group`,
 * or the realm's `can_manage_all_groups`) grants every permission; system groups are never changed.
 */
export async function accessGroupForUpdate(
  tx: Tx, realm: Realm, user: User, groupId: number, permission: GroupPermissionSetting | GroupPermissionSetting[],
  options: { allowDeactivated?: boolean } = {},
): Promise<UserGroup> {
  const group = await groupInRealm(tx, realm.id, groupId, options);
  if (group.isSystemGroup) throw new PermissionDeniedError();
  if (await canManageAllGroups(tx, realm, user)) return group;
  if (await holdsSetting(tx, user, group, 'can_manage_group')) return group;
  for (const setting of Array.isArray(permission) ? permission : [permission]) {
    if (setting !== 'can_manage_group' && (await holdsSetting(tx, user, group, setting))) return group;
  }
  throw new PermissionDeniedError();
}

/** Active users of the realm by ID, in the given order; Zulip's user_ids_to_users wording. */
export async function activeUsersByIds(tx: Tx, realmId: number, userIds: number[]): Promise<number[]> {
  const found = userIds.every(isDbId)
    ? new Set((await tx.user.findMany({ where: { realmId, isActive: true, id: { in: userIds } }, select: { id: true } })).map((u) => u.id))
    : new Set<number>();
  const missing = userIds.find((id) => !found.has(id));
  if (missing !== undefined) throw new BadRequestError(`Invalid user ID: ${missing}`);
  return [...new Set(userIds)];
}
