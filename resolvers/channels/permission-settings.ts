// A channel's permission settings (Zulip's Stream.stream_permission_group_settings), defined once:
// the wire name, the GraphQL field and argument, the column, who holds it on a new channel, and the
// rules register reports in `server_supported_permission_settings.stream`. The schema, the REST
// selection, the record builder, channel creation and PATCH /streams all read this list.
import type { Channel } from '../../prisma/generated/client/client.ts';

export interface ChannelPermissionSetting {
  /** Zulip's name, on the wire and in `server_supported_permission_settings`. */
  readonly name: string;
  /** The GraphQL field on Channel and argument of the channel mutations. */
  readonly field: string;
  /** The column holding the group ID. */
  readonly column: keyof Channel & `can${string}GroupId`;
  readonly description: string;
  /** Who holds it on a new channel: a system group, or `channel_creator`. */
  readonly defaultGroup: string;
  readonly allowNobody: boolean;
  readonly allowEveryone: boolean;
  /** It governs who reads or removes content: changing it needs content access to the channel. */
  readonly contentAccess: boolean;
}

function setting(name: string, description: string, defaultGroup: string, allowNobody: boolean, allowEveryone: boolean, contentAccess = false): ChannelPermissionSetting {
  const field = name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  return { name, field, column: `${field}Id` as ChannelPermissionSetting['column'], description, defaultGroup, allowNobody, allowEveryone, contentAccess };
}

export const CHANNEL_PERMISSION_SETTINGS: readonly ChannelPermissionSetting[] = [
  setting('can_add_subscribers_group', 'Who may add subscribers.', 'role:nobody', true, false, true),
  setting('can_remove_subscribers_group', 'Who may remove subscribers.', 'role:administrators', true, true),
  setting('can_administer_channel_group', 'Who may administer the channel.', 'channel_creator', true, false),
  setting('can_delete_any_message_group', 'Who may delete any message in the channel.', 'role:nobody', true, true, true),
  setting('can_delete_own_message_group', 'Who may delete their own messages in the channel.', 'role:nobody', true, true, true),
  setting('can_move_messages_out_of_channel_group', 'Who may move messages out of the channel.', 'role:nobody', true, true),
  setting('can_move_messages_within_channel_group', 'Who may move messages between topics of the channel.', 'role:nobody', true, true),
  setting('can_resolve_topics_group', 'Who may resolve topics in the channel.', 'role:nobody', true, true),
  setting('can_send_message_group', 'Who may post.', 'role:everyone', true, true),
  setting('can_subscribe_group', 'Who may subscribe themselves.', 'role:nobody', true, false),
];

const byName = new Map(CHANNEL_PERMISSION_SETTINGS.map((s) => [s.name, s]));

export function channelPermissionSetting(name: string): ChannelPermissionSetting | undefined {
  return byName.get(name);
}

/** The groups whose members see a channel's metadata without a subscription (and so are told about it). */
export function metadataAccessGroupIds(channel: Pick<Channel, 'canAdministerChannelGroupId' | 'canAddSubscribersGroupId' | 'canSubscribeGroupId'>): (number | null)[] {
  return [channel.canAdministerChannelGroupId, channel.canAddSubscribersGroupId, channel.canSubscribeGroupId];
}

/** A channel's and an organization's topics policies (`topics_policy`). */
export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];
export const TOPICS_POLICY_DESCRIPTION = TOPICS_POLICIES.map((p) => `\`${p}\``).join(', ');
