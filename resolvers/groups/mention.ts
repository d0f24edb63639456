// Who may mention a group (loudly): the group's can_mention_group, after Zulip's
// check_user_group_mention_allowed. Silent mentions are never checked; the server's own messages
// may mention only groups everyone may mention.
import type { Db } from '../../prisma/database.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from './permission-settings.ts';
import { holdsGroupPermission } from './access.ts';

export async function checkGroupMentionsAllowed(db: Db, sender: User, groupIds: number[], system: boolean): Promise<void> {
  if (!groupIds.length) return;
  const groups = await db.userGroup.findMany({ where: { id: { in: groupIds } }, select: { name: true, canMentionGroupId: true }, orderBy: { id: 'asc' } });
  const settingGroups = await db.userGroup.findMany({ where: { id: { in: groups.map((g) => g.canMentionGroupId!).filter((id) => id != null) } }, select: { id: true, name: true, isSystemGroup: true } });
  const everyone = new Set(settingGroups.filter((g) => g.isSystemGroup && g.name === 'role:everyone').map((g) => g.id));
  const allowEveryone = SUPPORTED_PERMISSION_SETTINGS.group.can_mention_group.allow_everyone_group;
  for (const group of groups) {
    if (group.canMentionGroupId != null && everyone.has(group.canMentionGroupId)) continue;
    if (system || !(await holdsGroupPermission(db as any, sender, group.canMentionGroupId, allowEveryone))) {
      throw new BadRequestError(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
}
