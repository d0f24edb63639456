// Typed GraphQL subscriptions for frontends: new messages in a narrow, typing notifications. They
// listen to the same event bus as the queues, so they see exactly what the viewer may see.
import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { MessageType, NarrowTermInput } from '../../schema/messages.ts';
import { TypingNotification, type TypingShape } from '../../schema/live.ts';
import type { MessageView } from '../messages/present.ts';
import { checkNarrowForEvents, matchesNarrow } from '../messages/narrow-filter.ts';
import { deliveriesFor, stoppable } from './bus-iterator.ts';

builder.subscriptionFields((t) => ({
  newMessages: t.field({
    type: MessageType,
    description: 'Each new message the viewer receives, optionally only those matching a narrow (as an event queue\'s: channel, topic, exact-topic, sender, is:dm/starred/unread/mentioned/alerted/resolved).',
    args: { narrow: t.arg({ type: [NarrowTermInput], defaultValue: [], description: 'Filters; all must match.' }) },
    subscribe: (_root, args, ctx) => {
      const viewer = requireUser(ctx);
      const narrow = (args.narrow ?? []).map((term) => [term.operator, String(term.operand)] as [string, string]);
      checkNarrowForEvents(narrow);
      return stoppable((signal) => deliveriesFor<MessageView>(ctx.events, viewer, (delivery) => {
        const event = delivery.event;
        if (event.type !== 'message') return undefined;
        const flags = event.flags_by_user[viewer.id] ?? [];
        if (!matchesNarrow(narrow, event.message, flags)) return undefined;
        return { ...event.message, flags };
      }, signal), ctx.signal);
    },
    resolve: (message) => message,
  }),
  typingNotifications: t.field({
    type: TypingNotification,
    description: 'Typing notifications addressed to the viewer, optionally only for one channel.',
    args: { streamId: t.arg.int({ description: 'Only typing in this channel.' }) },
    subscribe: (_root, args, ctx) => {
      const viewer = requireUser(ctx);
      return stoppable((signal) => deliveriesFor<TypingShape>(ctx.events, viewer, (delivery) => {
        const e = delivery.event as Record<string, any>;
        if (e.type !== 'typing') return undefined;
        if (args.streamId != null && e.stream_id !== args.streamId) return undefined;
        return {
          op: e.op, senderId: e.sender.user_id, messageType: e.message_type,
          streamId: e.stream_id ?? null, topic: e.topic ?? null,
          recipientIds: (e.recipients ?? []).map((r: { user_id: number }) => r.user_id),
        };
      }, signal), ctx.signal);
    },
    resolve: (typing) => typing,
  }),
}));
