// Deleting a message.
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { PermissionDeniedError, BadRequestError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { accessMessage, messageAudience } from './access.ts';
import { announceFirstMessageIds, recomputeFirstMessageId } from '../channels/first-message.ts';
import { removeAttachments, uploadsOnlyLinkedBy } from '../uploads/attachments.ts';

export async function deleteMessage(ctx: Context, user: User, messageId: number): Promise<void> {
  const { message } = await accessMessage(ctx.db, user, messageId, { modifying: true });
  const channel = message.channelId != null ? await ctx.db.channel.findUnique({ where: { id: message.channelId } }) : null;
  const canDeleteAny = (await isUserInGroup(ctx.db, user, ctx.realm.canDeleteAnyMessageGroupId))
    || (channel != null && (await isUserInGroup(ctx.db, user, channel.canDeleteAnyMessageGroupId)));
  if (!canDeleteAny) {
    if (message.senderId !== user.id) throw new PermissionDeniedError("You don't have permission to delete this message");
    const canDeleteOwn = (await isUserInGroup(ctx.db, user, ctx.realm.canDeleteOwnMessageGroupId))
      || (channel != null && (await isUserInGroup(ctx.db, user, channel.canDeleteOwnMessageGroupId)));
    if (!canDeleteOwn) throw new PermissionDeniedError("You don't have permission to delete this message");
    const limit = ctx.realm.messageContentDeleteLimitSeconds;
    if (limit != null && Date.now() - message.dateSent.getTime() > limit * 1000) {
      throw new BadRequestError('The time limit for deleting this message has passed');
    }
  }
  const audience = await messageAudience(ctx.db, messageId);
  const orphaned = await uploadsOnlyLinkedBy(ctx.db, [messageId]);
  const firstMessage = await ctx.db.$transaction(async (tx) => {
    await tx.message.delete({ where: { id: messageId } });
    return channel ? recomputeFirstMessageId(tx, channel.id) : null;
  });
  ctx.events.publish(ctx.realm.id, audience, {
    type: 'delete_message',
    message_ids: [messageId],
    message_type: channel ? 'stream' : 'private',
    ...(channel ? { stream_id: channel.id, topic: message.topic } : {}),
  });
  await announceFirstMessageIds(ctx, [firstMessage]);
  // An upload goes with the last message linking it.
  await removeAttachments(ctx, orphaned);
}
