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
  pushNotificationsEnabled: boolean;
  logRequests: boolean;
  /** Seconds a long-poll waits before answering with a heartbeat (Zulip: about 50). */
  heartbeatSecs: number;
  /** How often each process looks for due scheduled messages and reminders; 0 turns the worker off. */
  scheduledPollMs: number;
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
    pushNotificationsEnabled: false,
    logRequests: env.PARLEY_LOG_REQUESTS === '1',
    heartbeatSecs: Number(env.PARLEY_HEARTBEAT_SECS ?? 50),
    scheduledPollMs: Number(env.PARLEY_SCHEDULED_POLL_MS ?? 5000),
  };
}
