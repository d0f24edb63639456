// Typed GraphQL subscriptions for frontends: new messages in a narrow, typing notifications. They
// listen to the same event bus as the queues, so they see exactly what the viewer may see.
import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { MessageType, NarrowTermInput } from '../../schema/messages.ts';
import { TypingNotification, type TypingShape } from '../../schema/live.ts';
import type { MessageView } from '../messages/present.ts';
import { matchesNarrow, type MessageEventPayload } from './shape.ts';
import { deliveriesFor, stoppable } from './bus-iterator.ts';
import { BadRequestError } from '../errors.ts';

const SUPPORTED = new Set(['channel', 'stream', 'topic', 'sender', 'is']);

builder.subscriptionFields((t) => ({
  newMessages: t.field({
    type: MessageType,
    description: 'Each new message the viewer receives, optionally only those matching a narrow (channel, topic, sender, is:dm).',
    args: { narrow: t.arg({ type: [NarrowTermInput], defaultValue: [], description: 'Filters; all must match.' }) },
    subscribe: (_root, args, ctx) => {
      const viewer = requireUser(ctx);
      const narrow = (args.narrow ?? []).map((term) => {
        if (!SUPPORTED.has(term.operator)) throw new BadRequestError(`Invalid narrow operator: unknown operator ${term.operator}`);
        return [term.operator, String(term.operand)] as [string, string];
      });
      return stoppable((signal) => deliveriesFor<MessageView>(ctx.events, (delivery) => {
        if (delivery.realmId !== viewer.realmId || delivery.event.type !== 'message' || !delivery.userIds.includes(viewer.id)) return undefined;
        const { message, flags_by_user: flags } = delivery.event as MessageEventPayload;
        if (!matchesNarrow(narrow, message)) return undefined;
        return { ...message, flags: flags[viewer.id] ?? [] };
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
      return stoppable((signal) => deliveriesFor<TypingShape>(ctx.events, (delivery) => {
        const e = delivery.event as Record<string, any>;
        if (delivery.realmId !== viewer.realmId || e.type !== 'typing' || !delivery.userIds.includes(viewer.id)) return undefined;
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
