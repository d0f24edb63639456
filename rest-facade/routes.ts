// The route table: every /api/v1 endpoint as method + path + parameters + the GraphQL operation it
// runs + how Zulip shapes the result. No rules live here: only decoding and shaping. One file per
// area under routes/; this list is their concatenation.
import type { Route } from './route.ts';
import { serverRoutes } from './routes/server.ts';
import { userRoutes } from './routes/users.ts';
import { channelRoutes } from './routes/channels.ts';
import { messageRoutes } from './routes/messages.ts';
import { eventRoutes } from './routes/events.ts';
import { groupRoutes } from './routes/groups.ts';

export const routes: Route[] = [
  ...serverRoutes,
  ...userRoutes,
  ...channelRoutes,
  ...messageRoutes,
  ...eventRoutes,
  ...groupRoutes,
];
