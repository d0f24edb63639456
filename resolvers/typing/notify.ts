// POST /typing: the server keeps no typing state; it only tells the other participants.
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError, StreamDoesNotExistError } from '../errors.ts';
import { hasContentAccess } from '../channels/access.ts';
import { normalizeTopic } from '../messages/topics.ts';
import { effectiveSettings, userSetting } from '../settings/catalog.ts';
import { usersMuting } from '../users/muted-users.ts';

export interface TypingInput {
  type?: string | null;
  op: string;
  to?: number[] | null;
  streamId?: number | null;
  topic?: string | null;
}

/**
 * Who of these users hears the sender typing: those who receive typing notifications
 * (`receives_typing_notifications`) and have not muted the sender.
 */
async function typingAudience(ctx: Context, sender: User, userIds: number[]): Promise<number[]> {
  if (!userIds.length) return [];
  const muting = await usersMuting(ctx.db, ctx.realm.id, sender.id);
  const users = await ctx.db.user.findMany({ where: { id: { in: userIds }, realmId: ctx.realm.id, isActive: true }, select: { id: true, settings: true } });
  return users.filter((u) => !muting.has(u.id) && userSetting(u, 'receives_typing_notifications')).map((u) => u.id).sort((a, b) => a - b);
}

export async function notifyTyping(ctx: Context, sender: User, input: TypingInput): Promise<void> {
  if (input.op !== 'start' && input.op !== 'stop') throw new BadRequestError('Invalid op');
  const type = input.type ?? 'direct';
  const senderInfo = { user_id: sender.id, email: sender.email };
  const settings = effectiveSettings(sender, ctx.realm);
  if (type === 'direct' || type === 'private') {
    if (!settings.send_private_typing_notifications) throw new BadRequestError('User has disabled typing notifications for direct messages');
    const ids = [...new Set(input.to ?? [])];
    if (!ids.length) throw new BadRequestError('Missing parameter: \'to\' (recipient)');
    const users = await ctx.db.user.findMany({ where: { id: { in: ids }, realmId: ctx.realm.id, isActive: true }, select: { id: true, email: true } });
    if (users.length !== ids.length) throw new BadRequestError('Invalid user ID');
    const recipients = [...users, ...(ids.includes(sender.id) ? [] : [{ id: sender.id, email: sender.email }])]
      .sort((a, b) => a.id - b.id)
      .map((u) => ({ user_id: u.id, email: u.email }));
    const audience = await typingAudience(ctx, sender, recipients.map((r) => r.user_id).filter((id) => id !== sender.id));
    ctx.events.publish(ctx.realm.id, audience, { type: 'typing', op: input.op, message_type: 'direct', sender: senderInfo, recipients });
    return;
  }
  if (type !== 'stream' && type !== 'channel') throw new BadRequestError('Invalid type');
  if (input.streamId == null) throw new BadRequestError('Missing stream_id');
  if (input.topic == null) throw new BadRequestError('Missing topic');
  if (!settings.send_stream_typing_notifications) throw new BadRequestError('User has disabled typing notifications for channel messages');
  const channel = await ctx.db.channel.findFirst({ where: { id: input.streamId, realmId: ctx.realm.id } });
  if (!channel || !(await hasContentAccess(ctx.db, sender, channel))) throw StreamDoesNotExistError.byId(input.streamId);
  const topic = normalizeTopic(input.topic, ctx.realm, { noTopic: true });
  const subscribers = await ctx.db.subscription.findMany({
    where: { channelId: channel.id, active: true, isUserActive: true, userId: { not: sender.id } },
    select: { userId: true },
  });
  ctx.events.publish(ctx.realm.id, await typingAudience(ctx, sender, subscribers.map((s) => s.userId)), {
    type: 'typing', op: input.op, message_type: 'stream', sender: senderInfo, stream_id: channel.id, topic,
  });
}
