// Who hears about a channel: the users with metadata access (they get its `stream` events). Computed
// for a whole realm at once, because changing a channel's privacy or permissions changes the answer
// and the difference decides who gets `stream create` and who gets `stream delete`.
import type { Channel, Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { activeUserIdsInGroup } from '../groups/membership.ts';
import { ROLE_ADMINISTRATOR, ROLE_GUEST } from '../users/roles.ts';
import { metadataAccessGroupIds } from './permission-settings.ts';

type Reader = Db | Prisma.TransactionClient;

/** Active users with metadata access to the channel (hasMetadataAccess for everyone at once). */
export async function metadataAudience(db: Reader, channel: Channel): Promise<number[]> {
  const [users, subs] = await Promise.all([
    db.user.findMany({ where: { realmId: channel.realmId, isActive: true }, select: { id: true, role: true } }),
    db.subscription.findMany({ where: { channelId: channel.id, active: true, isUserActive: true }, select: { userId: true } }),
  ]);
  const subscribed = new Set(subs.map((s) => s.userId));
  if (!channel.inviteOnly) return users.filter((u) => u.role !== ROLE_GUEST || subscribed.has(u.id)).map((u) => u.id);
  const granted = new Set<number>();
  for (const groupId of metadataAccessGroupIds(channel)) {
    if (groupId != null) for (const id of await activeUserIdsInGroup(db, groupId)) granted.add(id);
  }
  return users.filter((u) => subscribed.has(u.id) || u.role <= ROLE_ADMINISTRATOR || granted.has(u.id)).map((u) => u.id);
}
