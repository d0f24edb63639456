// Personal settings (Zulip's UserBaseSettings): each setting once, with its default, its type, the
// values it may take and what it means. PATCH /settings, PATCH /realm/user_settings_defaults, the
// register response, the GraphQL types and the legacy event forms are all read from this table.
//
// A user's stored settings (`User.settings`) hold only what differs from these defaults; so do an
// organization's defaults for new users (`Realm.userSettingsDefaults`), which are copied into each new
// account (as Zulip copies RealmUserDefault), so later changes to them affect only later accounts.
import type { Realm, User } from '../../prisma/generated/client/client.ts';
import { InvalidArgumentError } from '../errors.ts';
import { isLanguageCode } from './languages.ts';

export type SettingKind = 'bool' | 'int' | 'string';

export interface SettingSpec {
  kind: SettingKind;
  default: boolean | number | string;
  /** The values it may take (Zulip's check_int_in / Literal). */
  choices?: readonly (number | string)[];
  /** Zulip's legacy event forms for clients without `user_settings_object`. */
  legacy?: 'display' | 'notification';
  /** Not offered by PATCH /realm/user_settings_defaults (security-sensitive, or per user only). */
  notRealmDefault?: boolean;
  description: string;
}

type Extra = Omit<Partial<SettingSpec>, 'kind' | 'default'>;
const bool = (value: boolean, description: string, extra: Extra = {}) => ({ ...extra, kind: 'bool' as const, default: value, description });
const int = (value: number, description: string, extra: Extra = {}) => ({ ...extra, kind: 'int' as const, default: value, description });
const str = (value: string, description: string, extra: Extra = {}) => ({ ...extra, kind: 'string' as const, default: value, description });

/** Zulip's AVAILABLE_NOTIFICATION_SOUNDS (plus "none", which turns sounds off). */
export const AVAILABLE_NOTIFICATION_SOUNDS = ['chime', 'ding', 'glass', 'knock', 'ping', 'zulip'];

export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/** Zulip's policies for automatically following or unmuting topics: participation, send, initiation, never. */
const VISIBILITY_POLICY_CHOICES = [1, 2, 3, 4];

/** Zulip's ResolvedTopicNoticeAutoReadPolicyEnum: which resolve/unresolve notices arrive read. */
export const RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES = ['always', 'except_followed', 'never'] as const;

