// Presence: who is online, as clients report it.
import { builder } from './builder.ts';
import type { PresenceSnapshot, PresenceView } from '../resolvers/presence/presence.ts';
import { isOffline, legacyStatus } from '../resolvers/presence/presence.ts';

export const UserPresenceType = builder.objectRef<PresenceView>('UserPresence').implement({
  description: 'One user\'s presence. A user is online while `idleTimestamp` is recent (within the offline threshold), and fully present while `activeTimestamp` is.',
  fields: (t) => ({
    userId: t.int({ description: 'The user.', resolve: (p) => p.userId }),
    email: t.string({ description: 'The user\'s API email (legacy presence is keyed by it).', resolve: (p) => p.email }),
    activeTimestamp: t.int({ description: 'UNIX time a client last reported the user actively present.', resolve: (p) => p.activeTimestamp }),
    idleTimestamp: t.int({ description: 'UNIX time the user last had any client connected.', resolve: (p) => p.idleTimestamp }),
    legacyStatus: t.string({ description: 'Legacy format: `active` or `idle`.', resolve: (p) => legacyStatus(p).status }),
    legacyTimestamp: t.int({ description: 'Legacy format: the UNIX time that status dates from.', resolve: (p) => legacyStatus(p).timestamp }),
    aggregatedStatus: t.string({
      description: 'Legacy format, across the user\'s clients: `active`, `idle`, or `offline` once the last report is older than the offline threshold.',
      resolve: (p) => {
        const { status, timestamp } = legacyStatus(p);
        return isOffline(timestamp) ? 'offline' : status;
      },
    }),
    updateId: t.float({ description: 'Orders presence changes: pass the highest seen as `lastUpdateId` to fetch only newer ones.', resolve: (p) => p.updateId }),
  }),
});

export const PresenceSnapshotType = builder.objectRef<PresenceSnapshot>('PresenceSnapshot').implement({
  description: 'The presence of the organization\'s users, as one fetch saw it.',
  fields: (t) => ({
    presences: t.field({ type: [UserPresenceType], description: 'Users who share their presence and were seen within the history limit (or since `lastUpdateId`).', resolve: (s) => s.presences }),
    serverTimestamp: t.float({ description: 'UNIX time (with fractions) of the fetch.', resolve: (s) => s.serverTimestamp }),
    presenceLastUpdateId: t.float({ description: 'The newest update ID returned (at least the `lastUpdateId` passed); -1 when none.', resolve: (s) => s.presenceLastUpdateId }),
  }),
});
