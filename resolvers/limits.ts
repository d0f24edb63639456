// Server-wide limits and protocol values: the domain enforces them and register reports them, both
// reading them from here, so the numbers a client is told and the numbers the server uses cannot
// drift apart.

/**
 * The longest text a column under a b-tree index may hold where Zulip sets no limit of its own
 * (an index entry holds at most 2704 bytes: 600 code points of up to 4 UTF-8 bytes, with the
 * other key columns, fit). Longer values are the caller's error, not the database's.
 */
export const MAX_INDEXED_TEXT_LENGTH = 600;

// Zulip's documented content limits.
export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;
export const MAX_MESSAGES_PER_FETCH = 5000;

// Typing-notification protocol (POST /typing), in milliseconds. Zulip's documented server defaults
// (zproject/default_settings.py): a composing client repeats `start` every 30 s, sends `stop` after
// 12 s of inactivity, and receivers drop an indicator 45 s after the last `start`. (zulip.yaml's
// 10000 / 5000 / 15000 are only the fallbacks for servers older than feature level 204.)
export const TYPING_STARTED_WAIT_MS = 30_000;
export const TYPING_STOPPED_WAIT_MS = 12_000;
export const TYPING_STARTED_EXPIRY_MS = 45_000;

// Presence protocol: clients ping every minute; a user is offline after 140 s without one.
export const PRESENCE_PING_INTERVAL_SECS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECS = 140;
/** Legacy presence: a user counts as active if their last activity is this close to their last connection. */
export const PRESENCE_LEGACY_ACTIVITY_OFFSET_SECS = 70;

/** Recommended client-side timeout for GET /events (comfortably above the heartbeat interval). */
export const EVENT_QUEUE_LONGPOLL_TIMEOUT_SECS = 90;

/** Unread messages sent in `unread_msgs` (the most recent ones); more sets `old_unreads_missing`. */
export const MAX_UNREAD_MESSAGES = 50_000;
/** Direct messages scanned for `recent_private_conversations` (Zulip's historical 1000). */
export const RECENT_PRIVATE_MESSAGES_LIMIT = 1000;
/** Starred message IDs sent in `starred_messages`. */
export const MAX_STARRED_MESSAGES = 10_000;

/** With include_subscribers=partial, channels this large get `partial_subscribers` (spec: Limits). */
export const PARTIAL_SUBSCRIBERS_MIN_CHANNEL_SIZE = 250;
/** `partial_subscribers` lists bots and the users active within this many days. */
export const PARTIAL_SUBSCRIBERS_ACTIVE_DAYS = 14;
/** With the `user_avatar_url_field_optional` capability, users idle this long get no `avatar_url`. */
export const LONG_TERM_IDLE_DAYS = 180;

export const DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS = 14;

// Upload limits (MiB) and password rules the server applies.
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
export const MAX_ICON_FILE_SIZE_MIB = 5;
export const MAX_LOGO_FILE_SIZE_MIB = 5;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 100;
export const PASSWORD_MIN_GUESSES = 10_000;

export const MIN_DEACTIVATED_REALM_DELETION_DAYS = 14;
export const MAX_DEACTIVATED_REALM_DELETION_DAYS: number | null = null;

export const DEFAULT_JITSI_SERVER_URL = 'https://meet.jit.si';

/** The name and avatar shown for users a guest may not see (Zulip's INACCESSIBLE_USER_NAME). */
export const INACCESSIBLE_USER_NAME = 'Unknown user';
export const INACCESSIBLE_USER_AVATAR_URL = '/static/images/unknown-user-avatar.png';


/** Custom profile field types, keyed as Zulip's `custom_profile_field_types`. */
export const CUSTOM_PROFILE_FIELD_TYPES: Record<string, { id: number; name: string }> = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

export const GIPHY_RATING_OPTIONS: Record<string, { name: string; id: number }> = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

/** Video call providers usable without server-side credentials (Zoom and BigBlueButton need them). */
export const VIDEO_CHAT_PROVIDERS: Record<string, { name: string; id: number }> = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
};

export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; text: string; hint: string; url_pattern: string }> = {
  github: { name: 'GitHub', text: 'GitHub', hint: 'Enter your GitHub username', url_pattern: 'https://github.com/%(username)s' },
  twitter: { name: 'X', text: 'X', hint: 'Enter your X username', url_pattern: 'https://x.com/%(username)s' },
};

/** Colours given to the web-public channels shown to spectators (Zulip's STREAM_ASSIGNMENT_COLORS). */
export const CHANNEL_ASSIGNMENT_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/**
 * Words full-text search ignores (`stop_words`). Parley searches with PostgreSQL's `english`
 * configuration, whose stop words are the Snowball English list below.
 */
export const STOP_WORDS = [
  'i', 'me', 'my', 'myself', 'we', 'our', 'ours', 'ourselves', 'you', 'your', 'yours', 'yourself',
  'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it', 'its', 'itself',
  'they', 'them', 'their', 'theirs', 'themselves', 'what', 'which', 'who', 'whom', 'this', 'that',
  'these', 'those', 'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had',
  'having', 'do', 'does', 'did', 'doing', 'a', 'an', 'the', 'and', 'but', 'if', 'or', 'because', 'as',
  'until', 'while', 'of', 'at', 'by', 'for', 'with', 'about', 'against', 'between', 'into', 'through',
  'during', 'before', 'after', 'above', 'below', 'to', 'from', 'up', 'down', 'in', 'out', 'on', 'off',
  'over', 'under', 'again', 'further', 'then', 'once', 'here', 'there', 'when', 'where', 'why', 'how',
  'all', 'any', 'both', 'each', 'few', 'more', 'most', 'other', 'some', 'such', 'no', 'nor', 'not',
  'only', 'own', 'same', 'so', 'than', 'too', 'very', 's', 't', 'can', 'will', 'just', 'don', 'should', 'now',
];

/** When this server process started (seconds): `server_generation`. */
export const SERVER_GENERATION = Math.floor(Date.now() / 1000);


/** Zulip's limit on the comment e-mailed to a deactivated user. */
export const MAX_DEACTIVATION_COMMENT_LENGTH = 2000;

/** Characters (keys plus values) one user may keep in /bot_storage (Zulip's USER_STATE_SIZE_LIMIT). */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;
