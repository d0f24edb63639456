// The `realm` fetch type: organization settings, server settings and limits. The per-realm lists
// (domains, emoji, linkifiers, playgrounds, custom profile fields, bot services) are their areas' parts.
import { realmUrl } from './urls.ts';
import { SERVER_EMOJI_DATA_PATH } from '../emoji/unicode.ts';
import { serverSettings } from './server-settings.ts';
import { brandingState } from './branding.ts';
import { THUMBNAIL_FORMATS } from '../uploads/images.ts';
import { toUnixSeconds } from '../time.ts';
import {
  DEFAULT_EXTERNAL_ACCOUNTS, DEFAULT_JITSI_SERVER_URL, EVENT_QUEUE_LONGPOLL_TIMEOUT_SECS,
  GIPHY_RATING_OPTIONS, MAX_AVATAR_FILE_SIZE_MIB, MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH, MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, MAX_DEACTIVATED_REALM_DELETION_DAYS, MAX_ICON_FILE_SIZE_MIB,
  MAX_LOGO_FILE_SIZE_MIB, MIN_DEACTIVATED_REALM_DELETION_DAYS, PASSWORD_MAX_LENGTH, PASSWORD_MIN_GUESSES,
  PASSWORD_MIN_LENGTH, PRESENCE_OFFLINE_THRESHOLD_SECS, PRESENCE_PING_INTERVAL_SECS,
  SERVER_GENERATION, STOP_WORDS, TYPING_STARTED_EXPIRY_MS, TYPING_STARTED_WAIT_MS,
  TYPING_STOPPED_WAIT_MS, VIDEO_CHAT_PROVIDERS,
} from '../limits.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from '../groups/permission-settings.ts';
import { REPORT_MESSAGE_TYPES } from '../reports/report.ts';
import { REALM_GROUP_SETTINGS, realmSettingsState } from './settings.ts';
import type { GroupIndex } from '../groups/group-index.ts';
import type { InitialState, Json } from '../events/initial-state/state.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

// Deprecated integer policies derived from group settings: the value for the setting's system
// group, else the one for the largest group the old policy could express.
const COMMON_POLICY = { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 };
const WEB_PUBLIC_POLICY = { 'role:administrators': 2, 'role:moderators': 4, 'role:nobody': 6, 'role:owners': 7 };
const WILDCARD_POLICY = {
  'role:everyone': 1, 'role:members': 2, 'role:fullmembers': 3, 'role:administrators': 5, 'role:nobody': 6, 'role:moderators': 7,
};

function legacyPolicy(groups: GroupIndex, groupId: number | null, table: Record<string, number>, fallback: number): number {
  const name = groups.systemName(groupId);
  return name != null && name in table ? table[name]! : fallback;
}

