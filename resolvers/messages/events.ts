// The messages area's events (Zulip's `message`, `update_message`, `delete_message`, `reaction`,
// `update_message_flags`) and how each queue sees them.
import { tailorEvents, topicForQueue, type QueueView, type WireEvent } from '../events/kinds.ts';
import type { MessageView } from './present.ts';
import { toZulipMessage } from './wire.ts';
import { matchesNarrow } from './narrow-filter.ts';

export interface MessageEvent {
  type: 'message';
  /** The message as its sender's request built it; each queue gets its own rendering of it. */
  message: MessageView;
  /** Each recipient's flags (the wire event carries the queue owner's beside the message). */
  flags_by_user: Record<number, string[]>;
  /** A message in a public channel: queues with `all_public_streams` receive it too. */
  public_channel?: boolean;
  /** POST /messages's `queue_id` and `local_id`: that queue, if the sender's, echoes `local_id`. */
  sender_queue_id?: string;
  local_id?: string;
}

export interface UpdateMessageEvent {
  type: 'update_message';
  user_id: number | null;
  edit_timestamp: number;
  message_id: number;
  message_ids: number[];
  /** The queue owner's flags on the message: published empty, filled from `flags_by_user` for each queue. */
  flags: string[];
  /** Each recipient's flags on `message_id` after the update; users without a row (history readers) read it as read. */
  flags_by_user?: Record<number, string[]>;
  rendering_only: boolean;
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
  stream_id?: number;
  new_stream_id?: number;
  orig_subject?: string;
  subject?: string;
  topic_links?: { text: string; url: string }[];
  propagate_mode?: string;
}

export interface DeleteMessageEvent {
  type: 'delete_message';
  message_ids: number[];
  message_type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
}

export interface ReactionEvent {
  type: 'reaction';
  op: 'add' | 'remove';
  message_id: number;
  user_id: number;
  /**
   * The reacting user again, deprecated: removed at feature level 328 and re-added at 339 because
   * clients still read it (zulip-terminal asserts on it, the React Native app reads user.user_id).
   * Zulip's notify_reaction_update sends these three fields.
   */
  user: { user_id: number; email: string; full_name: string };
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface UpdateMessageFlagsEvent {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  /** The deprecated name of `op`, still read by older clients. */
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    message: MessageEvent;
    update_message: UpdateMessageEvent;
    delete_message: DeleteMessageEvent;
    reaction: ReactionEvent;
    update_message_flags: UpdateMessageFlagsEvent;
  }
}

/** The queue owner's flags on the message (a spectator has none; all_public_streams queues get historical ones). */
function flagsFor(event: MessageEvent, queue: QueueView): string[] {
  return queue.userId != null ? (event.flags_by_user[queue.userId] ?? ['read', 'historical']) : [];
}

/** Zulip's process_message_event: only the queue the sender named gets `local_message_id`. */
function echoes(event: MessageEvent, queue: QueueView): boolean {
  return event.local_id != null && event.sender_queue_id === queue.queueId && queue.userId === event.message.senderId;
}

tailorEvents('message', (event, queue) => {
  const { message, local_id: localId } = event;
  const { options } = queue;
  const flags = flagsFor(event, queue);
  // Zulip applies a queue's narrow to message events only.
  if (options.narrow.length && !matchesNarrow(options.narrow, message, flags)) return [];
  const view: Partial<MessageView> = {
    ...message,
    content: options.applyMarkdown ? message.renderedContent : message.rawContent,
    contentType: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
    topic: message.type === 'stream' ? topicForQueue(message.topic, queue) : '',
    avatarUrl: options.clientGravatar && message.avatarUrl?.startsWith('https://secure.gravatar.com/') ? null : message.avatarUrl,
  };
  // The event's message record carries no flags; they travel beside it.
  delete view.flags;
  delete view.rawContent;
  delete view.renderedContent;
  // The client matches `local_message_id` to its local echo; Parley also requires the queue the
  // sender named to be the sender's.
  return [{ type: 'message', message: toZulipMessage(view), flags, ...(echoes(event, queue) ? { local_message_id: localId } : {}) }];
}, (event, queue) => {
  // Everything the tailor reads of the queue; the echoing queue's event is its own.
  if (echoes(event, queue)) return null;
  const { options } = queue;
  const topicShape = options.capabilities.empty_topic_name ? '' : queue.emptyTopicDisplayName;
  return JSON.stringify([options.applyMarkdown, options.clientGravatar, topicShape, flagsFor(event, queue), options.narrow]);
});

tailorEvents('delete_message', (event, queue) => {
  const tailored: DeleteMessageEvent = event.message_type === 'stream' ? { ...event, topic: topicForQueue(event.topic ?? '', queue) } : event;
  if (queue.options.capabilities.bulk_message_deletion) return [tailored as unknown as WireEvent];
  // Clients without bulk deletion get one event per message, with `message_id`.
  const { message_ids: ids, ...rest } = tailored;
  return ids.map((id) => ({ ...rest, message_id: id }));
});

tailorEvents('update_message', (event, queue) => {
  const { flags_by_user: flagsByUser, ...rest } = event;
  const tailored: UpdateMessageEvent = { ...rest };
  // Zulip's do_update_message: each user's own flags; subscribers reading a public history get ["read"].
  if (flagsByUser) tailored.flags = queue.userId != null ? (flagsByUser[queue.userId] ?? ['read']) : [];
  if (event.subject !== undefined) tailored.subject = topicForQueue(event.subject, queue);
  if (event.orig_subject !== undefined) tailored.orig_subject = topicForQueue(event.orig_subject, queue);
  return [tailored as unknown as WireEvent];
});
