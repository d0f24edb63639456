// Organization settings (Zulip's Realm.property_types and REALM_PERMISSION_GROUP_SETTINGS): each
// once, with its column, how PATCH /realm checks a new value, how register and `realm` events show
// it, and who may change it. Register's realm_* settings, PATCH /realm and the GraphQL input are read
// from these tables.
import type { Prisma, Realm, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { InvalidArgumentError } from '../errors.ts';
import { GIPHY_RATING_OPTIONS, VIDEO_CHAT_PROVIDERS } from '../limits.ts';
import { isLanguageCode } from '../settings/languages.ts';
import { codePointLength } from '../text.ts';
import { checkNotificationChannel } from './notification-channels.ts';

/** GraphQL type of the setting's input field: Boolean, Int, String, or JSON for values of several types. */
export type RealmSettingKind = 'bool' | 'int' | 'string' | 'json';

export interface RealmSettingSpec {
  kind: RealmSettingKind;
  description: string;
  /** Only owners may change it (Zulip's OrganizationOwnerRequiredError). */
  ownerOnly?: boolean;
  /** Zulip announces it with `op: update_dict` (its message-editing settings) rather than `update`. */
  updateDict?: boolean;
  /** Accepted for older clients; another setting holds the value (not in register under this name). */
  legacyOf?: string;
  /** Checks a new value; the columns to write. */
  parse(value: unknown, ctx: Context, actor: User): Promise<Prisma.RealmUpdateInput> | Prisma.RealmUpdateInput;
  /** The value as register (`realm_<name>`) and events show it. */
  read(realm: Realm): unknown;
}

type Column = keyof Realm & keyof Prisma.RealmUpdateInput;

const typeName = { bool: 'a boolean', int: 'an integer', string: 'a string' } as const;

function typed(name: string, kind: 'bool' | 'int' | 'string', value: unknown): void {
  const ok = kind === 'bool' ? typeof value === 'boolean' : kind === 'int' ? Number.isSafeInteger(value) : typeof value === 'string';
  if (!ok) throw new InvalidArgumentError(name, `${name} is not ${typeName[kind]}`);
}

interface ColumnOptions {
  ownerOnly?: boolean;
  updateDict?: boolean;
  check?: (value: any) => void;
  choices?: readonly (number | string)[];
}

/** A setting stored as is in one column. */
function column(name: string, col: Column, kind: 'bool' | 'int' | 'string', description: string, options: ColumnOptions = {}): RealmSettingSpec {
  return {
    kind, description, ownerOnly: options.ownerOnly, updateDict: options.updateDict,
    parse: (value) => {
      typed(name, kind, value);
      if (options.choices && !options.choices.includes(value as number | string)) throw new InvalidArgumentError(name);
      options.check?.(value);
      return { [col]: value };
    },
    read: (realm) => realm[col],
  };
}

/**
 * A time limit in seconds: a positive integer, or "unlimited" (stored as null). Zulip's
 * parse_message_time_limit_setting.
 */
function limit(name: string, col: Column, description: string, options: ColumnOptions = {}): RealmSettingSpec {
  return {
    kind: 'json', description: `${description} A positive number of seconds, or "unlimited".`, updateDict: options.updateDict,
    parse: (value) => {
      if (value === 'unlimited') return { [col]: null };
      if (!Number.isSafeInteger(value) || (value as number) <= 0 || (value as number) > 2 ** 31 - 1) {
        throw new InvalidArgumentError(name, `Bad value for '${name}': ${typeof value === 'string' ? value : JSON.stringify(value)}`);
      }
      return { [col]: value };
    },
    read: (realm) => realm[col],
  };
}

function maxLength(name: string, max: number) {
  return (value: string) => {
    if (codePointLength(value) > max) throw new InvalidArgumentError(name, `${name} is too long (limit: ${max} characters)`);
  };
}

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;
const JITSI_SERVER_URL_MAX_LENGTH = 200;

/** Zulip's OrgTypeEnum values. */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];
const EDIT_HISTORY_POLICIES = ['all', 'moves', 'none'];
const REALM_TOPICS_POLICIES = ['allow_empty_topic', 'disable_empty_topic'];

function topicsPolicyOf(realm: Pick<Realm, 'mandatoryTopics' | 'topicsPolicy'>): string {
  // The legacy mandatory_topics flag, where set, means what disable_empty_topic means.
  if (realm.mandatoryTopics) return 'disable_empty_topic';
  return realm.topicsPolicy === 'inherit' ? 'allow_empty_topic' : realm.topicsPolicy;
}

