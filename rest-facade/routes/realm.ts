// Organization settings. Zulip's PATCH /realm takes many settings; Parley serves its notification
// channels, and reports the others as ignored.
import type { Route } from '../route.ts';

export const realmRoutes: Route[] = [
  { method: 'PATCH', path: '/realm', field: 'updateRealmNotificationChannels', params: { channels: { flatten: true } } },
];
