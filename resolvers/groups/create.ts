// POST /user_groups/create: Zulip's add_user_group view and check_add_user_group action.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { PermissionDeniedError } from '../errors.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from './permission-settings.ts';
import {
  GROUP_PERMISSION_SETTINGS, activeUsersByIds, nameTakenRace, canCreateGroups, checkGroupName, ensureNameFree, settingColumn,
} from './access.ts';
import { groupRecord, publishGroupEvents } from './events.ts';
import { createAnonymousGroup } from './membership.ts';
import { parseGroupSettingInput, resolveGroupSetting } from './setting-value.ts';
import { accessSubgroups } from './subgroups.ts';
import { systemGroupIds } from './system.ts';

export interface CreateGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[] | null;
  /** Raw group-setting values by wire name (`can_manage_group`, ...); absent ones take the defaults. */
  settings: Partial<Record<string, unknown>>;
}

export async function createUserGroup(ctx: Context, actor: User, input: CreateGroupInput): Promise<number> {
  const realm = ctx.realm;
  const groupId = await ctx.db.$transaction(async (tx) => {
    if (!(await canCreateGroups(tx, realm, actor))) throw new PermissionDeniedError();
    const members = await activeUsersByIds(tx, realm.id, input.members);
    const name = checkGroupName(input.name);
    const parsed = GROUP_PERMISSION_SETTINGS.map((setting) => {
      const raw = input.settings[setting];
      return [setting, raw == null ? null : parseGroupSettingInput(setting, raw)] as const;
    });
    const system = await systemGroupIds(tx, realm.id);
    const columns: Record<string, number> = {};
    for (const [setting, value] of parsed) {
      if (value !== null) {
        columns[settingColumn(setting)] = await resolveGroupSetting(tx, realm.id, 'group', setting, value);
        continue;
      }
      const fallback = SUPPORTED_PERMISSION_SETTINGS.group[setting].default_group_name;
      // `group_creator`: the creator alone, as an explicit set of one member.
      columns[settingColumn(setting)] = fallback === 'group_creator'
        ? await createAnonymousGroup(tx, realm.id, [actor.id])
        : system[fallback]!;
    }
    await ensureNameFree(tx, realm.id, name);
    const group = await tx.userGroup.create({
      data: { realmId: realm.id, name, description: input.description, creatorId: actor.id, ...columns },
    });
    if (members.length) await tx.userGroupMember.createMany({ data: members.map((userId) => ({ groupId: group.id, userId })) });
    if (input.subgroups?.length) {
      // The creator may add subgroups whatever the new group's own permissions say.
      const subgroups = await accessSubgroups(tx, realm.id, input.subgroups);
      await tx.userGroupSubgroup.createMany({ data: subgroups.map((subgroupId) => ({ supergroupId: group.id, subgroupId })) });
    }
    return group.id;
  }).catch((error: unknown) => nameTakenRace(error, input.name));
  await publishGroupEvents(ctx, [{ op: 'add', group: await groupRecord(ctx, groupId) }]);
  return groupId;
}
