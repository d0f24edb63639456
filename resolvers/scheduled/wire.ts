// Scheduled messages and reminders as Zulip's records and events show them (ScheduledMessage.to_dict
// and to_reminder_dict): one row type, two shapes told apart by `deliveryType`.
import type { ScheduledMessage } from '../../prisma/generated/client/client.ts';
import { toUnixSeconds } from '../time.ts';

export const SEND_LATER = 'send_later';
export const REMIND = 'remind';

export interface ScheduledMessageView {
  scheduledMessageId: number;
  /** `stream` or `private`, as Zulip's records say. */
  type: string;
  /** The channel ID, or the direct-message recipients' IDs. */
  to: number | number[];
  /** Only for channel messages. */
  topic: string | null;
  content: string;
  renderedContent: string;
  scheduledDeliveryTimestamp: number;
  failed: boolean;
}

export interface ReminderView {
  reminderId: number;
  type: string;
  to: number[];
  content: string;
  renderedContent: string;
  scheduledDeliveryTimestamp: number;
  failed: boolean;
  reminderTargetMessageId: number;
}

export function scheduledMessageView(row: ScheduledMessage): ScheduledMessageView {
  return {
    scheduledMessageId: row.id,
    type: row.channelId != null ? 'stream' : 'private',
    to: row.channelId ?? [...row.directRecipientIds].sort((a, b) => a - b),
    topic: row.channelId != null ? (row.topic ?? '') : null,
    content: row.content,
    renderedContent: row.renderedContent,
    scheduledDeliveryTimestamp: toUnixSeconds(row.scheduledTimestamp),
    failed: row.failed,
  };
}

export function reminderView(row: ScheduledMessage): ReminderView {
  return {
    reminderId: row.id,
    type: 'private',
    to: [...row.directRecipientIds].sort((a, b) => a - b),
    content: row.content,
    renderedContent: row.renderedContent,
    scheduledDeliveryTimestamp: toUnixSeconds(row.scheduledTimestamp),
    failed: row.failed,
    reminderTargetMessageId: row.reminderTargetMessageId ?? 0,
  };
}

/**
 * The wire record (snake_case), as events and GET /scheduled_messages carry it; from a view, or from
 * a GraphQL selection of all of a ScheduledMessage's fields (the same keys).
 */
export function scheduledMessageWire(v: ScheduledMessageView): Record<string, unknown> {
  return {
    scheduled_message_id: v.scheduledMessageId,
    type: v.type,
    to: v.to,
    ...(v.topic != null ? { topic: v.topic } : {}),
    content: v.content,
    rendered_content: v.renderedContent,
    scheduled_delivery_timestamp: v.scheduledDeliveryTimestamp,
    failed: v.failed,
  };
}

export function reminderWire(v: ReminderView): Record<string, unknown> {
  return {
    reminder_id: v.reminderId,
    type: v.type,
    to: v.to,
    content: v.content,
    rendered_content: v.renderedContent,
    scheduled_delivery_timestamp: v.scheduledDeliveryTimestamp,
    failed: v.failed,
    reminder_target_message_id: v.reminderTargetMessageId,
  };
}

export function scheduledMessageRecord(row: ScheduledMessage): Record<string, unknown> {
  return scheduledMessageWire(scheduledMessageView(row));
}

export function reminderRecord(row: ScheduledMessage): Record<string, unknown> {
  return reminderWire(reminderView(row));
}
