// Starts a real Parley server for a test file, on a fresh database: in-memory PGlite by default,
// a new PostgreSQL database when TEST_DATABASE_URL is set (dropped again on close). With
// TEST_REDIS_URL set, event queues and the event bus live in Redis, under a key prefix of its own.
import { inject } from 'vitest';
import { createParleyServer, type ParleyServer } from '../../server/app.ts';
import { configFromEnv, type Config } from '../../server/config.ts';
import { ApiClient, type Credentials } from './client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from './redis.ts';
import { testDatabase } from './databases.ts';

export interface TestServer {
  server: ParleyServer;
  baseUrl: string;
  port: number;
  owner: Credentials;
  /** A client for the root realm, anonymous unless given credentials. */
  client(credentials?: Credentials, host?: string): ApiClient;
  close(): Promise<void>;
}

export const ADMIN_EMAIL = 'owner@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const pgBase = process.env.TEST_DATABASE_URL;
  const pgDb = pgBase ? await testDatabase(pgBase) : null;
  const redisUrl = process.env.TEST_REDIS_URL || undefined;
  const defaults = configFromEnv({});
  const config: Config = {
    ...defaults,
    // Test files send far more than 200 requests a minute as one user: rate limits are off unless
    // a test turns them on.
    rateLimits: { ...defaults.rateLimits, enabled: false },
    port: 0,
    databaseUrl: pgDb?.url,
    dataDir: 'memory://',
    pgliteTemplate: inject('pgliteTemplate') || undefined,
    redisUrl,
    redisPrefix: uniqueRedisPrefix('server'),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    realmName: 'Test Org',
    ...overrides,
  };
  // Whatever happens from here on, the database and the Redis keys go (the run's teardown drops
  // databases of files that never got this far).
  const cleanUp = async () => {
    await pgDb?.drop();
    if (config.redisUrl) await dropRedisKeys(config.redisUrl, config.redisPrefix);
  };
  let server: ParleyServer | undefined;
  let owner: Credentials;
  let baseUrl: string;
  let port: number;
  try {
    server = await createParleyServer(config, () => {});
    port = await server.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${port}`;
    const key = await new ApiClient(baseUrl).post('/fetch_api_key', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    if (key.status !== 200) throw new Error(`cannot log in as the owner: ${JSON.stringify(key.body)}`);
    owner = { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
  } catch (error) {
    await server?.close().catch(() => {});
    await cleanUp();
    throw error;
  }
  const started = server;
  return {
    server: started,
    baseUrl,
    port,
    owner,
    client: (credentials, host) => new ApiClient(baseUrl, credentials, host),
    close: async () => {
      try {
        await started.close();
      } finally {
        await cleanUp();
      }
    },
  };
}
