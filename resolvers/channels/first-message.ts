// A channel's first_message_id after messages leave it (deleted or moved away) or arrive by a move:
// recomputed inside the writing transaction, announced after commit as a `stream update`, as
// Zulip's check_update_first_message_id does.
import type { Channel, Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { metadataAudience } from './audience.ts';
import { streamUpdateEvent } from './update-events.ts';

/** A channel whose first message changed, and its new first message (null: the channel is empty). */
export interface FirstMessageChange {
  channelId: number;
  firstMessageId: number | null;
}

/** Recomputes the stored value under the transaction; returns the change, or null when it is the same. */
export async function recomputeFirstMessageId(tx: Prisma.TransactionClient, channelId: number): Promise<FirstMessageChange | null> {
  const current = await tx.channel.findUnique({ where: { id: channelId }, select: { firstMessageId: true } });
  const first = await tx.message.findFirst({ where: { channelId }, orderBy: { id: 'asc' }, select: { id: true } });
  const next = first?.id ?? null;
  if (!current || current.firstMessageId === next) return null;
  await tx.channel.update({ where: { id: channelId }, data: { firstMessageId: next } });
  return { channelId, firstMessageId: next };
}

/** After commit: tells everyone who may see each channel its new first_message_id. */
export async function announceFirstMessageIds(ctx: Context, changes: (FirstMessageChange | null)[]): Promise<void> {
  for (const change of changes) {
    if (!change) continue;
    const channel: Channel | null = await ctx.db.channel.findUnique({ where: { id: change.channelId } });
    if (!channel) continue;
    ctx.events.publish(ctx.realm.id, await metadataAudience(ctx.db, channel), streamUpdateEvent(channel, { property: 'first_message_id', value: change.firstMessageId }));
  }
}
