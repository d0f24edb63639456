// POST /messages/{message_id}/typing: "someone is editing this message" (Zulip's
// send_message_edit_notification_backend and do_send_*_message_edit_typing_notification). Only who
// may edit the message's content may announce it; the event reaches whoever would see the edit,
// if they receive typing notifications. Stateless, like POST /typing.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { tailorEvents, topicForQueue } from '../events/kinds.ts';
import { effectiveSettings, userSetting } from '../settings/catalog.ts';
import { accessMessage } from '../messages/access.ts';
import { checkCanEditContent } from '../messages/edit.ts';

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: larger channels get no typing events. */
export const MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

export interface TypingEditMessageEvent {
  type: 'typing_edit_message';
  op: 'start' | 'stop';
  sender_id: number;
  message_id: number;
  recipient: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    typing_edit_message: TypingEditMessageEvent;
  }
}

tailorEvents('typing_edit_message', (event, queue) => {
  if (event.recipient.type !== 'channel') return [{ ...event }];
  return [{ ...event, recipient: { ...event.recipient, topic: topicForQueue(event.recipient.topic, queue) } }];
});

/** Of these users, the active ones who want typing notifications. */
async function typingReceivers(ctx: Context, userIds: number[]): Promise<number[]> {
  const users = await ctx.db.user.findMany({ where: { id: { in: userIds }, realmId: ctx.realm.id, isActive: true }, select: { id: true, settings: true } });
  return users.filter((u) => userSetting(u, 'receives_typing_notifications')).map((u) => u.id).sort((a, b) => a - b);
}

export async function notifyEditTyping(ctx: Context, sender: User, messageId: number, op: string): Promise<void> {
  if (op !== 'start' && op !== 'stop') throw new BadRequestError('Invalid op');
  // Archived channels' messages cannot be edited (Zulip's is_modifying_message access).
  const { message } = await accessMessage(ctx.db, sender, messageId, { modifying: true });
  checkCanEditContent(ctx.realm, sender, message);
  const settings = effectiveSettings(sender, ctx.realm);

  if (message.channelId != null) {
    if (!settings.send_stream_typing_notifications) throw new BadRequestError('User has disabled typing notifications for channel messages');
    const subscribers = await ctx.db.subscription.findMany({
      where: { channelId: message.channelId, active: true, isUserActive: true },
      select: { userId: true },
    });
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return;
    ctx.events.publish(ctx.realm.id, await typingReceivers(ctx, subscribers.map((s) => s.userId)), {
      type: 'typing_edit_message', op, sender_id: sender.id, message_id: message.id,
      recipient: { type: 'channel', channel_id: message.channelId, topic: message.topic },
    });
    return;
  }
  if (!settings.send_private_typing_notifications) throw new BadRequestError('User has disabled typing notifications for direct messages');
  const members = await ctx.db.directConversationMember.findMany({ where: { conversationId: message.directConversationId! }, select: { userId: true } });
  const receivers = await typingReceivers(ctx, members.map((m) => m.userId));
  ctx.events.publish(ctx.realm.id, receivers, {
    type: 'typing_edit_message', op, sender_id: sender.id, message_id: message.id,
    recipient: { type: 'direct', user_ids: receivers },
  });
}
