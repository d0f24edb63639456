// `typing` events (Zulip's do_send_typing_notification / do_send_stream_typing_notification).
import { tailorEvents, topicForQueue } from '../events/kinds.ts';

export interface TypingEvent {
  type: 'typing';
  op: 'start' | 'stop';
  message_type: 'direct' | 'stream';
  sender: { user_id: number; email: string };
  /** Direct typing: everyone in the conversation. */
  recipients?: { user_id: number; email: string }[];
  stream_id?: number;
  topic?: string;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    typing: TypingEvent;
  }
}

tailorEvents('typing', (event, queue) => {
  if (event.message_type !== 'stream') return [{ ...event }];
  // Channel typing reaches only clients that declared they can show it.
  if (!queue.options.capabilities.stream_typing_notifications) return [];
  return [{ ...event, topic: topicForQueue(event.topic ?? '', queue) }];
});
