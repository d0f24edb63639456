import { builder } from './builder.ts';
import type { ReminderView, ScheduledMessageView } from '../resolvers/scheduled/wire.ts';

export const ScheduledMessageType = builder.objectRef<ScheduledMessageView>('ScheduledMessage').implement({
  description: 'A message the viewer scheduled to be sent later (Zulip\'s scheduled message record).',
  fields: (t) => ({
    scheduledMessageId: t.exposeInt('scheduledMessageId', { description: 'The scheduled message\'s ID (not the ID the message gets once sent).' }),
    type: t.exposeString('type', { description: '`stream` for a channel message, `private` for a direct message.' }),
    to: t.field({ type: 'JSON', description: 'The channel ID, or the list of recipient user IDs.', resolve: (m) => m.to }),
    topic: t.exposeString('topic', { nullable: true, description: 'The topic of a channel message ("" is the empty topic); null for direct messages.' }),
    content: t.exposeString('content', { description: 'The Markdown source.' }),
    renderedContent: t.exposeString('renderedContent', { description: 'The rendered HTML.' }),
    scheduledDeliveryTimestamp: t.exposeInt('scheduledDeliveryTimestamp', { description: 'When it is to be sent, in UNIX seconds.' }),
    failed: t.exposeBoolean('failed', { description: 'True when the server tried to send it and failed; editing it needs a new delivery time.' }),
  }),
});

export const ReminderType = builder.objectRef<ReminderView>('Reminder').implement({
  description: 'A reminder about a message, delivered by the notification bot as a direct message to the viewer.',
  fields: (t) => ({
    reminderId: t.exposeInt('reminderId', { description: 'The reminder\'s ID.' }),
    type: t.exposeString('type', { description: 'Always `private`: reminders are direct messages.' }),
    to: t.exposeIntList('to', { description: 'The recipient: the viewer\'s own user ID.' }),
    content: t.exposeString('content', { description: 'The notification bot\'s Markdown, quoting the message.' }),
    renderedContent: t.exposeString('renderedContent', { description: 'The rendered HTML.' }),
    scheduledDeliveryTimestamp: t.exposeInt('scheduledDeliveryTimestamp', { description: 'When it is to be delivered, in UNIX seconds.' }),
    failed: t.exposeBoolean('failed', { description: 'True when the server tried to deliver it and failed.' }),
    reminderTargetMessageId: t.exposeInt('reminderTargetMessageId', { description: 'The message the reminder is about.' }),
  }),
});
