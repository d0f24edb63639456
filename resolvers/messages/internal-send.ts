// Messages the server sends on its own behalf, as the organization's notification bot: channel
// announcements, reminders, message reports. Posting permissions do not apply to them (Zulip's
// internal_send_* functions), but the recipient must exist and the content is rendered as usual.
import type { Context } from '../../schema/context.ts';
import { notificationBot } from '../users/system-bots.ts';
import { sendMessage, type SentMessage } from './send.ts';

export type InternalTarget =
  | { channelId: number; topic: string }
  | { userIds: number[] };

export interface InternalSendOptions {
  /** Only these users receive it unread (Zulip's limit_unread_user_ids); everyone else has it read. */
  unreadFor?: number[];
  /** The user whose action the message reports, who has it read (Zulip's mark_as_read_for_acting_user). */
  actingUserId?: number;
}

export async function sendAsNotificationBot(ctx: Context, target: InternalTarget, content: string, options: InternalSendOptions = {}): Promise<SentMessage> {
  const bot = await notificationBot(ctx.db, ctx.realm.id);
  const input = 'channelId' in target
    ? { type: 'channel', to: target.channelId, topic: target.topic, content }
    : { type: 'direct', to: target.userIds, content };
  return sendMessage({ ...ctx, clientName: 'Internal' }, bot, { ...input, readBySender: true }, { system: true, ...options });
}
