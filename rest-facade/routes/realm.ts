// Organization settings. Zulip's PATCH /realm takes many settings; Parley serves its notification
// channels, and reports the others as ignored.
import type { Route } from '../route.ts';

export const realmRoutes: Route[] = [
  {
    method: 'PATCH', path: '/realm',
    params: {
      moderation_request_channel_id: { type: 'int' },
      new_stream_announcements_stream_id: { type: 'int' },
      signup_announcements_stream_id: { type: 'int' },
      zulip_update_announcements_stream_id: { type: 'int' },
    },
    document: `mutation($channels: NotificationChannelsInput!) { updateRealmNotificationChannels(channels: $channels) }`,
    variables: (p) => ({
      channels: {
        moderationRequestChannelId: p.moderation_request_channel_id ?? null,
        newStreamAnnouncementsStreamId: p.new_stream_announcements_stream_id ?? null,
        signupAnnouncementsStreamId: p.signup_announcements_stream_id ?? null,
        zulipUpdateAnnouncementsStreamId: p.zulip_update_announcements_stream_id ?? null,
      },
    }),
  },
];
