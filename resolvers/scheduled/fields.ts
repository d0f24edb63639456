// GraphQL fields of scheduled messages and reminders.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { ReminderType, ScheduledMessageType } from '../../schema/scheduled.ts';
import { deleteScheduledMessage, editScheduledMessage, listScheduledMessages, scheduleMessage } from './schedule.ts';
import { createReminder, deleteReminder, listReminders } from './reminders.ts';
import { reminderView, scheduledMessageView } from './wire.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';

builder.queryFields((t) => ({
  scheduledMessages: t.field({
    type: [ScheduledMessageType],
    description: 'The viewer\'s undelivered scheduled messages (failed ones included), soonest first.',
    resolve: forUser(async (ctx, user) => (await listScheduledMessages(ctx, user)).map(scheduledMessageView)),
  }),
  reminders: t.field({
    type: [ReminderType],
    description: 'The viewer\'s undelivered message reminders, soonest first.',
    resolve: forUser(async (ctx, user) => (await listReminders(ctx, user)).map(reminderView)),
  }),
}));

builder.mutationFields((t) => ({
  createScheduledMessage: t.int({
    description: 'Schedules a channel or direct message to be sent later, checked as if sent now; returns the scheduled message\'s ID.',
    args: {
      type: t.arg.string({ required: true, description: '`channel` (or `stream`) or `direct` (or `private`).' }),
      to: t.arg({ type: 'JSON', required: true, description: 'A channel ID, or a list of user IDs.' }),
      topic: t.arg.string({ description: 'The topic of a channel message; `(no topic)` and the empty topic\'s display name mean "".' }),
      content: t.arg.string({ required: true, description: 'The Markdown source.' }),
      scheduledDeliveryTimestamp: t.arg.int({ required: true, description: 'When to send it, in UNIX seconds; must be in the future.' }),
      readBySender: t.arg.boolean({ description: 'Accepted for Zulip compatibility; the sent message is read by its sender unless sent to themselves only.' }),
    },
    resolve: forUser((ctx, user, args) => scheduleMessage(ctx, user, { ...args, to: args.to as unknown })),
  }),
  updateScheduledMessage: t.boolean({
    description: 'Edits one of the viewer\'s scheduled messages; a failed one needs a new delivery time.',
    args: {
      scheduledMessageId: t.arg.int({ required: true, description: 'The scheduled message\'s ID.' }),
      type: t.arg.string({ description: 'A new type; needs `to`, and `topic` when it becomes a channel message.' }),
      to: t.arg({ type: 'JSON', description: 'A new channel ID or list of user IDs.' }),
      topic: t.arg.string({ description: 'A new topic (ignored for direct messages).' }),
      content: t.arg.string({ description: 'New Markdown content.' }),
      scheduledDeliveryTimestamp: t.arg.int({ description: 'A new delivery time in UNIX seconds, in the future.' }),
    },
    resolve: userAction((ctx, user, args) => editScheduledMessage(ctx, user, args.scheduledMessageId, { ...args, to: args.to as unknown })),
  }),
  deleteScheduledMessage: t.boolean({
    description: 'Deletes one of the viewer\'s scheduled messages.',
    args: { scheduledMessageId: t.arg.int({ required: true, description: 'The scheduled message\'s ID.' }) },
    resolve: userAction((ctx, user, args) => deleteScheduledMessage(ctx, user, args.scheduledMessageId)),
  }),
  createReminder: t.int({
    description: 'Asks the notification bot to remind the viewer of a message they can read; returns the reminder\'s ID.',
    args: {
      messageId: t.arg.int({ required: true, description: 'The message to be reminded of.' }),
      scheduledDeliveryTimestamp: t.arg.int({ required: true, description: 'When, in UNIX seconds; must be in the future.' }),
      note: t.arg.string({ description: 'A note shown in the reminder (at most 1000 characters).' }),
    },
    resolve: forUser(createReminder),
  }),
  deleteReminder: t.boolean({
    description: 'Deletes one of the viewer\'s reminders.',
    args: { reminderId: t.arg.int({ required: true, description: 'The reminder\'s ID.' }) },
    resolve: userAction((ctx, user, args) => deleteReminder(ctx, user, args.reminderId)),
  }),
}));
