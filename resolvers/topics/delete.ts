// POST /streams/{stream_id}/delete_topic: administrators delete a topic's messages, newest first, in
// batches, until done or until the time budget runs out (`complete` false: the client repeats).
// Each batch commits on its own and is announced at once, as in Zulip's delete_in_topic.
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { UnauthorizedPrincipalError } from '../errors.ts';
import { isAdmin } from '../users/roles.ts';
import { announceFirstMessageIds, recomputeFirstMessageId } from '../channels/first-message.ts';
import { accessChannelContent } from './channel.ts';
import { topicFromClient } from '../messages/topics.ts';
import { removeAttachments, uploadsOnlyLinkedBy } from '../uploads/attachments.ts';

/** Zulip deletes 100 messages per batch and stops starting batches after about 50 seconds. */
export const DEFAULT_DELETE_TOPIC_BATCH_SIZE = 100;
export const DEFAULT_DELETE_TOPIC_BUDGET_MS = 50_000;

export async function deleteTopic(ctx: Context, user: User, channelId: number, topicName: string): Promise<boolean> {
  if (!isAdmin(user)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
  const { channel, readable } = await accessChannelContent(ctx.db, user, channelId);
  const topic = topicFromClient(topicName, ctx.realm.emptyTopicDisplayName);
  const batchSize = Math.max(1, ctx.config.deleteTopicBatchSize ?? DEFAULT_DELETE_TOPIC_BATCH_SIZE);
  const budgetMs = ctx.config.deleteTopicBudgetMs ?? DEFAULT_DELETE_TOPIC_BUDGET_MS;
  const started = Date.now();
  const nextBatch = async (limit: number) => (await ctx.db.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT m.id FROM "Message" m
    WHERE m."channelId" = ${channel.id} AND lower(m.topic) = lower(${topic}) AND ${readable}
    ORDER BY m.id DESC LIMIT ${limit}`)).map((r) => r.id);
  // Subscribers of a channel with public history hear about deletions too (they may have fetched the messages).
  const subscribers = (!channel.inviteOnly || channel.historyPublicToSubscribers)
    ? (await ctx.db.subscription.findMany({ where: { channelId: channel.id, active: true, isUserActive: true }, select: { userId: true } })).map((s) => s.userId)
    : [];

  for (;;) {
    const ids = await nextBatch(batchSize);
    if (!ids.length) return true;
    const holders = (await ctx.db.userMessage.findMany({ where: { messageId: { in: ids } }, select: { userId: true } })).map((r) => r.userId);
    const audience = [...new Set([...holders, ...subscribers])];
    const orphaned = await uploadsOnlyLinkedBy(ctx.db, ids);
    const firstMessage = await ctx.db.$transaction(async (tx) => {
      await tx.message.deleteMany({ where: { id: { in: ids } } });
      return recomputeFirstMessageId(tx, channel.id);
    });
    ctx.events.publish(ctx.realm.id, audience, {
      type: 'delete_message', message_ids: [...ids].sort((a, b) => a - b), message_type: 'stream', stream_id: channel.id, topic,
    });
    await announceFirstMessageIds(ctx, [firstMessage]);
    await removeAttachments(ctx, orphaned);
    if (ids.length < batchSize) return true;
    if (Date.now() - started >= budgetMs) return (await nextBatch(1)).length === 0;
  }
}
