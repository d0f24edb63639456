// A channel whose messages the user may read, and which of them: the whole history, or only the
// messages the user received (private channels with protected history, or history gained
// through a permission group rather than a subscription).
import type { Channel, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { Prisma } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { hasContentAccess, historyIsPublicTo, isSubscribed } from '../channels/access.ts';

export interface ReadableChannel {
  channel: Channel;
  /** Restricts `m` (a Message) to what the user may read in the channel. */
  readable: Prisma.Sql;
}

export async function accessChannelContent(db: Db, user: User, channelId: number): Promise<ReadableChannel> {
  const channel = await db.channel.findUnique({ where: { id: channelId } });
  const subscribed = channel ? await isSubscribed(db, user.id, channel.id) : false;
  // Zulip's access_stream_by_id, which refuses archived channels like inaccessible ones.
  if (!channel || channel.isArchived || !(await hasContentAccess(db, user, channel, subscribed))) throw new BadRequestError('Invalid channel ID');
  const readable = (await historyIsPublicTo(db, channel, user, subscribed))
    ? Prisma.sql`TRUE`
    : Prisma.sql`EXISTS (SELECT 1 FROM "UserMessage" um WHERE um."messageId" = m.id AND um."userId" = ${user.id})`;
  return { channel, readable };
}
