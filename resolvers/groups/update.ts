// PATCH /user_groups/{id}: Zulip's edit_user_group. Name, description, reactivation and each
// permission setting as an update object `{new, old?}`; one `user_group update` event per change.
import type { User, UserGroup } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import {
  GROUP_PERMISSION_SETTINGS, accessGroupForUpdate, checkGroupName, ensureNameFree, nameTakenRace, refuseGuests, settingColumn,
} from './access.ts';
import { groupRecord, publishGroupEvents, type GroupEventBody } from './events.ts';
import {
  currentSettingValue, parseGroupSettingInput, resolveGroupSetting, sameSettingValue, type GroupSettingInput,
} from './setting-value.ts';
import { systemGroupIds } from './system.ts';

export interface UpdateGroupInput {
  name?: string | null;
  description?: string | null;
  deactivated?: boolean | null;
  /** Update objects `{new, old?}` by wire name (`can_manage_group`, ...). */
  settings: Partial<Record<string, unknown>>;
}

interface SettingUpdate {
  setting: string;
  new: GroupSettingInput;
  old: GroupSettingInput | null;
}

/** Checks the wire shape of an update object. */
export function parseSettingUpdate(setting: string, raw: unknown): SettingUpdate {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BadRequestError(`${setting} is not a dict`);
  const obj = raw as Record<string, unknown>;
  const unknownKey = Object.keys(obj).find((k) => k !== 'new' && k !== 'old');
  if (unknownKey) throw new BadRequestError(`${setting} has an unknown key '${unknownKey}'`);
  if (obj.new === undefined) throw new BadRequestError(`${setting}["new"] field is missing`);
  return {
    setting,
    new: parseGroupSettingInput(`${setting}["new"]`, obj.new),
    old: obj.old == null ? null : parseGroupSettingInput(`${setting}["old"]`, obj.old),
  };
}

/** An empty explicit set is the `role:nobody` group (Zulip's parse_group_setting_value). */
function canonical(value: GroupSettingInput, nobodyId: number): GroupSettingInput {
  return typeof value !== 'number' && !value.direct_members.length && !value.direct_subgroups.length ? nobodyId : value;
}

export async function updateUserGroup(ctx: Context, actor: User, groupId: number, input: UpdateGroupInput): Promise<void> {
  refuseGuests(actor);
  const updates = GROUP_PERMISSION_SETTINGS.filter((s) => input.settings[s] != null).map((s) => parseSettingUpdate(s, input.settings[s]));
  if (input.name == null && input.description == null && input.deactivated == null && !updates.length) {
    throw new BadRequestError('No new data supplied');
  }
  const events: GroupEventBody[] = [];
  let reactivated = false;
  await ctx.db.$transaction(async (tx) => {
    const group = await accessGroupForUpdate(tx, ctx.realm, actor, groupId, 'can_manage_group', { allowDeactivated: true });
    const data: Partial<UserGroup> = {};
    if (input.name != null && input.name !== group.name) {
      data.name = checkGroupName(input.name);
      await ensureNameFree(tx, ctx.realm.id, data.name);
      events.push({ op: 'update', group_id: groupId, data: { name: data.name } });
    }
    if (input.description != null && input.description !== group.description) {
      data.description = input.description;
      events.push({ op: 'update', group_id: groupId, data: { description: input.description } });
    }
    if (input.deactivated === false && group.deactivated) {
      data.deactivated = false;
      reactivated = true;
      events.push({ op: 'update', group_id: groupId, data: { deactivated: false } });
    }
    if (updates.length) {
      const nobodyId = (await systemGroupIds(tx, ctx.realm.id))['role:nobody']!;
      for (const update of updates) {
        const column = settingColumn(update.setting) as keyof UserGroup;
        const current = canonical(await currentSettingValue(tx, group[column] as number), nobodyId);
        if (update.old !== null && !sameSettingValue(canonical(update.old, nobodyId), current)) {
          throw new BadRequestError("'old' value does not match the expected value.");
        }
        const wanted = canonical(update.new, nobodyId);
        if (sameSettingValue(current, wanted)) continue;
        const newId = await resolveGroupSetting(tx, ctx.realm.id, 'group', update.setting, wanted);
        (data as Record<string, unknown>)[column] = newId;
        events.push({ op: 'update', group_id: groupId, data: { [update.setting]: await currentSettingValue(tx, newId) } });
      }
    }
    if (Object.keys(data).length) await tx.userGroup.update({ where: { id: groupId }, data });
  }).catch((error: unknown) => nameTakenRace(error, input.name ?? ''));
  if (reactivated) {
    const record = await groupRecord(ctx, groupId);
    for (const event of events) if (event.op === 'update' && event.data.deactivated === false) event.group_record = record;
  }
  await publishGroupEvents(ctx, events);
}