/** Every personal setting a client can read and change, in register's order. */
export const USER_SETTINGS = {
  // Display
  twenty_four_hour_time: bool(false, 'Whether times are shown in 24-hour notation.', { legacy: 'display' }),
  web_mark_read_on_scroll_policy: int(1, 'Whether the web app marks messages read on scrolling: 1 always, 2 in conversation views only, 3 never.', { choices: [1, 2, 3] }),
  web_channel_default_view: int(1, 'What a channel link opens in the web app: 1 the top topic, 2 the channel feed, 3 the topic list, 4 the top unread topic.', { choices: [1, 2, 3, 4] }),
  starred_message_counts: bool(true, 'Whether clients show the number of starred messages.', { legacy: 'display' }),
  receives_typing_notifications: bool(true, 'Whether the user receives typing notifications from others (the server sends none otherwise).'),
  web_suggest_update_timezone: bool(true, 'Whether the web app offers to update the profile time zone when the device\'s differs.'),
  fluid_layout_width: bool(false, 'Whether the web app uses the full screen width.', { legacy: 'display' }),
  high_contrast_mode: bool(false, 'Reserved for design variations that help visually impaired users.', { legacy: 'display' }),
  web_font_size_px: int(16, 'The web app\'s font size, in pixels.'),
  web_line_height_percent: int(140, 'The web app\'s line height, in percent (140 is 1.4).'),
  color_scheme: int(1, 'The colour theme: 1 automatic, 2 dark, 3 light.', { choices: [1, 2, 3], legacy: 'display' }),
  translate_emoticons: bool(false, 'Whether emoticons in messages the user sends become emoji.', { legacy: 'display' }),
  display_emoji_reaction_users: bool(true, 'Whether clients show the names of reacting users rather than counts, where few reacted.'),
  default_language: str('en', 'The language of the user interface and of e-mail sent to the user (a language code).', { legacy: 'display', notRealmDefault: true }),
  web_home_view: str('inbox', 'The web app\'s home view: "recent_topics", "inbox" or "all_messages".', { choices: ['recent_topics', 'inbox', 'all_messages'], legacy: 'display' }),
  web_escape_navigates_to_home_view: bool(true, 'Whether the Escape key goes to the home view.'),
  left_side_userlist: bool(false, 'Whether narrow windows show the user list in the left sidebar.', { legacy: 'display' }),
  emojiset: str('google', 'The emoji set used to display emoji: "google", "twitter" or "text".', { choices: EMOJISET_CHOICES.map((e) => e.key), legacy: 'display' }),
  demote_inactive_streams: int(1, 'Whether inactive channels are demoted in the sidebar: 1 automatically, 2 always, 3 never.', { choices: [1, 2, 3], legacy: 'display' }),
  user_list_style: int(2, 'The style of the user list: 1 compact, 2 with status, 3 with avatar and status.', { choices: [1, 2, 3] }),
  web_animate_image_previews: str('on_hover', 'When animated images play: "always", "on_hover" or "never".', { choices: ['always', 'on_hover', 'never'] }),
  web_stream_unreads_count_display_policy: int(2, 'Which channels show a numeric unread count: 1 all, 2 unmuted, 3 none.', { choices: [1, 2, 3] }),
  hide_ai_features: bool(false, 'Whether clients hide AI features such as topic summaries.'),
  web_inbox_show_channel_folders: bool(true, 'Whether the web app\'s Inbox view groups conversations by channel folder.'),
  web_left_sidebar_show_channel_folders: bool(true, 'Whether the web app\'s left sidebar groups channels by channel folder.'),
  web_left_sidebar_unreads_count_summary: bool(true, 'Whether the web app\'s left sidebar shows the summary of unread counts.'),
  enter_sends: bool(false, 'Whether Enter sends the message being composed.', { legacy: 'display' }),
  enable_drafts_synchronization: bool(true, 'Whether drafts are kept on the server; turning it off deletes the drafts stored there.', { legacy: 'display' }),
  // Notifications
  enable_stream_desktop_notifications: bool(false, 'Desktop notifications for channel messages.', { legacy: 'notification' }),
  enable_stream_email_notifications: bool(false, 'E-mail notifications for channel messages.', { legacy: 'notification' }),
  enable_stream_push_notifications: bool(false, 'Mobile notifications for channel messages.', { legacy: 'notification' }),
  enable_stream_audible_notifications: bool(false, 'Audible desktop notifications for channel messages.', { legacy: 'notification' }),
  notification_sound: str('zulip', 'The notification sound: one of available_notification_sounds, or "none".', { legacy: 'notification' }),
  enable_desktop_notifications: bool(true, 'Desktop notifications for direct messages and mentions.', { legacy: 'notification' }),
  enable_sounds: bool(true, 'Audible notifications for direct messages and mentions.', { legacy: 'notification' }),
  enable_followed_topic_desktop_notifications: bool(true, 'Desktop notifications for messages in followed topics.'),
  enable_followed_topic_email_notifications: bool(true, 'E-mail notifications for messages in followed topics.'),
  enable_followed_topic_push_notifications: bool(true, 'Mobile notifications for messages in followed topics.'),
  enable_followed_topic_audible_notifications: bool(true, 'Audible notifications for messages in followed topics.'),
  email_notifications_batching_period_seconds: int(120, 'How long e-mail notifications are batched, in seconds (1 to 604800).', { legacy: 'notification' }),
  enable_offline_email_notifications: bool(true, 'E-mail notifications for direct messages and mentions received while offline.', { legacy: 'notification' }),
  enable_offline_push_notifications: bool(true, 'Mobile notifications for direct messages and mentions received while offline.', { legacy: 'notification' }),
  enable_online_push_notifications: bool(true, 'Mobile notifications for direct messages and mentions received while online.', { legacy: 'notification' }),
  enable_digest_emails: bool(true, 'Digest e-mails while away.', { legacy: 'notification' }),
  enable_marketing_emails: bool(true, 'Marketing e-mails (none are sent by Parley).', { legacy: 'notification', notRealmDefault: true }),
  enable_login_emails: bool(true, 'E-mail about new logins to the account.', { legacy: 'notification', notRealmDefault: true }),
  message_content_in_email_notifications: bool(true, 'Whether notification e-mails include the message.', { legacy: 'notification' }),
  pm_content_in_desktop_notifications: bool(true, 'Whether desktop notifications show direct message content.', { legacy: 'notification' }),
  wildcard_mentions_notify: bool(true, 'Whether wildcard mentions (@**all**) notify like personal mentions.', { legacy: 'notification' }),
  enable_followed_topic_wildcard_mentions_notify: bool(true, 'Whether wildcard mentions in followed topics notify like personal mentions.'),
  desktop_icon_count_display: int(1, 'The unread badge counts: 1 all unread messages, 2 direct messages, mentions and followed topics, 3 direct messages and mentions, 4 nothing.', { choices: [1, 2, 3, 4], legacy: 'notification' }),
  realm_name_in_email_notifications_policy: int(1, 'Whether notification e-mail subjects name the organization: 1 automatically, 2 always, 3 never.', { choices: [1, 2, 3], legacy: 'notification' }),
  automatically_follow_topics_policy: int(3, 'Which topics are followed automatically: 1 participated in, 2 sent to, 3 started, 4 none.', { choices: VISIBILITY_POLICY_CHOICES }),
  automatically_unmute_topics_in_muted_streams_policy: int(2, 'Which topics of muted channels are unmuted automatically: 1 participated in, 2 sent to, 3 started, 4 none.', { choices: VISIBILITY_POLICY_CHOICES }),
  automatically_follow_topics_where_mentioned: bool(true, 'Whether topics the user is mentioned in are followed automatically.'),
  resolved_topic_notice_auto_read_policy: str('except_followed', 'Which notices of a topic being resolved or unresolved arrive read: "always" all, "except_followed" all but those in followed topics, "never" none.', { choices: RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES }),
  // Privacy
  presence_enabled: bool(true, 'Whether others see when the user is online.', { legacy: 'notification' }),
  send_private_typing_notifications: bool(true, 'Whether the user\'s typing in direct messages is announced (POST /typing is refused otherwise).'),
  send_stream_typing_notifications: bool(true, 'Whether the user\'s typing in channels is announced (POST /typing is refused otherwise).'),
  send_read_receipts: bool(true, 'Whether others may see which messages the user has read.'),
  allow_private_data_export: bool(false, 'Whether administrators may export the user\'s private data.', { notRealmDefault: true }),
  email_address_visibility: int(1, 'Who sees the user\'s real e-mail address: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. Others see user<ID>@<organization host>.', { choices: [1, 2, 3, 4, 5] }),
  web_navigate_to_sent_message: bool(true, 'Whether the web app goes to the conversation a message was sent to.'),
} satisfies Record<string, SettingSpec>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];

