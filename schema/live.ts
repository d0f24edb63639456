import { builder } from './builder.ts';

export interface TypingShape {
  op: string;
  senderId: number;
  messageType: string;
  streamId: number | null;
  topic: string | null;
  recipientIds: number[];
}

export const TypingNotification = builder.objectRef<TypingShape>('TypingNotification').implement({
  description: 'Someone started or stopped composing a message in a conversation the viewer is in.',
  fields: (t) => ({
    op: t.exposeString('op', { description: '`start` or `stop`.' }),
    senderId: t.exposeInt('senderId', { description: 'Who is typing.' }),
    messageType: t.exposeString('messageType', { description: '`direct` or `stream`.' }),
    streamId: t.exposeInt('streamId', { nullable: true, description: 'The channel, for channel typing.' }),
    topic: t.exposeString('topic', { nullable: true, description: 'The topic, for channel typing.' }),
    recipientIds: t.exposeIntList('recipientIds', { description: 'Participants of a direct conversation (empty for channels).' }),
  }),
});
