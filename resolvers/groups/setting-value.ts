// Group-setting values as clients send them: a user group ID, or an explicit set
// `{direct_members, direct_subgroups}` that is stored as an anonymous group owned by the setting.
// Every endpoint that takes a permission setting (channels, user groups, the organization) comes
// through here, so the rules of each setting (which system groups it may name, no deactivated
// groups) hold everywhere. Modelled on Zulip's parse_group_setting_value and
// access_user_group_for_setting.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from './permission-settings.ts';
import { isDbId } from '../rows.ts';
import { createAnonymousGroup } from './membership.ts';

type Tx = Prisma.TransactionClient;

export type SettingKind = keyof typeof SUPPORTED_PERMISSION_SETTINGS;

export type GroupSettingInput = number | { direct_members: number[]; direct_subgroups: number[] };

/** Settings that may never name `role:owners` (Zulip's allow_owners_group = false). */
const OWNERS_NOT_ALLOWED = new Set(['can_mention_group']);

/**
 * Checks the wire shape of a group-setting value (GraphQL takes it as JSON). Accepts the older
 * spellings `direct_member_ids`/`direct_subgroup_ids` too.
 */
export function parseGroupSettingInput(settingName: string, raw: unknown): GroupSettingInput {
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw)) throw new BadRequestError(`Invalid ${settingName}`);
    return raw;
  }
  if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) return Number(raw.trim());
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const obj = raw as Record<string, unknown>;
    const known = new Set(['direct_members', 'direct_subgroups', 'direct_member_ids', 'direct_subgroup_ids']);
    const unknownKey = Object.keys(obj).find((k) => !known.has(k));
    if (unknownKey) throw new BadRequestError(`${settingName} has an unknown key '${unknownKey}'`);
    const members = obj.direct_members ?? obj.direct_member_ids ?? [];
    const subgroups = obj.direct_subgroups ?? obj.direct_subgroup_ids ?? [];
    const ints = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isSafeInteger(x));
    if (!ints(members)) throw new BadRequestError(`${settingName}["direct_members"] is not a list of integers`);
    if (!ints(subgroups)) throw new BadRequestError(`${settingName}["direct_subgroups"] is not a list of integers`);
    return { direct_members: [...new Set(members as number[])], direct_subgroups: [...new Set(subgroups as number[])] };
  }
  throw new BadRequestError(`Invalid ${settingName}`);
}

/** A change of a setting as Zulip's endpoints take it: `{new, old?}`, where `old` must match the current value. */
export interface SettingUpdate {
  new: GroupSettingInput;
  old?: GroupSettingInput;
}

export function parseSettingUpdate(name: string, raw: unknown): SettingUpdate {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('new' in raw)) throw new BadRequestError(`${name} is not a dict with 'new'`);
  const obj = raw as Record<string, unknown>;
  const unknownKey = Object.keys(obj).find((k) => k !== 'new' && k !== 'old');
  if (unknownKey) throw new BadRequestError(`${name} has an unknown key '${unknownKey}'`);
  return {
    new: parseGroupSettingInput(name, obj.new),
    ...(obj.old !== undefined ? { old: parseGroupSettingInput(name, obj.old) } : {}),
  };
}

function permissionConfig(kind: SettingKind, settingName: string) {
  const config = (SUPPORTED_PERMISSION_SETTINGS[kind] as Record<string, (typeof SUPPORTED_PERMISSION_SETTINGS)['stream']['can_add_subscribers_group']>)[settingName];
  if (!config) throw new Error(`unknown ${kind} permission setting ${settingName}`);
  return config;
}

