// `scheduled_messages` and `reminders` events, to the sender's own queues.
import { tailorEvents, topicForQueue, type QueueView } from '../events/kinds.ts';

type Record_ = Record<string, unknown>;

export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: Record_[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: Record_ }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

export type RemindersEvent =
  | { type: 'reminders'; op: 'add'; reminders: Record_[] }
  | { type: 'reminders'; op: 'remove'; reminder_id: number };

declare module '../events/kinds.ts' {
  interface EventKinds {
    scheduled_messages: ScheduledMessagesEvent;
    reminders: RemindersEvent;
  }
}

function withTopic(record: Record_, queue: QueueView): Record_ {
  return typeof record.topic === 'string' ? { ...record, topic: topicForQueue(record.topic, queue) } : record;
}

tailorEvents('scheduled_messages', (event, queue) => {
  if (event.op === 'add') return [{ ...event, scheduled_messages: event.scheduled_messages.map((m) => withTopic(m, queue)) }];
  if (event.op === 'update') return [{ ...event, scheduled_message: withTopic(event.scheduled_message, queue) }];
  return [{ ...event }];
});
