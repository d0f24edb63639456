// What one queue receives for one event: Zulip tailors events to the client that registered the
// queue (its event types, narrow, apply_markdown, client_gravatar and capabilities).
import type { ParleyEvent } from './bus.ts';
import type { QueueOptions } from './queue.ts';
import type { MessageView } from '../messages/present.ts';
import { toZulipMessage } from '../messages/wire.ts';

export interface ShapeContext {
  userId: number | null;
  options: QueueOptions;
  emptyTopicDisplayName: string;
}

/** Internal message event, as published by resolvers/messages/send.ts. */
export interface MessageEventPayload extends ParleyEvent {
  type: 'message';
  message: MessageView;
  flags_by_user: Record<string, string[]>;
  /** Set for messages in public channels: queues with all_public_streams receive them too. */
  public_channel?: boolean;
}

export function wantsType(options: QueueOptions, type: string): boolean {
  return options.eventTypes === null || options.eventTypes.includes(type) || type === 'heartbeat';
}

/** Does the message match the queue's narrow (Zulip applies narrows to message events only)? */
export function matchesNarrow(narrow: [string, string][], message: MessageView): boolean {
  for (const [operator, operand] of narrow) {
    const value = String(operand).toLowerCase();
    switch (operator) {
      case 'stream':
      case 'channel':
        if (message.type !== 'stream' || String(message.displayRecipient).toLowerCase() !== value) return false;
        break;
      case 'topic':
      case 'subject':
        if (message.type !== 'stream' || message.topic.toLowerCase() !== value) return false;
        break;
      case 'sender':
        if (message.senderEmail.toLowerCase() !== value && String(message.senderId) !== value) return false;
        break;
      case 'is':
        if ((value === 'dm' || value === 'private') && message.type !== 'private') return false;
        break;
      default:
        // Unknown operators match nothing rather than everything: a narrowed queue stays narrow.
        return false;
    }
  }
  return true;
}

function emptyTopic(topic: unknown, shape: ShapeContext): unknown {
  return topic === '' && !shape.options.capabilities.empty_topic_name ? shape.emptyTopicDisplayName : topic;
}

/** The events (zero, one or several) this queue gets for `event`. */
export function shapeForQueue(event: ParleyEvent, shape: ShapeContext): ParleyEvent[] {
  const { options } = shape;
  if (!wantsType(options, event.type)) return [];
  switch (event.type) {
    case 'message': {
      const { message, flags_by_user: flagsByUser } = event as MessageEventPayload;
      if (options.narrow.length && !matchesNarrow(options.narrow, message)) return [];
      const view: Partial<MessageView> = {
        ...message,
        content: options.applyMarkdown ? message.renderedContent : message.rawContent,
        contentType: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
        topic: message.type === 'stream' ? (emptyTopic(message.topic, shape) as string) : '',
        // The event's message record carries no flags; they travel beside it.
        flags: undefined,
        avatarUrl: options.clientGravatar && message.avatarUrl?.startsWith('https://secure.gravatar.com/') ? null : message.avatarUrl,
        rawContent: undefined,
        renderedContent: undefined,
      };
      delete view.flags;
      const flags = shape.userId != null ? (flagsByUser[shape.userId] ?? ['read', 'historical']) : [];
      return [{ type: 'message', message: toZulipMessage(view), flags }];
    }
    case 'delete_message': {
      if (event.message_type === 'stream') event = { ...event, topic: emptyTopic(event.topic, shape) };
      const ids = (event.message_ids as number[]) ?? [];
      if (options.capabilities.bulk_message_deletion) return [event];
      // Clients without bulk deletion get one event per message, with `message_id`.
      return ids.map((id) => {
        const { message_ids: _ids, ...rest } = event;
        return { ...rest, message_id: id };
      });
    }
    case 'update_message': {
      if (!('subject' in event) && !('orig_subject' in event)) return [event];
      return [{ ...event, ...(('subject' in event) ? { subject: emptyTopic(event.subject, shape) } : {}), ...(('orig_subject' in event) ? { orig_subject: emptyTopic(event.orig_subject, shape) } : {}) }];
    }
    case 'typing':
      // Channel typing reaches only clients that declared they can show it.
      if (event.message_type === 'stream' && !options.capabilities.stream_typing_notifications) return [];
      return [{ ...event, ...(event.message_type === 'stream' ? { topic: emptyTopic(event.topic, shape) } : {}) }];
    case 'stream': {
      // Archiving news: clients without `archived_channels` see the channel vanish or reappear.
      if (!('fallback' in event)) return [event];
      const { fallback, ...update } = event as ParleyEvent & { fallback: ParleyEvent };
      return [options.capabilities.archived_channels ? update : fallback];
    }
    case 'muted_topics':
      // Zulip's ClientDescriptor.accepts_event: clients that asked for user_topic get only that.
      if (options.eventTypes?.includes('user_topic')) return [];
      return [{ ...event, muted_topics: (event.muted_topics as [string, string, number][]).map(([c, topic, ts]) => [c, emptyTopic(topic, shape), ts]) }];
    case 'user_topic':
      return [{ ...event, topic_name: emptyTopic(event.topic_name, shape) }];
    case 'user_group': {
      // Deactivation and reactivation carry the group's record for clients that do not list
      // deactivated groups: to them the group is removed, then added back.
      if (!('group_record' in event)) return [event];
      const { group_record: record, ...rest } = event;
      if (options.capabilities.include_deactivated_groups) return [rest];
      const data = rest.data as { deactivated?: boolean };
      return data.deactivated ? [{ type: 'user_group', op: 'remove', group_id: rest.group_id }] : [{ type: 'user_group', op: 'add', group: record }];
    }
    case 'subscription': {
      // A notification override reset to null (resolvers/channels/properties.ts): older clients
      // get the user's default in its place, as register gives them.
      if (!('inherited_value' in event)) return [event];
      const { inherited_value: inherited, ...update } = event;
      return [options.capabilities.notification_settings_null ? update : { ...update, value: inherited }];
    }
    case 'realm_linkifiers':
      return options.capabilities.linkifier_url_template ? [event] : [];
    case 'presence': {
      // Published with both formats (resolvers/presence/presence.ts).
      const { presences, user_id, email, server_timestamp, presence } = event;
      if (options.capabilities.simplified_presence_events) return [{ type: 'presence', presences }];
      return [{ type: 'presence', user_id, email, server_timestamp, presence }];
    }
    case 'realm_emoji': {
      // `add`/`edit` carry the whole set beside them for clients that only know the legacy `update`.
      if (event.op === 'update') return [event];
      const { realm_emoji: all, ...individual } = event;
      return options.capabilities.individual_emoji_changes ? [individual] : [{ type: 'realm_emoji', op: 'update', realm_emoji: all }];
    }
    case 'scheduled_messages': {
      const withTopic = (m: Record<string, unknown>) => ('topic' in m ? { ...m, topic: emptyTopic(m.topic, shape) } : m);
      if (event.op === 'add') return [{ ...event, scheduled_messages: (event.scheduled_messages as Record<string, unknown>[]).map(withTopic) }];
      if (event.op === 'update') return [{ ...event, scheduled_message: withTopic(event.scheduled_message as Record<string, unknown>) }];
      return [event];
    }
    default:
      return [event];
  }
}
