// A channel's record on the wire (GET /streams, register, stream and subscription events) and a
// subscription's personal settings: built once here for every place that sends them.
import type { Channel, Subscription } from '../../prisma/generated/client/client.ts';
import { toUnixSeconds } from '../time.ts';
import { CHANNEL_PERMISSION_SETTINGS } from './permission-settings.ts';

type Json = Record<string, unknown>;

/** What building a record needs to know about groups (see groups/group-index.ts GroupIndex). */
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

type RecordField = (channel: Channel, groups: GroupLookup, traffic: number | null) => unknown;

/**
 * The channel record, field by field, in Zulip's order: register and events build it from here, and
 * GET /streams selects the same fields (camelCased) of the GraphQL Channel type, so the two cannot
 * drift apart (test/unit/channel-record.test.ts compares them).
 */
const CHANNEL_RECORD: Record<string, RecordField> = {
  stream_id: (c) => c.id,
  name: (c) => c.name,
  description: (c) => c.description,
  rendered_description: (c) => c.renderedDescription,
  date_created: (c) => toUnixSeconds(c.dateCreated),
  creator_id: (c) => c.creatorId,
  invite_only: (c) => c.inviteOnly,
  is_web_public: (c) => c.isWebPublic,
  history_public_to_subscribers: (c) => c.historyPublicToSubscribers,
  message_retention_days: (c) => c.messageRetentionDays,
  first_message_id: (c) => c.firstMessageId,
  folder_id: (c) => c.folderId,
  topics_policy: (c) => c.topicsPolicy,
  is_archived: (c) => c.isArchived,
  is_recently_active: (c) => c.isRecentlyActive,
  is_announcement_only: (c, g) => streamPostPolicy(g, c.canSendMessageGroupId) === 2,
  stream_post_policy: (c, g) => streamPostPolicy(g, c.canSendMessageGroupId),
  stream_weekly_traffic: (_c, _g, traffic) => traffic,
  ...Object.fromEntries(CHANNEL_PERMISSION_SETTINGS.map(({ name, column }): [string, RecordField] => [name, (c, g) => g.settingValue(c[column])])),
};

/** The channel record's wire names, in order. */
export const CHANNEL_RECORD_FIELDS: readonly string[] = Object.keys(CHANNEL_RECORD);

/** The channel record (register, events; GET /streams through GraphQL gives the same fields). */
export function channelRecord(channel: Channel, groups: GroupLookup, traffic: number | null): Json {
  const record: Json = {};
  for (const [name, build] of Object.entries(CHANNEL_RECORD)) record[name] = build(channel, groups, traffic);
  return record;
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

