// Event queues (register, long-poll, delete) and typing notifications.
import type { Route } from '../route.ts';
import { RawJson } from '../json.ts';
import { eventsJson } from '../../resolvers/events/queue.ts';

export const eventRoutes: Route[] = [
  {
    method: 'POST', path: '/register', public: true, field: 'registerEventQueue',
    params: {
      client_gravatar: { aliases: ['client_extavatar'] },
      // A JSON boolean or the string "partial" (JSON-encoded or bare).
      include_subscribers: { convert: (v: string) => v.replace(/^"|"$/g, '') },
    },
    shape: (r) => ({ queue_id: r.queueId, last_event_id: r.lastEventId, idle_queue_timeout_secs: r.idleQueueTimeoutSecs, ...r.state }),
  },
  {
    method: 'GET', path: '/events', public: true, field: 'events',
    // Each event's JSON is made once, however many queues answer with it.
    shape: (events, p) => ({ events: new RawJson(eventsJson(events)), queue_id: p.queue_id }),
  },
  { method: 'DELETE', path: '/events', public: true, field: 'deleteEventQueue' },
  { method: 'POST', path: '/typing', field: 'setTypingStatus', params: { type: { default: 'direct' } } },
];