async function realmState(s: InitialState): Promise<Json> {
  const state: Json = {};
  const { realm, config, user } = s;
  const url = realmUrl(realm, config);
  const host = new URL(url).hostname;

  if (s.want('realm')) {
    const groups = await s.groups();
    const server = serverSettings(s.ctx);
    Object.assign(state, realmSettingsState(realm), {
      realm_date_created: toUnixSeconds(realm.dateCreated),
      // Anonymous visitors may not edit, so the setting is shown as off for them.
      realm_allow_message_editing: user ? realm.allowMessageEditing : false,
      realm_authentication_methods: {
        Email: { enabled: true, available: true },
        ...(config.devMode ? { Dev: { enabled: true, available: true } } : {}),
      },
      realm_email_auth_enabled: true,
      realm_password_auth_enabled: true,
      realm_push_notifications_enabled: config.pushNotificationsEnabled,
      realm_push_notifications_enabled_end_timestamp: null,
      realm_presence_disabled: user == null,
      realm_is_zephyr_mirror_realm: false,
      realm_plan_type: 1,
      zulip_plan_is_not_limited: true,
      upgrade_text_for_wide_organization_logo: 'Available on Zulip Cloud Standard. Upgrade to access.',
      ...brandingState(realm, config.gravatarEnabled),
      max_icon_file_size_mib: MAX_ICON_FILE_SIZE_MIB,
      max_logo_file_size_mib: MAX_LOGO_FILE_SIZE_MIB,
      max_avatar_file_size_mib: MAX_AVATAR_FILE_SIZE_MIB,
      max_file_upload_size_mib: realm.maxFileUploadSizeMib,
      realm_bot_domain: host,
      realm_url: url,
      realm_uri: url,
      realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
      realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
      settings_send_digest_emails: false,
      realm_empty_topic_display_name: realm.emptyTopicDisplayName,

      max_stream_name_length: MAX_CHANNEL_NAME_LENGTH,
      max_stream_description_length: MAX_CHANNEL_DESCRIPTION_LENGTH,
      max_topic_length: MAX_TOPIC_LENGTH,
      max_message_length: MAX_MESSAGE_LENGTH,
      server_typing_started_wait_period_milliseconds: TYPING_STARTED_WAIT_MS,
      server_typing_stopped_wait_period_milliseconds: TYPING_STOPPED_WAIT_MS,
      server_typing_started_expiry_period_milliseconds: TYPING_STARTED_EXPIRY_MS,
      server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECS,
      server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECS,
      server_min_deactivated_realm_deletion_days: MIN_DEACTIVATED_REALM_DELETION_DAYS,
      server_max_deactivated_realm_deletion_days: MAX_DEACTIVATED_REALM_DELETION_DAYS,
      server_report_message_types: REPORT_MESSAGE_TYPES,
      server_supported_permission_settings: SUPPORTED_PERMISSION_SETTINGS,
      server_generation: SERVER_GENERATION,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      server_thumbnail_formats: THUMBNAIL_FORMATS.map((f) => ({ name: f.name, max_width: f.maxWidth, max_height: f.maxHeight, format: f.format, animated: f.animated })),
      server_avatar_changes_disabled: false,
      server_name_changes_disabled: false,
      server_needs_upgrade: false,
      server_web_public_streams_enabled: config.webPublicStreamsEnabled,
      server_emoji_data_url: `${url}${SERVER_EMOJI_DATA_PATH}`,
      server_jitsi_server_url: DEFAULT_JITSI_SERVER_URL,
      jitsi_server_url: DEFAULT_JITSI_SERVER_URL,
      server_can_summarize_topics: false,
      development_environment: config.devMode,
      event_queue_longpoll_timeout_seconds: EVENT_QUEUE_LONGPOLL_TIMEOUT_SECS,
      password_min_length: PASSWORD_MIN_LENGTH,
      password_max_length: PASSWORD_MAX_LENGTH,
      password_min_guesses: PASSWORD_MIN_GUESSES,
      giphy_rating_options: GIPHY_RATING_OPTIONS,
    });
    for (const [name, column] of Object.entries(REALM_GROUP_SETTINGS)) {
      state[`realm_${name}`] = groups.settingValue(realm[column]);
    }
    state.realm_create_public_stream_policy = legacyPolicy(groups, realm.canCreatePublicChannelGroupId, COMMON_POLICY, 1);
    state.realm_create_private_stream_policy = legacyPolicy(groups, realm.canCreatePrivateChannelGroupId, COMMON_POLICY, 1);
    state.realm_create_web_public_stream_policy = legacyPolicy(groups, realm.canCreateWebPublicChannelGroupId, WEB_PUBLIC_POLICY, 4);
    state.realm_wildcard_mention_policy = legacyPolicy(groups, realm.canMentionManyUsersGroupId, WILDCARD_POLICY, 1);
  }

  if (s.want('realm_billing')) {
    state.realm_billing = { has_pending_sponsorship_request: false };
  }
  if (s.want('stop_words')) state.stop_words = STOP_WORDS;
  if (s.want('giphy')) state.giphy_api_key = '';
  return state;
}

initialStatePart(['realm', 'realm_billing', 'stop_words', 'giphy'], realmState);
