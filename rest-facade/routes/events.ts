// Event queues (register, long-poll, delete) and typing notifications.
import type { Route } from '../route.ts';

export const eventRoutes: Route[] = [
  {
    method: 'POST', path: '/register', public: true,
    params: {
      apply_markdown: { type: 'bool' },
      client_gravatar: { type: 'bool', aliases: ['client_extavatar'] },
      include_subscribers: { type: 'string' },
      slim_presence: { type: 'bool' },
      presence_history_limit_days: { type: 'int' },
      event_types: { type: 'stringList' },
      fetch_event_types: { type: 'stringList' },
      all_public_streams: { type: 'bool' },
      narrow: { type: 'json' },
      client_capabilities: { type: 'json' },
      idle_queue_timeout: { type: 'int' },
    },
    document: `mutation($applyMarkdown: Boolean, $clientGravatar: Boolean, $includeSubscribers: String, $slimPresence: Boolean, $presenceHistoryLimitDays: Int, $eventTypes: [String!], $fetchEventTypes: [String!], $allPublicStreams: Boolean, $narrow: JSON, $clientCapabilities: JSON, $idleQueueTimeout: Int) {
      registerEventQueue(applyMarkdown: $applyMarkdown, clientGravatar: $clientGravatar, includeSubscribers: $includeSubscribers, slimPresence: $slimPresence, presenceHistoryLimitDays: $presenceHistoryLimitDays, eventTypes: $eventTypes, fetchEventTypes: $fetchEventTypes, allPublicStreams: $allPublicStreams, narrow: $narrow, clientCapabilities: $clientCapabilities, idleQueueTimeout: $idleQueueTimeout) { queueId lastEventId idleQueueTimeoutSecs state } }`,
    // include_subscribers arrives as a JSON boolean or the string "partial".
    variables: (p) => ({
      applyMarkdown: p.apply_markdown ?? null, clientGravatar: p.client_gravatar ?? null,
      includeSubscribers: p.include_subscribers == null ? null : String(p.include_subscribers).replace(/^"|"$/g, ''),
      slimPresence: p.slim_presence ?? null, presenceHistoryLimitDays: p.presence_history_limit_days ?? null,
      eventTypes: p.event_types ?? null, fetchEventTypes: p.fetch_event_types ?? null, allPublicStreams: p.all_public_streams ?? null,
      narrow: p.narrow ?? null, clientCapabilities: p.client_capabilities ?? null, idleQueueTimeout: p.idle_queue_timeout ?? null,
    }),
    shape: (d) => {
      const r = d.registerEventQueue;
      return { queue_id: r.queueId, last_event_id: r.lastEventId, idle_queue_timeout_secs: r.idleQueueTimeoutSecs, ...r.state };
    },
  },
  {
    method: 'GET', path: '/events', public: true,
    params: {
      queue_id: { type: 'string', required: true },
      last_event_id: { type: 'int' },
      dont_block: { type: 'bool', default: false },
    },
    document: `query($queueId: String!, $lastEventId: Int, $dontBlock: Boolean) { events(queueId: $queueId, lastEventId: $lastEventId, dontBlock: $dontBlock) }`,
    shape: (d, p) => ({ events: d.events, queue_id: p.queue_id }),
  },
  {
    method: 'DELETE', path: '/events', public: true,
    params: { queue_id: { type: 'string', required: true } },
    document: `mutation($queueId: String!) { deleteEventQueue(queueId: $queueId) }`,
  },
  {
    method: 'POST', path: '/typing',
    params: {
      type: { type: 'string', default: 'direct' },
      op: { type: 'string', required: true },
      to: { type: 'intList' },
      stream_id: { type: 'int' },
      topic: { type: 'string' },
    },
    document: `mutation($type: String, $op: String!, $to: [Int!], $streamId: Int, $topic: String) { setTypingStatus(type: $type, op: $op, to: $to, streamId: $streamId, topic: $topic) }`,
    variables: (p) => ({ type: p.type, op: p.op, to: p.to ?? null, streamId: p.stream_id ?? null, topic: p.topic ?? null }),
  },
];