const notificationChannel = (name: string, col: Column, description: string): RealmSettingSpec => ({
  kind: 'int', description: `${description} A channel ID, or -1 for none.`,
  parse: async (value, ctx, actor) => {
    typed(name, 'int', value);
    return { [col]: await checkNotificationChannel(ctx, actor, name, value as number) };
  },
  read: (realm) => realm[col] ?? -1,
});

/** The organization's settings by wire name (register's `realm_<name>` without the prefix). */
export const REALM_SETTINGS: Record<string, RealmSettingSpec> = {
  name: column('name', 'name', 'string', 'The organization\'s name (at most 40 characters).', {
    check: (v: string) => {
      if (!v.trim()) throw new InvalidArgumentError('name', 'Organization name cannot be empty.');
      maxLength('name', MAX_REALM_NAME_LENGTH)(v);
    },
  }),
  description: column('description', 'description', 'string', 'The organization\'s description (Markdown, at most 1000 characters).', {
    check: maxLength('description', MAX_REALM_DESCRIPTION_LENGTH),
  }),
  emails_restricted_to_domains: column('emails_restricted_to_domains', 'emailsRestrictedToDomains', 'bool', 'Whether new users need an address in one of the organization\'s domains (owners only).', { ownerOnly: true }),
  disallow_disposable_email_addresses: column('disallow_disposable_email_addresses', 'disallowDisposableEmailAddresses', 'bool', 'Whether disposable e-mail addresses are refused at sign-up (owners only).', { ownerOnly: true }),
  invite_required: column('invite_required', 'inviteRequired', 'bool', 'Whether joining needs an invitation (owners only).', { ownerOnly: true }),
  require_unique_names: column('require_unique_names', 'requireUniqueNames', 'bool', 'Whether no two users may have the same name.'),
  name_changes_disabled: column('name_changes_disabled', 'nameChangesDisabled', 'bool', 'Whether only administrators may change names.'),
  email_changes_disabled: column('email_changes_disabled', 'emailChangesDisabled', 'bool', 'Whether only administrators may change their e-mail address.'),
  avatar_changes_disabled: column('avatar_changes_disabled', 'avatarChangesDisabled', 'bool', 'Whether only administrators may change avatars.'),
  inline_image_preview: column('inline_image_preview', 'inlineImagePreview', 'bool', 'Whether linked images are previewed.'),
  inline_url_embed_preview: column('inline_url_embed_preview', 'inlineUrlEmbedPreview', 'bool', 'Whether links get previews of the page (Parley makes none).'),
  allow_message_editing: column('allow_message_editing', 'allowMessageEditing', 'bool', 'Whether senders may edit the content of their messages.', { updateDict: true }),
  message_content_edit_limit_seconds: limit('message_content_edit_limit_seconds', 'messageContentEditLimitSeconds', 'How long after sending a message\'s content may be edited.', { updateDict: true }),
  message_content_delete_limit_seconds: limit('message_content_delete_limit_seconds', 'messageContentDeleteLimitSeconds', 'How long after sending users may delete their own messages.'),
  move_messages_within_stream_limit_seconds: limit('move_messages_within_stream_limit_seconds', 'moveMessagesWithinStreamLimitSeconds', 'How long after sending users other than moderators may move a message to another topic.'),
  move_messages_between_streams_limit_seconds: limit('move_messages_between_streams_limit_seconds', 'moveMessagesBetweenStreamsLimitSeconds', 'How long after sending users other than moderators may move a message to another channel.'),
  message_edit_history_visibility_policy: column('message_edit_history_visibility_policy', 'messageEditHistoryVisibilityPolicy', 'string', 'Who sees message edit history: "all" (edits and moves), "moves" (moves only) or "none".', { choices: EDIT_HISTORY_POLICIES }),
  allow_edit_history: {
    kind: 'bool', description: 'Deprecated: true sets message_edit_history_visibility_policy to "all", false to "none".', legacyOf: 'message_edit_history_visibility_policy',
    parse: (value) => {
      typed('allow_edit_history', 'bool', value);
      return { messageEditHistoryVisibilityPolicy: value ? 'all' : 'none' };
    },
    read: (realm) => realm.messageEditHistoryVisibilityPolicy !== 'none',
  },
  topics_policy: {
    kind: 'string', description: 'Whether messages may go to the empty topic: "allow_empty_topic" or "disable_empty_topic".',
    parse: (value) => {
      typed('topics_policy', 'string', value);
      if (!REALM_TOPICS_POLICIES.includes(value as string)) throw new InvalidArgumentError('topics_policy');
      return { topicsPolicy: value as string, mandatoryTopics: false };
    },
    read: topicsPolicyOf,
  },
  mandatory_topics: {
    kind: 'bool', description: 'Deprecated: true sets topics_policy to "disable_empty_topic", false to "allow_empty_topic".', legacyOf: 'topics_policy',
    parse: (value) => {
      typed('mandatory_topics', 'bool', value);
      return { topicsPolicy: value ? 'disable_empty_topic' : 'allow_empty_topic', mandatoryTopics: false };
    },
    read: (realm) => topicsPolicyOf(realm) === 'disable_empty_topic',
  },
  default_language: column('default_language', 'defaultLanguage', 'string', 'The language code of the organization\'s default language (new users\' language, e-mail to spectators).', {
    check: (v: string) => {
      if (!isLanguageCode(v)) throw new InvalidArgumentError('default_language', `Invalid language '${v}'`);
    },
  }),
  waiting_period_threshold: column('waiting_period_threshold', 'waitingPeriodThreshold', 'int', 'How many days new members wait before they are full members (owners only).', {
    ownerOnly: true,
    check: (v: number) => {
      if (v < 0) throw new InvalidArgumentError('waiting_period_threshold', 'waiting_period_threshold is too small');
    },
  }),
  message_retention_days: {
    kind: 'json', ownerOnly: true,
    description: 'How many days messages are kept: a positive number, or "unlimited" (owners only).',
    parse: (value) => {
      if (value === 'unlimited' || value === 'forever') return { messageRetentionDays: null };
      if (!Number.isSafeInteger(value) || (value as number) <= 0 || (value as number) > 2 ** 31 - 1) {
        throw new InvalidArgumentError('message_retention_days', `Bad value for 'message_retention_days': ${typeof value === 'string' ? value : JSON.stringify(value)}`);
      }
      return { messageRetentionDays: value as number };
    },
    // The API's -1 means "keep forever"; Parley stores that as null.
    read: (realm) => realm.messageRetentionDays ?? -1,
  },
  send_welcome_emails: column('send_welcome_emails', 'sendWelcomeEmails', 'bool', 'Whether new users get welcome e-mails.'),
  digest_emails_enabled: column('digest_emails_enabled', 'digestEmailsEnabled', 'bool', 'Whether users away get digest e-mails.'),
  digest_weekday: column('digest_weekday', 'digestWeekday', 'int', 'The day digest e-mails go out: 0 Monday … 6 Sunday.', { choices: [0, 1, 2, 3, 4, 5, 6] }),
  message_content_allowed_in_email_notifications: column('message_content_allowed_in_email_notifications', 'messageContentAllowedInEmailNotifications', 'bool', 'Whether notification e-mails may include message content.'),
  video_chat_provider: column('video_chat_provider', 'videoChatProvider', 'int', 'The video call provider, by its ID in realm_available_video_chat_providers.', {
    check: (v: number) => {
      if (!Object.values(VIDEO_CHAT_PROVIDERS).some((p) => p.id === v)) throw new InvalidArgumentError('video_chat_provider', `Invalid video_chat_provider ${v}`);
    },
  }),
  jitsi_server_url: {
    kind: 'string', description: 'The organization\'s Jitsi server URL, or "default" for the server\'s.',
    parse: (value) => {
      typed('jitsi_server_url', 'string', value);
      if (value === 'default') return { jitsiServerUrl: null };
      let url: URL | null = null;
      try {
        url = new URL(value as string);
      } catch { /* refused below */ }
      if (!url || !/^https?:$/.test(url.protocol) || (value as string).length > JITSI_SERVER_URL_MAX_LENGTH) {
        throw new InvalidArgumentError('jitsi_server_url', 'jitsi_server_url is not an allowed_type');
      }
      return { jitsiServerUrl: value as string };
    },
    read: (realm) => realm.jitsiServerUrl,
  },
  giphy_rating: column('giphy_rating', 'giphyRating', 'int', 'The most mature GIPHY rating allowed, by its ID in giphy_rating_options.', {
    check: (v: number) => {
      if (!Object.values(GIPHY_RATING_OPTIONS).some((p) => p.id === v)) throw new InvalidArgumentError('giphy_rating', `Invalid giphy_rating ${v}`);
    },
  }),
  default_code_block_language: column('default_code_block_language', 'defaultCodeBlockLanguage', 'string', 'The language of code blocks that name none ("" for none).', {
    check: maxLength('default_code_block_language', 40),
  }),
  org_type: column('org_type', 'orgType', 'int', 'The kind of organization (Zulip\'s org_type values).', { choices: ORG_TYPES }),
  enable_spectator_access: column('enable_spectator_access', 'enableSpectatorAccess', 'bool', 'Whether visitors without an account may read web-public channels.'),
  want_advertise_in_communities_directory: column('want_advertise_in_communities_directory', 'wantAdvertiseInCommunitiesDirectory', 'bool', 'Whether the organization wants to be listed in the Zulip communities directory.'),
  enable_read_receipts: column('enable_read_receipts', 'enableReadReceipts', 'bool', 'Whether users may see who read messages (each user may still hide their own).'),
  enable_guest_user_dm_warning: column('enable_guest_user_dm_warning', 'enableGuestUserDmWarning', 'bool', 'Whether clients warn when a direct message goes to a guest.'),
  enable_guest_user_indicator: column('enable_guest_user_indicator', 'enableGuestUserIndicator', 'bool', 'Whether clients mark guests\' names.'),
  moderation_request_channel_id: notificationChannel('moderation_request_channel_id', 'moderationRequestChannelId', 'The private channel that receives message reports.'),
  new_stream_announcements_stream_id: notificationChannel('new_stream_announcements_stream_id', 'newStreamAnnouncementsChannelId', 'Where new channels are announced.'),
  signup_announcements_stream_id: notificationChannel('signup_announcements_stream_id', 'signupAnnouncementsChannelId', 'Where new users are announced.'),
  zulip_update_announcements_stream_id: notificationChannel('zulip_update_announcements_stream_id', 'zulipUpdateAnnouncementsChannelId', 'Where server update notices are posted.'),
};