export type UserSettings = { [K in UserSettingName]: (typeof USER_SETTINGS)[K]['default'] };

/** Zulip's defaults for every personal setting. */
export const USER_SETTING_DEFAULTS = Object.fromEntries(USER_SETTING_NAMES.map((n) => [n, USER_SETTINGS[n].default])) as UserSettings;

/** The settings an organization may choose defaults for (PATCH /realm/user_settings_defaults). */
export const REALM_DEFAULT_SETTING_NAMES = USER_SETTING_NAMES.filter((n) => !(USER_SETTINGS[n] as SettingSpec).notRealmDefault);

/** Settings Zulip announced with the legacy `update_display_settings` / `update_global_notifications` events. */
export const LEGACY_DISPLAY_SETTINGS: readonly UserSettingName[] = USER_SETTING_NAMES.filter((n) => (USER_SETTINGS[n] as SettingSpec).legacy === 'display');
export const LEGACY_NOTIFICATION_SETTINGS: readonly UserSettingName[] = USER_SETTING_NAMES.filter((n) => (USER_SETTINGS[n] as SettingSpec).legacy === 'notification');

/** Known settings of the stored JSON, each only with its default's type: stray keys never reach clients. */
export function storedSettings(stored: unknown): Partial<UserSettings> {
  const result: Record<string, unknown> = {};
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      const spec = (USER_SETTINGS as Record<string, SettingSpec>)[key];
      if (spec && typeof value === typeof spec.default) result[key] = value;
    }
  }
  return result as Partial<UserSettings>;
}

