// GraphQL fields for organization settings (PATCH /realm): for now its notification channels.
import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { updateNotificationChannels } from './notification-channels.ts';

const NotificationChannelsInput = builder.inputType('NotificationChannelsInput', {
  description: 'The organization\'s notification channels. A channel ID sets one; -1 turns it off; an absent field stays as it is.',
  fields: (t) => ({
    moderationRequestChannelId: t.int({ description: 'The private channel that receives message reports.' }),
    newStreamAnnouncementsStreamId: t.int({ description: 'Where new channels are announced.' }),
    signupAnnouncementsStreamId: t.int({ description: 'Where new users are announced.' }),
    zulipUpdateAnnouncementsStreamId: t.int({ description: 'Where server update notices are posted.' }),
  }),
});

builder.mutationFields((t) => ({
  updateRealmNotificationChannels: t.field({
    type: 'JSON',
    description: 'Sets the organization\'s notification channels (administrators only). Returns the settings that changed, by their Zulip wire names, with `-1` for none.',
    args: { channels: t.arg({ type: NotificationChannelsInput, required: true, description: 'The settings to change.' }) },
    resolve: (_root, { channels }, ctx) => updateNotificationChannels(ctx, requireUser(ctx), {
      moderation_request_channel_id: channels.moderationRequestChannelId ?? undefined,
      new_stream_announcements_stream_id: channels.newStreamAnnouncementsStreamId ?? undefined,
      signup_announcements_stream_id: channels.signupAnnouncementsStreamId ?? undefined,
      zulip_update_announcements_stream_id: channels.zulipUpdateAnnouncementsStreamId ?? undefined,
    }),
  }),
}));
