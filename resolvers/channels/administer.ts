// Who may administer a channel (change its settings, archive it): organization administrators and
// members of its can_administer_channel_group, given they may know the channel exists.
import type { Channel, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { BadRequestError, PermissionDeniedError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { isAdmin } from '../users/roles.ts';
import { hasMetadataAccess } from './access.ts';

async function canAdministerChannel(db: Db, user: User, channel: Channel): Promise<boolean> {
  if (channel.realmId !== user.realmId) return false;
  return isAdmin(user) || (await isUserInGroup(db, user, channel.canAdministerChannelGroupId));
}

/** The channel, if the user may administer it; channels they may not know about read as missing. */
export async function accessChannelForAdministering(db: Db, user: User, channelId: number): Promise<Channel> {
  const channel = await db.channel.findUnique({ where: { id: channelId } });
  if (!channel || !(await hasMetadataAccess(db, user, channel))) throw new BadRequestError('Invalid channel ID');
  if (!(await canAdministerChannel(db, user, channel))) throw new PermissionDeniedError('You do not have permission to administer this channel.');
  return channel;
}