/**
 * One of the user's effective settings, read without building them all (`effectiveSettings` costs
 * tens of microseconds, too much for the send path). Not for `default_language`, whose default is
 * the organization's.
 */
export function userSetting<K extends Exclude<UserSettingName, 'default_language'>>(user: Pick<User, 'settings'>, name: K): UserSettings[K] {
  const stored = user.settings && typeof user.settings === 'object' && !Array.isArray(user.settings) ? (user.settings as Record<string, unknown>)[name] : undefined;
  const fallback = USER_SETTINGS[name].default;
  return (typeof stored === typeof fallback ? stored : fallback) as UserSettings[K];
}

/** The user's effective settings: defaults (the realm's language) overridden by stored values. */
export function effectiveSettings(user: Pick<User, 'settings'> | null, realm: Pick<Realm, 'defaultLanguage'>): UserSettings {
  return { ...USER_SETTING_DEFAULTS, default_language: realm.defaultLanguage, ...storedSettings(user?.settings) };
}

/** The defaults the organization gives new users. */
export function realmUserDefaults(realm: Pick<Realm, 'defaultLanguage' | 'userSettingsDefaults'>): UserSettings {
  return { ...USER_SETTING_DEFAULTS, default_language: realm.defaultLanguage, ...storedSettings(realm.userSettingsDefaults) };
}

export function isUserSettingName(name: string): name is UserSettingName {
  return Object.hasOwn(USER_SETTINGS, name);
}

/** Zulip's longest e-mail batching period: one week. */
const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

/**
 * Checks one setting's value as Zulip's json_change_settings does (check_int_in / check_string_in,
 * then check_settings_values), with Zulip's wording.
 */
export function checkSettingValue(name: UserSettingName, value: unknown): void {
  const spec: SettingSpec = USER_SETTINGS[name];
  const kind = spec.kind === 'string' ? 'string' : spec.kind === 'bool' ? 'boolean' : 'number';
  if (typeof value !== kind || (spec.kind === 'int' && !Number.isSafeInteger(value))) {
    throw new InvalidArgumentError(name, `${name} is not ${spec.kind === 'bool' ? 'a boolean' : spec.kind === 'int' ? 'an integer' : 'a string'}`);
  }
  if (spec.choices && !spec.choices.includes(value as number | string)) throw new InvalidArgumentError(name);
  if (name === 'default_language' && !isLanguageCode(value as string)) throw new InvalidArgumentError(name, 'Invalid default_language');
  if (name === 'notification_sound' && value !== 'none' && !AVAILABLE_NOTIFICATION_SOUNDS.includes(value as string)) {
    throw new InvalidArgumentError(name, `Invalid notification sound '${value as string}'`);
  }
  if (name === 'email_notifications_batching_period_seconds' && ((value as number) <= 0 || (value as number) > MAX_EMAIL_BATCHING_PERIOD_SECONDS)) {
    throw new InvalidArgumentError(name, `Invalid email batching period: ${value as number} seconds`);
  }
}

/**
 * A profile time zone: "" (none) or an IANA name, stored in its canonical spelling (Zulip's
 * canonicalize_timezone turns links such as US/Pacific into their zone).
 */
export function canonicalTimezone(value: string): string {
  if (value === '') return '';
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidArgumentError('timezone', 'timezone is not a recognized time zone');
  }
  // ICU still calls some zones by their old names (Asia/Calcutta for Asia/Kolkata): a name in the
  // current Area/Location form is kept as given, legacy aliases (US/Pacific, EST) become the zone.
  if (resolved.toLowerCase() !== value.toLowerCase() && CURRENT_ZONE_NAME.test(value)) return value;
  return resolved;
}

const CURRENT_ZONE_NAME = /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[A-Z]/;
