// `presence` events, published in both of Zulip's formats; each queue gets the one it asked for.
import { tailorEvents } from '../events/kinds.ts';

export interface PresenceEvent {
  type: 'presence';
  /** The modern format (`simplified_presence_events`): by user ID. */
  presences: Record<string, { active_timestamp: number; idle_timestamp: number }>;
  /** The legacy format. */
  user_id: number;
  email: string;
  server_timestamp: number;
  presence: Record<string, { client: string; status: string; timestamp: number; pushable: boolean }>;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    presence: PresenceEvent;
  }
}

tailorEvents('presence', (event, queue) => {
  const { presences, user_id, email, server_timestamp, presence } = event;
  if (queue.options.capabilities.simplified_presence_events) return [{ type: 'presence', presences }];
  return [{ type: 'presence', user_id, email, server_timestamp, presence }];
});