/** Realm permission settings: wire name → Realm column (each holds a UserGroup ID; see the schema's header). */
export const REALM_GROUP_SETTINGS = {
  create_multiuse_invite_group: 'createMultiuseInviteGroupId',
  can_access_all_users_group: 'canAccessAllUsersGroupId',
  can_add_custom_emoji_group: 'canAddCustomEmojiGroupId',
  can_add_subscribers_group: 'canAddSubscribersGroupId',
  can_create_bots_group: 'canCreateBotsGroupId',
  can_create_groups: 'canCreateGroupsGroupId',
  can_create_private_channel_group: 'canCreatePrivateChannelGroupId',
  can_create_public_channel_group: 'canCreatePublicChannelGroupId',
  can_create_web_public_channel_group: 'canCreateWebPublicChannelGroupId',
  can_create_write_only_bots_group: 'canCreateWriteOnlyBotsGroupId',
  can_delete_any_message_group: 'canDeleteAnyMessageGroupId',
  can_delete_own_message_group: 'canDeleteOwnMessageGroupId',
  can_invite_users_group: 'canInviteUsersGroupId',
  can_manage_all_groups: 'canManageAllGroupsGroupId',
  can_manage_billing_group: 'canManageBillingGroupId',
  can_mention_many_users_group: 'canMentionManyUsersGroupId',
  can_move_messages_between_channels_group: 'canMoveMessagesBetweenChannelsGroupId',
  can_move_messages_between_topics_group: 'canMoveMessagesBetweenTopicsGroupId',
  can_resolve_topics_group: 'canResolveTopicsGroupId',
  can_set_delete_message_policy_group: 'canSetDeleteMessagePolicyGroupId',
  can_set_topics_policy_group: 'canSetTopicsPolicyGroupId',
  can_summarize_topics_group: 'canSummarizeTopicsGroupId',
  direct_message_initiator_group: 'directMessageInitiatorGroupId',
  direct_message_permission_group: 'directMessagePermissionGroupId',
} as const satisfies Record<string, Column>;

export type RealmGroupSetting = keyof typeof REALM_GROUP_SETTINGS;

/** Group settings only owners may change (they govern who joins and who manages groups). */
export const OWNER_ONLY_GROUP_SETTINGS: ReadonlySet<string> = new Set([
  'create_multiuse_invite_group', 'can_create_groups', 'can_invite_users_group', 'can_manage_all_groups',
]);

/** Register's realm_* values for every setting of the catalog (group settings aside). */
export function realmSettingsState(realm: Realm): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(REALM_SETTINGS)) state[`realm_${name}`] = spec.read(realm);
  return state;
}

