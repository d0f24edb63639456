// Group permission settings (Zulip's GroupPermissionSetting): for each organization, channel and
// group setting, which groups it may be set to and its default. Register reports them as
// `server_supported_permission_settings`; the domain checks values against them.
import { CHANNEL_PERMISSION_SETTINGS } from '../channels/permission-settings.ts';

/**
 * Group permission settings the server supports (`server_supported_permission_settings`), with
 * Zulip's rules for which groups each may be set to.
 */
interface PermissionSetting {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

function setting(
  allowNobody: boolean, allowEveryone: boolean, defaultGroup: string,
  extra: Partial<PermissionSetting> = {},
): PermissionSetting {
  return {
    require_system_group: false,
    allow_internet_group: false,
    allow_nobody_group: allowNobody,
    allow_everyone_group: allowEveryone,
    default_group_name: defaultGroup,
    default_for_system_groups: null,
    allowed_system_groups: [],
    ...extra,
  };
}

export const SUPPORTED_PERMISSION_SETTINGS = {
  realm: {
    create_multiuse_invite_group: setting(true, false, 'role:administrators'),
    can_access_all_users_group: setting(false, true, 'role:everyone', {
      require_system_group: true, allowed_system_groups: ['role:everyone', 'role:members'],
    }),
    can_add_subscribers_group: setting(true, false, 'role:members'),
    can_add_custom_emoji_group: setting(true, false, 'role:members'),
    can_create_bots_group: setting(true, false, 'role:members'),
    can_create_groups: setting(true, false, 'role:members'),
    can_create_public_channel_group: setting(true, false, 'role:members'),
    can_create_private_channel_group: setting(true, false, 'role:members'),
    can_create_web_public_channel_group: setting(true, false, 'role:owners', {
      require_system_group: true,
      allowed_system_groups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
    }),
    can_create_write_only_bots_group: setting(true, false, 'role:members'),
    can_delete_any_message_group: setting(true, false, 'role:administrators'),
    can_delete_own_message_group: setting(true, true, 'role:everyone'),
    can_invite_users_group: setting(true, false, 'role:members'),
    can_manage_all_groups: setting(false, false, 'role:owners'),
    can_manage_billing_group: setting(false, false, 'role:administrators'),
    can_mention_many_users_group: setting(true, true, 'role:administrators'),
    can_move_messages_between_channels_group: setting(true, false, 'role:members'),
    can_move_messages_between_topics_group: setting(true, true, 'role:everyone'),
    can_resolve_topics_group: setting(true, true, 'role:everyone'),
    can_set_delete_message_policy_group: setting(true, false, 'role:moderators'),
    can_set_topics_policy_group: setting(true, true, 'role:members'),
    can_summarize_topics_group: setting(true, true, 'role:everyone'),
    direct_message_initiator_group: setting(true, true, 'role:everyone'),
    direct_message_permission_group: setting(true, true, 'role:everyone'),
  },
  stream: Object.fromEntries(CHANNEL_PERMISSION_SETTINGS.map((s) => [s.name, setting(s.allowNobody, s.allowEveryone, s.defaultGroup)])),
  group: {
    can_add_members_group: setting(true, false, 'group_creator', { default_for_system_groups: 'role:nobody' }),
    can_join_group: setting(true, false, 'role:nobody', { default_for_system_groups: 'role:nobody' }),
    can_leave_group: setting(true, true, 'role:everyone', { default_for_system_groups: 'role:nobody' }),
    can_manage_group: setting(true, false, 'group_creator', { default_for_system_groups: 'role:nobody' }),
    can_mention_group: setting(true, true, 'role:everyone', { default_for_system_groups: 'role:nobody' }),
    can_remove_members_group: setting(true, false, 'role:nobody', { default_for_system_groups: 'role:nobody' }),
  },
};
