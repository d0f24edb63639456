// GET /users/me/{stream_id}/topics: the channel's topics the user may read, newest first. A topic's
// name is the spelling of its latest message (topics match case-insensitively).
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { accessChannelContent } from './channel.ts';
import { topicForClient } from '../messages/topics.ts';

export interface TopicSummary {
  maxId: number;
  name: string;
}

export async function listTopics(ctx: Context, user: User, channelId: number, allowEmptyTopicName: boolean): Promise<TopicSummary[]> {
  const { channel, readable } = await accessChannelContent(ctx.db, user, channelId);
  const rows = await ctx.db.$queryRaw<{ max_id: number; name: string }[]>(Prisma.sql`
    SELECT t.max_id, last.topic AS name FROM (
      SELECT max(m.id) AS max_id FROM "Message" m
      WHERE m."channelId" = ${channel.id} AND ${readable}
      GROUP BY lower(m.topic)
    ) t JOIN "Message" last ON last.id = t.max_id
    ORDER BY t.max_id DESC`);
  return rows.map((r) => ({
    maxId: Number(r.max_id),
    name: topicForClient(r.name, ctx.realm.emptyTopicDisplayName, allowEmptyTopicName),
  }));
}
