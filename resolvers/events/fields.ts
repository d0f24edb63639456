// GraphQL fields of the events area: registering queues, polling them, and subscribing to them.
import { builder } from '../../schema/builder.ts';
import { IdleQueueTimeout, RegisterResultType } from '../../schema/events.ts';
import { registerQueue } from './register.ts';
import { resultsAsIs } from '../../schema/direct-results.ts';
import { eventJson } from './queue.ts';

builder.mutationFields((t) => ({
  registerEventQueue: t.field({
    type: RegisterResultType,
    description: 'Registers an event queue and returns the initial state (Zulip\'s POST /register). Spectators may register where web-public access is on.',
    args: {
      applyMarkdown: t.arg.boolean({ description: 'Message content as HTML in events.' }),
      clientGravatar: t.arg.boolean({ description: 'The client computes gravatar URLs itself.' }),
      includeSubscribers: t.arg.string({ description: '`true`, `false` or `partial`.' }),
      slimPresence: t.arg.boolean({ description: 'Presences keyed by user ID, modern format.' }),
      presenceHistoryLimitDays: t.arg.int({ description: 'How far back presence data goes.' }),
      eventTypes: t.arg.stringList({ description: 'Event types to receive; all when omitted.' }),
      fetchEventTypes: t.arg.stringList({ description: 'Event types whose initial data to return; defaults to eventTypes.' }),
      allPublicStreams: t.arg.boolean({ description: 'Receive messages of every public channel.' }),
      narrow: t.arg({ type: 'JSON', description: 'Only message events matching these [operator, operand] pairs.' }),
      clientCapabilities: t.arg({ type: 'JSON', description: 'Capability flags that change which events and formats the client gets.' }),
      idleQueueTimeout: t.arg({ type: IdleQueueTimeout, description: 'Seconds the queue survives without a poll (60 to 604800; default 600), or `"mobile"`: 12 hours.' }),
    },
    resolve: (_root, args, ctx) => registerQueue(ctx, args),
  }),
  deleteEventQueue: t.boolean({
    description: 'Deletes one of the viewer\'s event queues.',
    args: { queueId: t.arg.string({ required: true, description: 'The queue.' }) },
    resolve: async (_root, args, ctx) => {
      await ctx.queues.delete(await ctx.queues.get(args.queueId, ctx.user?.id ?? null));
      return true;
    },
  }),
}));

builder.queryFields((t) => ({
  events: t.field({
    type: ['JSON'],
    description: 'Long-polls a queue (Zulip\'s GET /events): acknowledges events up to lastEventId, then returns newer ones, waiting for one (or a heartbeat) unless dontBlock.',
    args: {
      queueId: t.arg.string({ required: true, description: 'The queue.' }),
      lastEventId: t.arg.int({ description: 'The last event the client has processed.' }),
      dontBlock: t.arg.boolean({ defaultValue: false, description: 'Answer at once, even with no events.' }),
    },
    resolve: async (_root, args, ctx) => {
      const queue = await ctx.queues.get(args.queueId, ctx.user?.id ?? null);
      return ctx.queues.fetch(queue, args.lastEventId ?? null, args.dontBlock ?? false, ctx.signal);
    },
  }),
}));

builder.subscriptionType({ description: 'Live events over graphql-ws, from the same event system as REST queues.' });

builder.subscriptionFields((t) => ({
  queueEvents: t.field({
    type: 'JSON',
    description: 'Streams a queue\'s events in Zulip\'s wire format, exactly what GET /events would return. Events stay queued until acknowledged, so resuming with lastEventId after a dropped connection loses nothing.',
    args: {
      queueId: t.arg.string({ required: true, description: 'A queue from registerEventQueue.' }),
      lastEventId: t.arg.int({ defaultValue: -1, description: 'The last event the client has processed; older ones are acknowledged.' }),
    },
    subscribe: async (_root, args, ctx) => {
      const queue = await ctx.queues.get(args.queueId, ctx.user?.id ?? null);
      // Each event is the result as it is (JSON, resolved unchanged): no execution per event, and
      // its JSON made from the JSON its queue-mates share (eventJson).
      return resultsAsIs(ctx, ctx.queues.stream(queue, args.lastEventId ?? -1, ctx.signal ?? new AbortController().signal), eventJson);
    },
    resolve: (event) => event,
  }),
}));

