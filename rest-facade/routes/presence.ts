// Presence: reporting and polling, in Zulip's modern (keyed by user ID) or legacy (keyed by email) format.
import type { Route } from '../route.ts';
import { InvalidArgumentError } from '../../resolvers/errors.ts';

const PRESENCE_FIELDS = `presences { userId email activeTimestamp idleTimestamp legacyStatus legacyTimestamp } serverTimestamp presenceLastUpdateId`;

interface PresenceData {
  userId: number;
  email: string;
  activeTimestamp: number;
  idleTimestamp: number;
  legacyStatus: string;
  legacyTimestamp: number;
}

function modern(presences: PresenceData[]): Record<string, unknown> {
  return Object.fromEntries(presences.map((p) => [String(p.userId), { active_timestamp: p.activeTimestamp, idle_timestamp: p.idleTimestamp }]));
}

function legacy(presences: PresenceData[]): Record<string, unknown> {
  return Object.fromEntries(presences.map((p) => {
    const entry = { client: 'website', status: p.legacyStatus, timestamp: p.legacyTimestamp };
    return [p.email, { aggregated: entry, website: { ...entry, pushable: false } }];
  }));
}

/** `last_update_id` values outgrow 32 bits (see resolvers/presence/presence.ts), so they travel as JSON numbers. */
function lastUpdateId(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new InvalidArgumentError('last_update_id', 'last_update_id is not an integer');
  return value;
}

export const presenceRoutes: Route[] = [
  {
    method: 'POST', path: '/users/me/presence', field: 'updatePresence',
    params: {
      slim_presence: { decode: 'bool', shapeOnly: true, default: false },
      last_update_id: { decode: 'json', convert: lastUpdateId },
    },
    select: PRESENCE_FIELDS,
    shape: (snapshot, p) => {
      if (!snapshot) return {};
      // Passing last_update_id asks for the modern format, as slim_presence does.
      const slim = p.slim_presence || p.last_update_id !== undefined;
      const { presences, serverTimestamp, presenceLastUpdateId } = snapshot;
      return { presences: slim ? modern(presences) : legacy(presences), server_timestamp: serverTimestamp, presence_last_update_id: presenceLastUpdateId };
    },
  },
  {
    method: 'GET', path: '/realm/presence', field: 'presences', hidden: ['lastUpdateId', 'historyLimitDays'], select: PRESENCE_FIELDS,
    shape: (snapshot) => ({ presences: legacy(snapshot.presences), server_timestamp: snapshot.serverTimestamp }),
  },
  {
    method: 'GET', path: '/users/{user_id_or_email}/presence', field: 'userPresence', select: 'legacyStatus legacyTimestamp aggregatedStatus',
    shape: ({ legacyStatus: status, legacyTimestamp: timestamp, aggregatedStatus }) =>
      ({ presence: { website: { status, timestamp }, aggregated: { status: aggregatedStatus, timestamp } } }),
  },
];
