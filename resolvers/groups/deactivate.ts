// POST /user_groups/{id}/deactivate: Zulip's access_user_group_for_deactivation and
// do_deactivate_user_group. A group still in use (as a subgroup of an active named group, or in a
// permission setting of an active channel, an active group or the organization, directly or
// inside an explicit set) is refused with every objection listed.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { CannotDeactivateGroupInUseError } from '../errors.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from './permission-settings.ts';
import { GROUP_PERMISSION_SETTINGS, accessGroupForUpdate, settingColumn } from './access.ts';
import { publishGroupEvents } from './events.ts';

type Tx = Prisma.TransactionClient;

async function objectionsTo(tx: Tx, realmId: number, groupId: number): Promise<Record<string, unknown>[]> {
  const objections: Record<string, unknown>[] = [];
  const supergroups = await tx.userGroupSubgroup.findMany({
    where: { subgroupId: groupId }, select: { supergroupId: true, supergroup: { select: { name: true, deactivated: true } } }, orderBy: { supergroupId: 'asc' },
  });
  const namedActive = supergroups.filter((s) => s.supergroup.name !== null && !s.supergroup.deactivated).map((s) => s.supergroupId);
  if (namedActive.length) objections.push({ type: 'subgroup', supergroup_ids: namedActive });
  // The group counts as used where a setting names it or an explicit set contains it.
  const using = new Set([groupId, ...supergroups.filter((s) => s.supergroup.name === null).map((s) => s.supergroupId)]);
  const usedIn = (row: Record<string, unknown>, settings: readonly string[]) =>
    settings.filter((setting) => using.has(row[settingColumn(setting)] as number));

  const channelSettings = Object.keys(SUPPORTED_PERMISSION_SETTINGS.stream);
  const channels = await tx.channel.findMany({ where: { realmId, isArchived: false }, orderBy: { id: 'asc' } });
  for (const channel of channels) {
    const settings = usedIn(channel as unknown as Record<string, unknown>, channelSettings);
    if (settings.length) objections.push({ type: 'channel', channel_id: channel.id, settings });
  }
  const groups = await tx.userGroup.findMany({ where: { realmId, name: { not: null }, deactivated: false }, orderBy: { id: 'asc' } });
  for (const group of groups) {
    const settings = usedIn(group as unknown as Record<string, unknown>, GROUP_PERMISSION_SETTINGS);
    if (settings.length) objections.push({ type: 'user_group', group_id: group.id, settings });
  }
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId } });
  const realmSettings = usedIn(realm as unknown as Record<string, unknown>, Object.keys(SUPPORTED_PERMISSION_SETTINGS.realm));
  if (realmSettings.length) objections.push({ type: 'realm', settings: realmSettings });
  return objections;
}

export async function deactivateUserGroup(ctx: Context, actor: User, groupId: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    await accessGroupForUpdate(tx, ctx.realm, actor, groupId, 'can_manage_group');
    const objections = await objectionsTo(tx, ctx.realm.id, groupId);
    if (objections.length) throw new CannotDeactivateGroupInUseError(objections);
    await tx.userGroup.update({ where: { id: groupId }, data: { deactivated: true } });
  });
  await publishGroupEvents(ctx, [{ op: 'update', group_id: groupId, data: { deactivated: true }, group_record: null }]);
}
