// Scheduled messages, reminders and message reports.
import type { Route } from '../route.ts';

const SCHEDULED_FIELDS = 'scheduledMessageId type to topic content renderedContent scheduledDeliveryTimestamp failed';
const REMINDER_FIELDS = 'reminderId type to content renderedContent scheduledDeliveryTimestamp failed reminderTargetMessageId';

export const scheduledRoutes: Route[] = [
  {
    method: 'GET', path: '/scheduled_messages',
    params: {},
    document: `query { scheduledMessages { ${SCHEDULED_FIELDS} } }`,
    shape: (d) => ({
      scheduled_messages: d.scheduledMessages.map((m: any) => ({
        scheduled_message_id: m.scheduledMessageId, type: m.type, to: m.to,
        ...(m.topic != null ? { topic: m.topic } : {}),
        content: m.content, rendered_content: m.renderedContent,
        scheduled_delivery_timestamp: m.scheduledDeliveryTimestamp, failed: m.failed,
      })),
    }),
  },
  {
    method: 'POST', path: '/scheduled_messages',
    params: {
      type: { type: 'string', required: true },
      to: { type: 'intOrIntList', required: true },
      topic: { type: 'string', aliases: ['subject'] },
      content: { type: 'string', required: true },
      scheduled_delivery_timestamp: { type: 'int', required: true },
      read_by_sender: { type: 'bool' },
    },
    document: `mutation($type: String!, $to: JSON!, $topic: String, $content: String!, $scheduledDeliveryTimestamp: Int!, $readBySender: Boolean) {
      createScheduledMessage(type: $type, to: $to, topic: $topic, content: $content, scheduledDeliveryTimestamp: $scheduledDeliveryTimestamp, readBySender: $readBySender) }`,
    variables: (p) => ({
      type: p.type, to: p.to, topic: p.topic ?? null, content: p.content,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp, readBySender: p.read_by_sender ?? null,
    }),
    shape: (d) => ({ scheduled_message_id: d.createScheduledMessage }),
  },
  {
    method: 'PATCH', path: '/scheduled_messages/{scheduled_message_id}',
    params: {
      scheduled_message_id: { type: 'int', in: 'path', required: true },
      type: { type: 'string' },
      to: { type: 'intOrIntList' },
      topic: { type: 'string', aliases: ['subject'] },
      content: { type: 'string' },
      scheduled_delivery_timestamp: { type: 'int' },
    },
    document: `mutation($scheduledMessageId: Int!, $type: String, $to: JSON, $topic: String, $content: String, $scheduledDeliveryTimestamp: Int) {
      updateScheduledMessage(scheduledMessageId: $scheduledMessageId, type: $type, to: $to, topic: $topic, content: $content, scheduledDeliveryTimestamp: $scheduledDeliveryTimestamp) }`,
    variables: (p) => ({
      scheduledMessageId: p.scheduled_message_id, type: p.type ?? null, to: p.to ?? null, topic: p.topic ?? null,
      content: p.content ?? null, scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp ?? null,
    }),
  },
  {
    method: 'DELETE', path: '/scheduled_messages/{scheduled_message_id}',
    params: { scheduled_message_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($scheduledMessageId: Int!) { deleteScheduledMessage(scheduledMessageId: $scheduledMessageId) }`,
  },
  {
    method: 'GET', path: '/reminders',
    params: {},
    document: `query { reminders { ${REMINDER_FIELDS} } }`,
    shape: (d) => ({
      reminders: d.reminders.map((r: any) => ({
        reminder_id: r.reminderId, type: r.type, to: r.to, content: r.content, rendered_content: r.renderedContent,
        scheduled_delivery_timestamp: r.scheduledDeliveryTimestamp, failed: r.failed, reminder_target_message_id: r.reminderTargetMessageId,
      })),
    }),
  },
  {
    method: 'POST', path: '/reminders',
    params: {
      message_id: { type: 'int', required: true },
      scheduled_delivery_timestamp: { type: 'int', required: true },
      note: { type: 'string' },
    },
    document: `mutation($messageId: Int!, $scheduledDeliveryTimestamp: Int!, $note: String) { createReminder(messageId: $messageId, scheduledDeliveryTimestamp: $scheduledDeliveryTimestamp, note: $note) }`,
    variables: (p) => ({ messageId: p.message_id, scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp, note: p.note ?? null }),
    shape: (d) => ({ reminder_id: d.createReminder }),
  },
  {
    method: 'DELETE', path: '/reminders/{reminder_id}',
    params: { reminder_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($reminderId: Int!) { deleteReminder(reminderId: $reminderId) }`,
  },
  {
    method: 'POST', path: '/messages/{message_id}/report',
    params: {
      message_id: { type: 'int', in: 'path', required: true },
      report_type: { type: 'string', required: true },
      description: { type: 'string' },
    },
    document: `mutation($messageId: Int!, $reportType: String!, $description: String) { reportMessage(messageId: $messageId, reportType: $reportType, description: $description) }`,
    variables: (p) => ({ messageId: p.message_id, reportType: p.report_type, description: p.description ?? null }),
  },
];
