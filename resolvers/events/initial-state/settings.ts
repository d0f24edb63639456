// Personal settings: Zulip's defaults, overridden by what the user stored in `User.settings`.
// Only known settings are read back, and only with the default's type, so stray keys in the JSON
// column never reach clients.
import type { Realm, User } from '../../../prisma/generated/client/client.ts';
import type { InitialState, Json } from './state.ts';

/** Zulip's defaults for every personal setting a client can read (UserBaseSettings). */
export const USER_SETTING_DEFAULTS = {
  // Display
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  hide_ai_features: false,
  enter_sends: false,
  enable_drafts_synchronization: true,
  // Notifications
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  // Privacy
  presence_enabled: true,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  email_address_visibility: 1,
  web_navigate_to_sent_message: true,
};

export type UserSettings = typeof USER_SETTING_DEFAULTS;

export const AVAILABLE_NOTIFICATION_SOUNDS = ['chime', 'ding', 'glass', 'knock', 'ping', 'zulip'];

export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/** The user's effective settings: defaults (the realm's language) overridden by stored values of the same type. */
export function effectiveSettings(user: Pick<User, 'settings'> | null, realm: Pick<Realm, 'defaultLanguage'>): UserSettings {
  const result: Record<string, unknown> = { ...USER_SETTING_DEFAULTS, default_language: realm.defaultLanguage };
  const stored = user?.settings;
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (key in USER_SETTING_DEFAULTS && typeof value === typeof (USER_SETTING_DEFAULTS as Record<string, unknown>)[key]) {
        result[key] = value;
      }
    }
  }
  return result as UserSettings;
}

/** `user_settings` and `realm_user_settings_defaults`. */
export function settingsState(s: InitialState): Json {
  const state: Json = {};
  if (s.want('user_settings')) {
    const settings: Json = { ...effectiveSettings(s.user, s.realm) };
    // Spectators see the defaults, with the Recent conversations view as home (as in Zulip).
    if (!s.user) settings.web_home_view = 'recent_topics';
    settings.timezone = s.user?.timezone ?? '';
    settings.available_notification_sounds = AVAILABLE_NOTIFICATION_SOUNDS;
    settings.emojiset_choices = EMOJISET_CHOICES;
    state.user_settings = settings;
  }
  if (s.want('realm_user_settings_defaults')) {
    state.realm_user_settings_defaults = {
      ...USER_SETTING_DEFAULTS,
      default_language: s.realm.defaultLanguage,
      available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
      emojiset_choices: EMOJISET_CHOICES,
    };
  }
  return state;
}