/** A named group the setting may refer to, with Zulip's per-setting rules and wording. */
async function accessGroupForSetting(tx: Tx, realmId: number, kind: SettingKind, settingName: string, groupId: number) {
  const group = isDbId(groupId) ? await tx.userGroup.findFirst({ where: { id: groupId, realmId } }) : null;
  // Anonymous groups belong to the setting that owns them and cannot be named.
  if (!group || group.name === null) throw new BadRequestError('Invalid user group');
  if (group.deactivated) throw new BadRequestError('You cannot use a deactivated user group for this setting.');
  const config = permissionConfig(kind, settingName);
  const refuse = () => new BadRequestError(`'${settingName}' setting cannot be set to '${group.name}' group.`);
  if (config.require_system_group && !group.isSystemGroup) throw new BadRequestError(`'${settingName}' must be a system user group.`);
  if (group.name === 'role:internet' && !config.allow_internet_group) throw refuse();
  if (group.name === 'role:owners' && OWNERS_NOT_ALLOWED.has(settingName)) throw refuse();
  if (group.name === 'role:nobody' && !config.allow_nobody_group) throw refuse();
  if (group.name === 'role:everyone' && !config.allow_everyone_group) throw refuse();
  if (group.isSystemGroup && config.allowed_system_groups.length && !config.allowed_system_groups.includes(group.name!)) throw refuse();
  return group;
}

async function nobodyGroupId(tx: Tx, realmId: number): Promise<number> {
  const group = await tx.userGroup.findFirstOrThrow({ where: { realmId, name: 'role:nobody', isSystemGroup: true }, select: { id: true } });
  return group.id;
}

/**
 * The group ID to store for a setting: a named group's own ID, or a new anonymous group for an
 * explicit set. An explicit set of exactly one subgroup is that group; an empty one is `role:nobody`
 * (Zulip's canonical forms). Members must be active users of the realm.
 */
export async function resolveGroupSetting(
  tx: Tx, realmId: number, kind: SettingKind, settingName: string, value: GroupSettingInput,
): Promise<number> {
  if (typeof value === 'number') return (await accessGroupForSetting(tx, realmId, kind, settingName, value)).id;
  const { direct_members: members, direct_subgroups: subgroups } = value;
  if (!members.length && subgroups.length === 1) return (await accessGroupForSetting(tx, realmId, kind, settingName, subgroups[0]!)).id;
  if (!members.length && !subgroups.length) {
    const nobody = await nobodyGroupId(tx, realmId);
    return (await accessGroupForSetting(tx, realmId, kind, settingName, nobody)).id;
  }
  for (const subgroupId of subgroups) await accessGroupForSetting(tx, realmId, kind, settingName, subgroupId);
  if (members.length) {
    const valid = members.every(isDbId)
      ? await tx.user.findMany({ where: { realmId, id: { in: members }, isActive: true }, select: { id: true } })
      : [];
    const missing = members.find((id) => !valid.some((u) => u.id === id));
    if (missing !== undefined) throw new BadRequestError(`Invalid user ID: ${missing}`);
  }
  return createAnonymousGroup(tx, realmId, members, subgroups);
}

/**
 * The value a setting currently has, in the wire form, for comparing with an update's `old`
 * (PATCH /user_groups and friends): explicit sets compare as sets.
 */
export async function currentSettingValue(tx: Tx, groupId: number): Promise<GroupSettingInput> {
  const group = await tx.userGroup.findUniqueOrThrow({ where: { id: groupId }, select: { name: true } });
  if (group.name !== null) return groupId;
  const [members, subgroups] = await Promise.all([
    tx.userGroupMember.findMany({ where: { groupId, user: { isActive: true } }, select: { userId: true }, orderBy: { userId: 'asc' } }),
    tx.userGroupSubgroup.findMany({ where: { supergroupId: groupId }, select: { subgroupId: true }, orderBy: { subgroupId: 'asc' } }),
  ]);
  return { direct_members: members.map((m) => m.userId), direct_subgroups: subgroups.map((s) => s.subgroupId) };
}

/** Do two group-setting values denote the same setting (ignoring order in explicit sets)? */
export function sameSettingValue(a: GroupSettingInput, b: GroupSettingInput): boolean {
  if (typeof a === 'number' || typeof b === 'number') {
    // `{direct_members: [], direct_subgroups: [id]}` is the same value as `id`.
    const asId = (v: GroupSettingInput) => (typeof v === 'number' ? v : !v.direct_members.length && v.direct_subgroups.length === 1 ? v.direct_subgroups[0] : null);
    return asId(a) !== null && asId(a) === asId(b);
  }
  const same = (x: number[], y: number[]) => x.length === y.length && [...x].sort().every((v, i) => v === [...y].sort()[i]);
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}
