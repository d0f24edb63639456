// Marking whole conversations read: POST /mark_all_as_read, /mark_stream_as_read and the deprecated
// /mark_topic_as_read (the narrow-based flag update replaces them).
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { accessChannelContent } from './channel.ts';
import { topicFromClient } from '../messages/topics.ts';

/** Marks the user's unread messages matching `where` (on `m`) read and tells the user's clients. */
async function markRead(ctx: Context, user: User, where: Prisma.Sql): Promise<number[]> {
  const rows = await ctx.db.$queryRaw<{ id: number }[]>(Prisma.sql`
    UPDATE "UserMessage" um SET read = TRUE
    FROM "Message" m
    WHERE um."messageId" = m.id AND um."userId" = ${user.id} AND NOT um.read AND ${where}
    RETURNING m.id`);
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  if (ids.length) {
    ctx.events.publish(ctx.realm.id, [user.id], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids, all: false });
  }
  return ids;
}

export async function markAllAsRead(ctx: Context, user: User): Promise<number> {
  return (await markRead(ctx, user, Prisma.sql`TRUE`)).length;
}

export async function markChannelAsRead(ctx: Context, user: User, channelId: number): Promise<number> {
  const { channel } = await accessChannelContent(ctx.db, user, channelId);
  return (await markRead(ctx, user, Prisma.sql`m."channelId" = ${channel.id}`)).length;
}

export async function markTopicAsRead(ctx: Context, user: User, channelId: number, topicName: string): Promise<number> {
  const { channel } = await accessChannelContent(ctx.db, user, channelId);
  const topic = topicFromClient(topicName, ctx.realm.emptyTopicDisplayName);
  const inTopic = Prisma.sql`m."channelId" = ${channel.id} AND lower(m.topic) = lower(${topic})`;
  const [exists] = await ctx.db.$queryRaw<{ found: number }[]>(Prisma.sql`
    SELECT 1 AS found FROM "UserMessage" um JOIN "Message" m ON m.id = um."messageId"
    WHERE um."userId" = ${user.id} AND ${inTopic} LIMIT 1`);
  if (!exists) throw new BadRequestError(`No such topic '${topicName}'`);
  return (await markRead(ctx, user, inTopic)).length;
}
