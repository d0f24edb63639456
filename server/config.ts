// Everything the operator can set, read once from the environment. Defaults give a working
// single-process server on embedded PGlite.
import type { StorageConfig } from '../resolvers/files/storage.ts';
import { DEFAULT_RATE_LIMITS, parseRule, type RateLimitConfig } from './rate-limits.ts';
export interface Config {
  port: number;
  /** The address the HTTP server binds: loopback by default; `0.0.0.0` (or `::`) for every interface. */
  bindAddress: string;
  /** PostgreSQL URL; absent means embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * A PGlite data directory dumped by `dumpDataDir` (a tar file) that an in-memory (`memory://`)
   * database starts from instead of an empty cluster; migrations newer than it still apply. The
   * tests start every server this way rather than creating and migrating a cluster each time.
   */
  pgliteTemplate?: string;
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
  /**
   * Server processes sharing the port (PARLEY_WORKERS, server/workers.ts): more than one needs
   * REDIS_URL and DATABASE_URL.
   */
  workers: number;
  /** Seconds a long-poll waits before answering with a heartbeat (Zulip: about 50). */
  heartbeatSecs: number;
  /** Messages deleted per batch by delete_topic (default 100). */
  deleteTopicBatchSize?: number;
  /** Milliseconds after which delete_topic stops starting batches and answers `complete: false` (default 50 s). */
  deleteTopicBudgetMs?: number;
  /** How often each process looks for due scheduled messages and reminders; 0 turns the worker off. */
  scheduledPollMs: number;
  /** How often each process promotes members past the waiting period to full members; 0 turns the worker off. */
  fullMemberPromotionMs: number;
  /** How often each process mails the missed-message e-mails whose batching period has ended; 0 turns the worker off. */
  missedMessageEmailPollMs: number;
  /** Where uploads, avatars, icons, thumbnails and exports are kept. */
  storage: StorageConfig;
  /** SMTP server for outgoing e-mail (smtp://user:pass@host:port, smtps://...); unset: mail is only logged. */
  smtpUrl?: string;
  /** The From address of outgoing e-mail. */
  emailFrom: string;
  /** Users without an uploaded avatar get Gravatar's (an outside service) instead of a generated one. */
  gravatarEnabled: boolean;
  /** Request bodies (server/gate.ts, server/request-body.ts). */
  limits: BodyLimits;
  /** Zulip's rate limits (server/rate-limits.ts). */
  rateLimits: RateLimitConfig;
  /**
   * Reverse proxies in front of the server: the client's address (for per-IP rate limits) is then
   * the one the nearest of them saw (X-Forwarded-For); with none, the connection's.
   */
  trustedProxies: number;
}

export interface BodyLimits {
  /** The largest body from an authenticated caller (Zulip's DATA_UPLOAD_MAX_MEMORY_SIZE, 25 MiB); uploads may add their file limit. */
  maxBodyBytes: number;
  /** The largest body without accepted credentials (logging in, server settings, web-public spectators). */
  anonymousMaxBodyBytes: number;
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

function storageFromEnv(env: NodeJS.ProcessEnv): StorageConfig {
  if (env.PARLEY_S3_BUCKET) {
    return {
      kind: 's3',
      endpoint: env.PARLEY_S3_ENDPOINT || 'https://s3.amazonaws.com',
      bucket: env.PARLEY_S3_BUCKET,
      accessKey: env.PARLEY_S3_ACCESS_KEY ?? '',
      secretKey: env.PARLEY_S3_SECRET_KEY ?? '',
      region: env.PARLEY_S3_REGION || 'us-east-1',
    };
  }
  // No directory: `uploads` in the data directory, decided at start-up (server/app.ts).
  return { kind: 'local', dir: env.PARLEY_UPLOADS_DIR || undefined };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 9991);
  const dataDir = env.PARLEY_DATA_DIR ?? './data';
  const rootDomain = (env.PARLEY_HOST ?? 'localhost').toLowerCase();
  return {
    port,
    bindAddress: env.PARLEY_BIND || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
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
    workers: Number(env.PARLEY_WORKERS || 1),
    heartbeatSecs: Number(env.PARLEY_HEARTBEAT_SECS ?? 50),
    scheduledPollMs: Number(env.PARLEY_SCHEDULED_POLL_MS ?? 5000),
    // Membership moves in whole days; Zulip promotes once a day.
    fullMemberPromotionMs: Number(env.PARLEY_FULL_MEMBER_PROMOTION_MS ?? 3_600_000),
    missedMessageEmailPollMs: Number(env.PARLEY_MISSED_MESSAGE_EMAIL_POLL_MS ?? 10_000),
    storage: storageFromEnv(env),
    gravatarEnabled: env.PARLEY_GRAVATAR === '1' || env.PARLEY_GRAVATAR === 'true',
    smtpUrl: env.PARLEY_SMTP_URL || undefined,
    emailFrom: env.PARLEY_EMAIL_FROM || `Parley <noreply@${rootDomain}>`,
    limits: {
      maxBodyBytes: Number(env.PARLEY_MAX_BODY_MIB || 25) * 1024 * 1024,
      anonymousMaxBodyBytes: Number(env.PARLEY_ANONYMOUS_MAX_BODY_KIB || 64) * 1024,
    },
    rateLimits: {
      enabled: env.PARLEY_RATE_LIMITING !== '0' && env.PARLEY_RATE_LIMITING !== 'false',
      apiByUser: parseRule(env.PARLEY_RATE_LIMIT_API_BY_USER, DEFAULT_RATE_LIMITS.apiByUser),
      apiByIp: parseRule(env.PARLEY_RATE_LIMIT_API_BY_IP, DEFAULT_RATE_LIMITS.apiByIp),
      authenticateByUsername: parseRule(env.PARLEY_RATE_LIMIT_AUTHENTICATE_BY_USERNAME, DEFAULT_RATE_LIMITS.authenticateByUsername),
      emailChangeByUser: parseRule(env.PARLEY_RATE_LIMIT_EMAIL_CHANGE_BY_USER, DEFAULT_RATE_LIMITS.emailChangeByUser),
      maxEventQueuesPerUser: Number(env.PARLEY_MAX_EVENT_QUEUES_PER_USER || DEFAULT_RATE_LIMITS.maxEventQueuesPerUser),
    },
    trustedProxies: Number(env.PARLEY_TRUSTED_PROXIES || 0),
  };
}
