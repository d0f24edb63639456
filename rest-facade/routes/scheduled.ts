// Scheduled messages, reminders and message reports.
import type { Route } from '../route.ts';
import { reminderWire, scheduledMessageWire } from '../../resolvers/scheduled/wire.ts';

/** A channel ID, or a JSON list of user IDs. */
const TO = { decode: 'intOrIntList' } as const;

export const scheduledRoutes: Route[] = [
  {
    method: 'GET', path: '/scheduled_messages', field: 'scheduledMessages',
    shape: (messages) => ({ scheduled_messages: messages.map(scheduledMessageWire) }),
  },
  {
    method: 'POST', path: '/scheduled_messages', field: 'createScheduledMessage',
    params: { to: TO, topic: { aliases: ['subject'] } },
    shape: (id) => ({ scheduled_message_id: id }),
  },
  {
    method: 'PATCH', path: '/scheduled_messages/{scheduled_message_id}', field: 'updateScheduledMessage',
    params: { to: TO, topic: { aliases: ['subject'] } },
  },
  { method: 'DELETE', path: '/scheduled_messages/{scheduled_message_id}', field: 'deleteScheduledMessage' },
  { method: 'GET', path: '/reminders', field: 'reminders', shape: (reminders) => ({ reminders: reminders.map(reminderWire) }) },
  { method: 'POST', path: '/reminders', field: 'createReminder', shape: (id) => ({ reminder_id: id }) },
  { method: 'DELETE', path: '/reminders/{reminder_id}', field: 'deleteReminder' },
  { method: 'POST', path: '/messages/{message_id}/report', field: 'reportMessage' },
];
