// Starts a real Parley server for a test file, on a fresh database: in-memory PGlite by default,
// a new PostgreSQL database when TEST_DATABASE_URL is set (dropped again on close). With
// TEST_REDIS_URL set, event queues and the event bus live in Redis, under a key prefix of its own.
import { createParleyServer, type ParleyServer } from '../../server/app.ts';
import { configFromEnv, type Config } from '../../server/config.ts';
import { ApiClient, type Credentials } from './client.ts';
import { dropRedisKeys, uniqueRedisPrefix } from './redis.ts';
import { createScratchDatabase } from '../../prisma/scratch-database.ts';

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

function freshPostgresUrl(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  return createScratchDatabase(base, 'parley_test');
}

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const pgBase = process.env.TEST_DATABASE_URL;
  const pgDb = pgBase ? await freshPostgresUrl(pgBase) : null;
  const redisUrl = process.env.TEST_REDIS_URL || undefined;
  const config: Config = {
    ...configFromEnv({}),
    port: 0,
    databaseUrl: pgDb?.url,
    dataDir: 'memory://',
    redisUrl,
    redisPrefix: uniqueRedisPrefix('server'),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    realmName: 'Test Org',
    ...overrides,
  };
  const server = await createParleyServer(config, () => {});
  const port = await server.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;
  const anonymous = new ApiClient(baseUrl);
  const key = await anonymous.post('/fetch_api_key', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  if (key.status !== 200) throw new Error(`cannot log in as the owner: ${JSON.stringify(key.body)}`);
  const owner: Credentials = { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
  return {
    server,
    baseUrl,
    port,
    owner,
    client: (credentials, host) => new ApiClient(baseUrl, credentials, host),
    close: async () => {
      await server.close();
      await pgDb?.drop();
      if (config.redisUrl) await dropRedisKeys(config.redisUrl, config.redisPrefix);
    },
  };
}
