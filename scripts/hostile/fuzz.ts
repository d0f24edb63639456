// The fuzz of test/rest/fuzz.test.ts at scale: FUZZ_REQUESTS (default 100,000) seeded hostile
// requests over every REST route and GraphQL field, against a server on PGlite and, when
// TEST_DATABASE_URL (or DATABASE_URL) is set, one on PostgreSQL; reports the counts and every
// 5xx or GraphQL INTERNAL_SERVER_ERROR (exit code 1 if any).
//
//   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx scripts/hostile/fuzz.ts
import { createParleyServer } from '../../server/app.ts';
import { configFromEnv } from '../../server/config.ts';
import { ApiClient } from '../../test/support/client.ts';
import type { TestServer } from '../../test/support/server.ts';
import { makeChannel, makeUser, sendToChannel } from '../../test/support/factories.ts';
import { fuzz, graphqlFields, restRoutes } from '../../test/support/fuzz.ts';
import { createScratchDatabase } from '../../prisma/scratch-database.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const pg = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;


/** A server on `databaseUrl` (PGlite in memory without one), shaped as the test factories expect. */
async function start(databaseUrl?: string): Promise<TestServer> {
  const email = 'owner@example.com';
  const password = 'fuzz-owner-password';
  // Rate limits would answer most of the fuzz with 429s: the fuzz is about everything behind them.
  const config = { ...configFromEnv({ PARLEY_RATE_LIMITING: '0' }), port: 0, databaseUrl, dataDir: 'memory://', adminEmail: email, adminPassword: password, realmName: 'Fuzz', scheduledPollMs: 0 };
  const server = await createParleyServer(config, () => {});
  const port = await server.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;
  const key = await new ApiClient(baseUrl).post('/fetch_api_key', { username: email, password });
  const owner = { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
  return { server, baseUrl, port, owner, client: (c, host) => new ApiClient(baseUrl, c, host), close: () => server.close() };
}

let failedOverall = 0;
for (const database of ['PGlite', ...(pg ? ['PostgreSQL'] : [])]) {
  const fresh = database === 'PostgreSQL' ? await createScratchDatabase(pg!, 'parley_fuzz') : null;
  const t = await start(fresh?.url);
  try {
    const member = await makeUser(t);
    const guest = await makeUser(t, { role: 600 });
    await makeChannel(t.client(t.owner), 'fuzzed', {});
    await sendToChannel(t.client(t.owner), 'general', 'fuzz', 'something to edit and react to');
    const started = performance.now();
    const result = await fuzz({ baseUrl: t.baseUrl, callers: [t.owner, member, guest] }, SEED, REQUESTS, {
      concurrency: CONCURRENCY,
      keep: 100,
      onProgress: (done) => { if (done % 10_000 === 0) console.log(`${database}: ${done} requests, ${((performance.now() - started) / 1000).toFixed(0)} s`); },
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`${database}: ${result.sent} requests (${result.rest} REST over ${restRoutes().length} routes, ${result.graphql} GraphQL over ${graphqlFields().length} fields) in ${seconds.toFixed(0)} s; 5xx or INTERNAL_SERVER_ERROR: ${result.failed}`);
    for (const failure of result.failures) console.log(`  ${failure.status} ${failure.label}: ${failure.detail}`);
    failedOverall += result.failed;
  } finally {
    await t.close();
    await fresh?.drop();
  }
}
process.exit(failedOverall ? 1 : 0);
