// The API level Parley speaks. Clients choose parameter names and response formats by
// `zulip_feature_level`, so this is the level whose shapes every implemented endpoint follows
// (the spec in shared/spec describes up to 496). Endpoints not yet built answer a JSON 404 rather
// than an older shape; the README lists them.
export const ZULIP_FEATURE_LEVEL = 496;
export const ZULIP_VERSION = '12.0-dev+parley-0.1.0';
export const ZULIP_MERGE_BASE = '12.0-dev';
