// The route table: every /api/v1 endpoint as method + path + parameters + the GraphQL operation it
// runs + how Zulip shapes the result. No rules live here: only decoding and shaping. One file per
// area under routes/; this list is their concatenation.
import type { Route } from './route.ts';
import { serverRoutes } from './routes/server.ts';
import { realmRoutes } from './routes/realm.ts';
import { userRoutes } from './routes/users.ts';
import { userAdminRoutes } from './routes/users-admin.ts';
import { channelRoutes } from './routes/channels.ts';
import { subscriptionRoutes } from './routes/subscriptions.ts';
import { messageRoutes } from './routes/messages.ts';
import { eventRoutes } from './routes/events.ts';
import { navigationViewRoutes } from './routes/views.ts';
import { savedSnippetRoutes } from './routes/snippets.ts';
import { pushRoutes } from './routes/push.ts';
import { callRoutes } from './routes/calls.ts';
import { channelAdminRoutes } from './routes/channel-admin.ts';
import { topicRoutes } from './routes/topics.ts';
import { statusRoutes } from './routes/status.ts';
import { presenceRoutes } from './routes/presence.ts';
import { emojiRoutes } from './routes/emoji.ts';
import { scheduledRoutes } from './routes/scheduled.ts';
import { linkifierRoutes } from './routes/linkifiers.ts';
import { domainRoutes } from './routes/domains.ts';
import { groupRoutes } from './routes/groups.ts';
import { draftRoutes } from './routes/drafts.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { exportRoutes } from './routes/exports.ts';
import { settingsRoutes } from './routes/settings.ts';
import { playgroundRoutes } from './routes/playgrounds.ts';
import { channelFolderRoutes } from './routes/channel-folders.ts';
import { botRoutes } from './routes/bots.ts';
import { inviteRoutes } from './routes/invites.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export const routes: Route[] = [
  ...serverRoutes,
  ...realmRoutes,
  ...userRoutes,
  ...userAdminRoutes,
  ...channelRoutes,
  ...subscriptionRoutes,
  ...messageRoutes,
  ...eventRoutes,
  ...navigationViewRoutes,
  ...savedSnippetRoutes,
  ...pushRoutes,
  ...callRoutes,
  ...channelAdminRoutes,
  ...topicRoutes,
  ...statusRoutes,
  ...presenceRoutes,
  ...emojiRoutes,
  ...scheduledRoutes,
  ...linkifierRoutes,
  ...domainRoutes,
  ...groupRoutes,
  ...draftRoutes,
  ...uploadRoutes,
  ...exportRoutes,
  ...settingsRoutes,
  ...playgroundRoutes,
  ...channelFolderRoutes,
  ...botRoutes,
  ...inviteRoutes,
  ...webhookRoutes,
];
