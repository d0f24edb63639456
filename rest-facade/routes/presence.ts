// Presence: reporting and polling, in Zulip's modern (keyed by user ID) or legacy (keyed by email) format.
import type { Route } from '../route.ts';
import { InvalidArgumentError } from '../../resolvers/errors.ts';
import { isOffline } from '../../resolvers/presence/presence.ts';

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
function lastUpdateId(value: unknown): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new InvalidArgumentError('last_update_id', 'last_update_id is not an integer');
  return value;
}

export const presenceRoutes: Route[] = [
  {
    method: 'POST', path: '/users/me/presence',
    params: {
      status: { type: 'string', required: true },
      ping_only: { type: 'bool', default: false },
      new_user_input: { type: 'bool', default: false },
      slim_presence: { type: 'bool', default: false },
      last_update_id: { type: 'json' },
      history_limit_days: { type: 'int' },
    },
    document: `mutation($status: String!, $pingOnly: Boolean, $newUserInput: Boolean, $lastUpdateId: Float, $historyLimitDays: Int) {
      updatePresence(status: $status, pingOnly: $pingOnly, newUserInput: $newUserInput, lastUpdateId: $lastUpdateId, historyLimitDays: $historyLimitDays) { ${PRESENCE_FIELDS} } }`,
    variables: (p) => ({
      status: p.status, pingOnly: p.ping_only, newUserInput: p.new_user_input,
      lastUpdateId: lastUpdateId(p.last_update_id), historyLimitDays: p.history_limit_days ?? null,
    }),
    shape: (d, p) => {
      if (!d.updatePresence) return {};
      // Passing last_update_id asks for the modern format, as slim_presence does.
      const slim = p.slim_presence || p.last_update_id !== undefined;
      const { presences, serverTimestamp, presenceLastUpdateId } = d.updatePresence;
      return { presences: slim ? modern(presences) : legacy(presences), server_timestamp: serverTimestamp, presence_last_update_id: presenceLastUpdateId };
    },
  },
  {
    method: 'GET', path: '/realm/presence', params: {},
    document: `query { presences { ${PRESENCE_FIELDS} } }`,
    shape: (d) => ({ presences: legacy(d.presences.presences), server_timestamp: d.presences.serverTimestamp }),
  },
  {
    method: 'GET', path: '/users/{user_id_or_email}/presence',
    params: { user_id_or_email: { type: 'string', in: 'path', required: true } },
    document: `query($userIdOrEmail: String!) { userPresence(userIdOrEmail: $userIdOrEmail) { legacyStatus legacyTimestamp } }`,
    shape: (d) => {
      const { legacyStatus: status, legacyTimestamp: timestamp } = d.userPresence;
      // Only the aggregate says `offline` once the last report is too old.
      return { presence: { website: { status, timestamp }, aggregated: { status: isOffline(timestamp) ? 'offline' : status, timestamp } } };
    },
  },
];
