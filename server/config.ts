// Everything the operator can set, read once from the environment. Defaults give a working
// single-process server on embedded PGlite.
export interface Config {
  port: number;
  /** PostgreSQL URL; absent means embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Redis URL; set, several server processes share event queues and events through it. */
  redisUrl?: string;
  /** Starts every Redis key and channel, so deployments (or test servers) can share one Redis. */
  redisPrefix: string;
  /** The host the root realm is served at; realms with a subdomain live at `<sub>.<rootDomain>`. */
  rootDomain: string;
  externalUrl: string;
  adminEmail: string;
  adminPassword?: string;
  realmName: string;
  /** Enables /dev_fetch_api_key (log in as anyone by email): never in production. */
  devMode: boolean;
  webPublicStreamsEnabled: boolean;
  /** Mobile push through a push relay (PARLEY_PUSH_NOTIFICATIONS or PARLEY_PUSH_BOUNCER_URL). */
  pushNotificationsEnabled: boolean;
  /** The push relay that decrypts E2EE registrations and talks to the push providers. */
  pushBouncerUrl?: string;
  /** The relay's public keys (standard Base64) that clients may encrypt registrations with. */
  pushBouncerPublicKeys: string[];
  /** Video-call providers the operator configured; absent ones answer "not configured". */
  videoCalls: VideoCallsConfig;
  logRequests: boolean;
  /** Seconds a long-poll waits before answering with a heartbeat (Zulip: about 50). */
  heartbeatSecs: number;
  /** Messages deleted per batch by delete_topic (default 100). */
  deleteTopicBatchSize?: number;
  /** Milliseconds after which delete_topic stops starting batches and answers `complete: false` (default 50 s). */
  deleteTopicBudgetMs?: number;
  /** How often each process looks for due scheduled messages and reminders; 0 turns the worker off. */
  scheduledPollMs: number;
}

/** An OAuth video-call provider (Zoom's user-OAuth app, or anything speaking the same flow). */
export interface OAuthVideoProvider {
  clientId: string;
  clientSecret: string;
  /** Where the user's browser is sent to grant access. */
  authorizeUrl: string;
  /** Where the authorization code (and later the refresh token) is exchanged for an access token. */
  tokenUrl: string;
  /** The provider's REST API root; meetings are created at `<apiUrl>/users/me/meetings`. */
  apiUrl: string;
}

export interface VideoCallsConfig {
  zoom?: OAuthVideoProvider;
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function videoCallsFromEnv(env: NodeJS.ProcessEnv): VideoCallsConfig {
  const config: VideoCallsConfig = {};
  if (env.PARLEY_ZOOM_CLIENT_ID && env.PARLEY_ZOOM_CLIENT_SECRET) {
    config.zoom = {
      clientId: env.PARLEY_ZOOM_CLIENT_ID,
      clientSecret: env.PARLEY_ZOOM_CLIENT_SECRET,
      authorizeUrl: env.PARLEY_ZOOM_AUTHORIZE_URL || 'https://zoom.us/oauth/authorize',
      tokenUrl: env.PARLEY_ZOOM_TOKEN_URL || 'https://zoom.us/oauth/token',
      apiUrl: (env.PARLEY_ZOOM_API_URL || 'https://api.zoom.us/v2').replace(/\/+$/, ''),
    };
  }
  return config;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 9991);
  const rootDomain = (env.PARLEY_HOST ?? 'localhost').toLowerCase();
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.PARLEY_DATA_DIR ?? './data',
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.PARLEY_REDIS_PREFIX || 'parley:',
    rootDomain,
    externalUrl: env.PARLEY_EXTERNAL_URL ?? `http://${rootDomain}:${port}`,
    adminEmail: env.PARLEY_ADMIN_EMAIL ?? 'admin@parley.local',
    adminPassword: env.PARLEY_ADMIN_PASSWORD || undefined,
    realmName: env.PARLEY_REALM_NAME ?? 'Parley',
    devMode: env.PARLEY_DEV_MODE === '1' || env.PARLEY_DEV_MODE === 'true',
    webPublicStreamsEnabled: env.PARLEY_WEB_PUBLIC_STREAMS !== '0',
    pushNotificationsEnabled: env.PARLEY_PUSH_NOTIFICATIONS === '1' || env.PARLEY_PUSH_NOTIFICATIONS === 'true' || !!env.PARLEY_PUSH_BOUNCER_URL,
    pushBouncerUrl: env.PARLEY_PUSH_BOUNCER_URL || undefined,
    pushBouncerPublicKeys: list(env.PARLEY_PUSH_BOUNCER_PUBLIC_KEYS),
    videoCalls: videoCallsFromEnv(env),
    logRequests: env.PARLEY_LOG_REQUESTS === '1',
    heartbeatSecs: Number(env.PARLEY_HEARTBEAT_SECS ?? 50),
    scheduledPollMs: Number(env.PARLEY_SCHEDULED_POLL_MS ?? 5000),
  };
}
