// Deleting a message.
import type { Context } from '../../schema/context.ts';
import type { Message, User } from '../../prisma/generated/client/client.ts';
import { PermissionDeniedError, BadRequestError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { accessMessage, messageAudience } from './access.ts';
import { announceFirstMessageIds, recomputeFirstMessageId } from '../channels/first-message.ts';
import { removeAttachments, uploadsOnlyLinkedBy } from '../uploads/attachments.ts';
import { inTransaction, type TxContext } from '../transaction.ts';

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
  const orphaned = await uploadsOnlyLinkedBy(ctx.db, [messageId]);
  await inTransaction(ctx, (tx) => removeMessage(tx, message));
  // An upload goes with the last message linking it.
  await removeAttachments(ctx, orphaned);
}

/**
 * Deletes a message in the caller's transaction, announced on commit to those who had it (Zulip's
 * do_delete_messages for one message); its uploads are the caller's to remove after commit.
 */
export async function removeMessage(tx: TxContext<Context>, message: Message): Promise<void> {
  const audience = await messageAudience(tx.db, message.id);
  await tx.db.message.delete({ where: { id: message.id } });
  const channelId = message.channelId;
  const firstMessage = channelId != null ? await recomputeFirstMessageId(tx.tx, channelId) : null;
  tx.events.publish(tx.realm.id, audience, {
    type: 'delete_message',
    message_ids: [message.id],
    message_type: channelId != null ? 'stream' : 'private',
    ...(channelId != null ? { stream_id: channelId, topic: message.topic } : {}),
  });
  await announceFirstMessageIds(tx, [firstMessage]);
}
