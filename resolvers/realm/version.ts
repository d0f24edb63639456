// The API level Parley speaks. Clients choose parameter names and response formats by
// `zulip_feature_level`, so this is the level whose shapes every implemented endpoint follows
// (the spec in shared/spec describes up to 496). Endpoints not yet built answer a JSON 404 rather
// than an older shape; the README lists them.
export const ZULIP_FEATURE_LEVEL = 496;
export const ZULIP_VERSION = '12.0-dev+parley-0.1.0';
export const ZULIP_MERGE_BASE = '12.0-dev';

// Zulip's documented limits, sent to clients in /register and enforced by the server.
export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;
export const MAX_MESSAGES_PER_FETCH = 5000;
