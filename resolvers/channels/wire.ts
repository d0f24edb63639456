// A channel's record on the wire (GET /streams, register, stream and subscription events) and a
// subscription's personal settings: built once here for every place that sends them.
import type { Channel, Subscription } from '../../prisma/generated/client/client.ts';
import { toUnixSeconds } from '../text.ts';

type Json = Record<string, unknown>;

/** What building a record needs to know about groups (see initial-state/groups.ts GroupIndex). */
export interface GroupLookup {
  settingValue(groupId: number | null): number | { direct_members: number[]; direct_subgroups: number[] };
  systemName(groupId: number | null): string | null | undefined;
}

const DAY_MS = 86_400_000;

/** Zulip's deprecated stream_post_policy, from the system group allowed to post. */
export function streamPostPolicy(groups: GroupLookup, groupId: number | null): number {
  switch (groups.systemName(groupId)) {
    case 'role:administrators': return 2;
    case 'role:fullmembers': return 3;
    case 'role:moderators': return 4;
    default: return 1;
  }
}

/**
 * Average messages a week over the last four weeks; null for channels younger than a week
 * (the same rule as the GraphQL Channel.streamWeeklyTraffic field).
 */
export function weeklyTraffic(channel: Channel, recentCount: number, now: number): number | null {
  const age = now - channel.dateCreated.getTime();
  if (age < 7 * DAY_MS) return null;
  return Math.round(recentCount / Math.min(4, age / (7 * DAY_MS)));
}

/** The channel record (the fields of GET /streams, in the same order). */
export function channelRecord(channel: Channel, groups: GroupLookup, traffic: number | null): Json {
  const postPolicy = streamPostPolicy(groups, channel.canSendMessageGroupId);
  return {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.renderedDescription,
    date_created: toUnixSeconds(channel.dateCreated),
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    message_retention_days: channel.messageRetentionDays,
    first_message_id: channel.firstMessageId,
    folder_id: channel.folderId,
    topics_policy: channel.topicsPolicy,
    is_archived: channel.isArchived,
    is_recently_active: channel.isRecentlyActive,
    is_announcement_only: postPolicy === 2,
    stream_post_policy: postPolicy,
    stream_weekly_traffic: traffic,
    can_add_subscribers_group: groups.settingValue(channel.canAddSubscribersGroupId),
    can_remove_subscribers_group: groups.settingValue(channel.canRemoveSubscribersGroupId),
    can_administer_channel_group: groups.settingValue(channel.canAdministerChannelGroupId),
    can_delete_any_message_group: groups.settingValue(channel.canDeleteAnyMessageGroupId),
    can_delete_own_message_group: groups.settingValue(channel.canDeleteOwnMessageGroupId),
    can_move_messages_out_of_channel_group: groups.settingValue(channel.canMoveMessagesOutOfChannelGroupId),
    can_move_messages_within_channel_group: groups.settingValue(channel.canMoveMessagesWithinChannelGroupId),
    can_resolve_topics_group: groups.settingValue(channel.canResolveTopicsGroupId),
    can_send_message_group: groups.settingValue(channel.canSendMessageGroupId),
    can_subscribe_group: groups.settingValue(channel.canSubscribeGroupId),
  };
}

/** The viewer's personal settings for a subscribed (or formerly subscribed) channel. */
export function subscriptionFields(sub: Pick<Subscription, 'color' | 'isMuted' | 'pinToTop' | 'desktopNotifications' | 'audibleNotifications' | 'pushNotifications' | 'emailNotifications' | 'wildcardMentionsNotify'>): Json {
  return {
    color: sub.color,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    pin_to_top: sub.pinToTop,
    desktop_notifications: sub.desktopNotifications,
    audible_notifications: sub.audibleNotifications,
    push_notifications: sub.pushNotifications,
    email_notifications: sub.emailNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
  };
}

