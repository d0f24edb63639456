// `npm run bench`: Parley's message throughput and latency on PGlite and on PostgreSQL, against the
// limit of the stack underneath it (a bare Koa handler doing the same INSERT through the same driver).
//
// Per database, in order:
//   1. start a Parley server on a fresh database; create 4 users and the channel "bench" (5 subscribers)
//   2. seed BENCH_SEED messages with bulk SQL (then VACUUM ANALYZE)
//   3. GET /messages, one client: channel+topic (the largest topic), channel+search and is:unread
//   4. POST /messages, BENCH_CONCURRENCY clients over keep-alive HTTP, BENCH_MESSAGES messages
//   5. (PostgreSQL) count the SQL statements one request of each kind issues
//   6. stop Parley; a bare Koa handler doing one INSERT per request, same clients, same database
//   7. (PostgreSQL) the POST load through main.ts with PARLEY_WORKERS=1, then =BENCH_WORKERS (Redis)
//
// Environment: BENCH_DB=pglite|postgres|both (both), BENCH_MESSAGES (2000), BENCH_SEED (1000000 on
// PostgreSQL), BENCH_SEED_PGLITE (100000: PGlite seeds a million in minutes, single-threaded),
// BENCH_GETS (200 per narrow), BENCH_CONCURRENCY (8), BENCH_POST_SECONDS (cap per POST run, 90),
// BENCH_PG_URL (postgresql://postgres@127.0.0.1:5432/test), BENCH_PGLITE_DIR (a temporary directory),
// BENCH_WORKERS (2: on PostgreSQL, POST /messages through main.ts with PARLEY_WORKERS=1 then this many,
// when Redis answers at BENCH_REDIS_URL, redis://127.0.0.1:6379), BENCH_PROFILE (1: CPU profiles of the POST and GET runs).
// BENCH_SMTP (1: the server mails through a local SMTP sink, so sends queue missed-message e-mails for
// the away recipients and the worker mails them during the run, as in production with PARLEY_SMTP_URL).
// BENCH_PG_DB (a database name on BENCH_PG_URL's server): PostgreSQL runs in that database and keep it, so a
// million-message seed is made once and reused by later runs (and by other checkouts, to compare code on one
// seed); BENCH_MESSAGES=0 then measures GET /messages alone, leaving the seed as it was.
// The event-system benchmark (bench/events.ts) runs after this one with BENCH_EVENTS=1, instead of it
// with BENCH_ONLY=events.
import http from 'node:http';
import os from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createParleyServer, type ParleyServer } from '../server/app.ts';
import { configFromEnv, type Config } from '../server/config.ts';
import { runLoad, basicAuth, type LoadResult, type RequestSpec } from './load.ts';
import { openDriver, startBareServer } from './bare.ts';
import { seedMessages, LARGEST_TOPIC, SEARCH_WORD } from './seed.ts';
import { createScratchDatabase } from '../prisma/scratch-database.ts';
import { env, intEnv } from './env.ts';
import { benchWorkers, cpuCeiling, redisAnswers, type WorkersResult } from './workers.ts';

const here = dirname(fileURLToPath(import.meta.url));

const DB_CHOICE = (env.BENCH_DB ?? 'both').toLowerCase();
if (!['pglite', 'postgres', 'both'].includes(DB_CHOICE)) throw new Error('BENCH_DB must be pglite, postgres or both');
const MESSAGES = intEnv('BENCH_MESSAGES', 2000);
const SEED = intEnv('BENCH_SEED', 1_000_000);
const SEED_PGLITE = intEnv('BENCH_SEED_PGLITE', 100_000);
const GETS = intEnv('BENCH_GETS', 200);
const CONCURRENCY = Math.max(1, intEnv('BENCH_CONCURRENCY', 8));
const POST_SECONDS = intEnv('BENCH_POST_SECONDS', 90);
const PG_BASE = env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
/** A kept database (created and seeded on first use), instead of a scratch one per run. */
const PG_KEPT = env.BENCH_PG_DB ?? '';
if (PG_KEPT && !/^[a-z_][a-z0-9_]*$/.test(PG_KEPT)) throw new Error('BENCH_PG_DB must be a plain lower-case database name');
const WARMUP_POSTS = 100;
/** BENCH_PROFILE=1: a CPU profile of this process during each POST and GET run, to bench/results/<run>-<db>.cpuprofile. */
const PROFILE = env.BENCH_PROFILE === '1';
const SMTP = env.BENCH_SMTP === '1';

/** An SMTP server that accepts and counts every message (BENCH_SMTP=1). */
async function startSmtpCounter(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => { received += 1; callback(); });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, received: () => received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
const WARMUP_GETS = 10;
/** Workers compared with one (PostgreSQL + Redis, bench/workers.ts); 0 or 1 skips the comparison. */
const WORKERS = intEnv('BENCH_WORKERS', 2);
const REDIS_URL = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const EXTRA_USERS = 4;

const OWNER_EMAIL = 'owner@bench.example.com';
const OWNER_PASSWORD = 'bench owner password';
const USER_PASSWORD = 'bench user password';

type Kind = 'pglite' | 'postgres';

interface DbResult {
  kind: Kind;
  label: string;
  version: string;
  /** Null with BENCH_MESSAGES=0 (GET /messages only). */
  post: LoadResult | null;
  bare: LoadResult | null;
  /** POST /messages through main.ts with PARLEY_WORKERS=1 and =WORKERS (PostgreSQL with Redis only). */
  workers: WorkersResult | null;
  /** `reused`: BENCH_PG_DB's seed from an earlier run (its seeding time is not this run's). */
  seed: { messages: number; userMessages: number; seconds: number; reused?: boolean } | null;
  getTopic: LoadResult | null;
  getSearch: LoadResult | null;
  getUnread: LoadResult | null;
  queries: { post: number; getTopic: number; getSearch: number; getUnread: number; bare: number } | null;
  phases: [string, number][];
  /** 1-minute load average when the run began and ended: other work on the machine skews the figures. */
  load: [number, number];
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const log = (line: string) => console.error(`[bench] ${line}`);

async function timed<T>(phases: [string, number][], name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  log(`${name} …`);
  try {
    return await fn();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    phases.push([name, seconds]);
    log(`${name}: ${seconds.toFixed(1)} s`);
  }
}

// Setup and sanity requests use fresh connections: Node's global agent keeps sockets alive, and after a
// long seed (PGlite blocks this thread) the server's keep-alive timeout closes them just as they are reused.
const setupAgent = new http.Agent({ keepAlive: false });

function request(baseUrl: string, method: string, path: string, params: Record<string, unknown>, authorization?: string): Promise<any> {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const headers: Record<string, string> = { 'user-agent': 'ParleyBench/1.0' };
  if (authorization) headers.authorization = authorization;
  let url = `${baseUrl}/api/v1${path}`;
  let body: Buffer | undefined;
  if (method === 'GET') url += `?${form}`;
  else {
    body = Buffer.from(form);
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: setupAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (res.statusCode !== 200 || parsed.result !== 'success') {
          reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${JSON.stringify(parsed)}`));
        } else resolve(parsed);
      });
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** Counts statements sent through node-postgres (Parley's PrismaPg pool and the bare Pool alike). */
const sqlCounter = { enabled: false, count: 0 };
{
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as any).query = function (this: unknown, ...args: unknown[]) {
    if (sqlCounter.enabled) sqlCounter.count++;
    return original.apply(this, args);
  };
}

async function countStatements(n: number, run: () => Promise<LoadResult>): Promise<number> {
  sqlCounter.count = 0;
  sqlCounter.enabled = true;
  try {
    const result = await run();
    if (result.errors) throw new Error(`errors while counting statements: ${result.firstError}`);
  } finally {
    sqlCounter.enabled = false;
  }
  return sqlCounter.count / n;
}

/** Starts sampling this process (the server's thread); the returned function writes the profile and returns its path. */
async function startProfile(): Promise<(name: string) => Promise<string>> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  return async (name) => {
    const { profile } = await post<{ profile: unknown }>('Profiler.stop');
    session.disconnect();
    const file = join(here, 'results', `${name}.cpuprofile`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
}

function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  return createScratchDatabase(PG_BASE, 'parley_bench');
}

/** BENCH_PG_DB: the kept database, created when missing; never dropped. */
async function keptPostgres(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: async () => {} };
}

function checkLoad(name: string, result: LoadResult): LoadResult {
  if (result.errors) throw new Error(`${name}: ${result.errors} of ${result.count} requests failed; first: ${result.firstError}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// One database

async function benchDatabase(kind: Kind): Promise<DbResult> {
  const phases: [string, number][] = [];
  const loadAtStart = os.loadavg()[0]!;
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  log(`=== ${label} ===`);
  const pgDb = kind === 'postgres' ? await (PG_KEPT ? keptPostgres(PG_KEPT) : freshPostgres()) : null;
  if (kind === 'pglite' && env.BENCH_PGLITE_DIR?.startsWith('memory://')) {
    throw new Error('BENCH_PGLITE_DIR must be a directory: the bare phase reopens the same database after Parley stops');
  }
  const pgliteDir = kind === 'pglite' ? (env.BENCH_PGLITE_DIR || mkdtempSync(join(os.tmpdir(), 'parley-bench-pglite-'))) : null;
  const removePgliteDir = kind === 'pglite' && !env.BENCH_PGLITE_DIR;
  const smtp = SMTP ? await startSmtpCounter() : null;
  const config: Config = {
    // Measures the server, not its rate limits (8 clients send far more than 200 requests a minute).
    ...configFromEnv({ PARLEY_RATE_LIMITING: '0' }),
    ...(smtp ? { smtpUrl: smtp.url } : {}),
    port: 0,
    databaseUrl: pgDb?.url,
    dataDir: pgliteDir ?? 'memory://',
    adminEmail: OWNER_EMAIL,
    adminPassword: OWNER_PASSWORD,
    realmName: 'Bench',
    logRequests: false,
  };
  let server: ParleyServer | null = null;
  try {
    server = await timed(phases, 'start Parley (migrations, first realm)', () => createParleyServer(config, (line) => { if (env.BENCH_SERVER_LOG === "1") log(`  server: ${line}`); }));
    const port = await server.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${port}`;
    const prisma = server.database.prisma;
    const version = kind === 'postgres'
      ? `PostgreSQL ${((await prisma.$queryRawUnsafe('SHOW server_version')) as { server_version: string }[])[0]!.server_version}`
      : `PGlite ${JSON.parse(readFileSync(join(here, '../node_modules/@electric-sql/pglite/package.json'), 'utf8')).version} (on disk)`;

    // --- Users and the channel (a kept database has them from its first run)
    const kept = kind === 'postgres' && PG_KEPT
      && ((await prisma.$queryRawUnsafe(`SELECT 1 FROM "Channel" WHERE name = 'bench'`)) as unknown[]).length > 0;
    const users = await timed(phases, `setup: owner + ${EXTRA_USERS} users, channel "bench"`, async () => {
      const ownerKey = await request(baseUrl, 'POST', '/fetch_api_key', { username: OWNER_EMAIL, password: OWNER_PASSWORD });
      const owner = { id: ownerKey.user_id as number, email: ownerKey.email as string, apiKey: ownerKey.api_key as string };
      const ownerAuth = basicAuth(owner.email, owner.apiKey);
      const list = [owner];
      for (let i = 1; i <= EXTRA_USERS; i++) {
        const email = `user${i}@bench.example.com`;
        if (!kept) await request(baseUrl, 'POST', '/users', { email, password: USER_PASSWORD, full_name: `Bench User ${i}` }, ownerAuth);
        const key = await request(baseUrl, 'POST', '/fetch_api_key', { username: email, password: USER_PASSWORD });
        list.push({ id: key.user_id, email: key.email, apiKey: key.api_key });
      }
      if (!kept) {
        await request(baseUrl, 'POST', '/users/me/subscriptions', {
          subscriptions: [{ name: 'bench' }], principals: list.map((u) => u.id),
        }, ownerAuth);
      }
      return list;
    });
    const [ids] = (await prisma.$queryRawUnsafe(
      `SELECT "realmId", id AS "channelId" FROM "Channel" WHERE name = 'bench'`)) as { realmId: number; channelId: number }[];
    const { realmId, channelId } = ids!;
    const auths = users.map((u) => basicAuth(u.email, u.apiKey));
    const ownerAuth = auths[0]!;

    // --- Seed
    let seed: DbResult['seed'] = null;
    const seedCount = kind === 'pglite' ? SEED_PGLITE : SEED;
    if (kept) {
      const n = ((await prisma.$queryRawUnsafe(`SELECT count(*)::int AS n FROM "Message" WHERE "sendingClient" = 'bench-seed'`)) as { n: number }[])[0]!.n;
      if (n !== seedCount) throw new Error(`BENCH_PG_DB ${PG_KEPT} holds a seed of ${n} messages, not BENCH_SEED=${seedCount}: drop it or set BENCH_SEED`);
      log(`  reusing the seed of ${n.toLocaleString('en-US')} messages in ${PG_KEPT}`);
      seed = { messages: n, userMessages: n * users.length, seconds: 0, reused: true };
    } else if (seedCount > 0) {
      const started = performance.now();
      const counts = await timed(phases, `seed ${kind === 'pglite' ? 'BENCH_SEED_PGLITE' : 'BENCH_SEED'} messages (bulk SQL + VACUUM ANALYZE)`, () =>
        seedMessages(prisma, { realmId, channelId, userIds: users.map((u) => u.id) }, seedCount,
          (done) => { if (done % 100_000 === 0 || done === seedCount) log(`  seeded ${done.toLocaleString('en-US')}`); }));
      seed = { ...counts, seconds: (performance.now() - started) / 1000 };
    }

    // --- GET /messages
    const topicNarrow = [{ operator: 'channel', operand: 'bench' }, { operator: 'topic', operand: LARGEST_TOPIC }];
    const searchNarrow = [{ operator: 'channel', operand: 'bench' }, { operator: 'search', operand: SEARCH_WORD }];
    const unreadNarrow = [{ operator: 'is', operand: 'unread' }];
    const getSpec = (narrow: unknown): RequestSpec => ({
      method: 'GET',
      path: '/api/v1/messages?' + new URLSearchParams({ anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify(narrow) }).toString(),
      headers: { authorization: ownerAuth, 'user-agent': 'ParleyBench/1.0' },
    });
    const getLoad = (spec: RequestSpec, total: number) => runLoad({ baseUrl, concurrency: 1, total, clients: [spec] });
    const profiledGets = async (name: string, spec: RequestSpec) => {
      const stopProfile = PROFILE ? await startProfile() : null;
      try {
        return checkLoad(name, await getLoad(spec, GETS));
      } finally {
        if (stopProfile) log(`  CPU profile of the ${name} run: ${await stopProfile(`${name.replace(/\W+/g, '-')}-${kind}`)}`);
      }
    };
    let getTopic: LoadResult | null = null;
    let getSearch: LoadResult | null = null;
    let getUnread: LoadResult | null = null;
    if (GETS > 0) {
      // Sanity: the narrows return what they should.
      const sample = async (narrow: unknown) =>
        (await request(baseUrl, 'GET', '/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow }, ownerAuth)).messages.length;
      log(`  messages returned: topic narrow ${await sample(topicNarrow)}, search ${await sample(searchNarrow)}, unread ${await sample(unreadNarrow)}`);
      getTopic = await timed(phases, `GET /messages channel+topic ×${GETS}`, async () => {
        checkLoad('warm-up', await getLoad(getSpec(topicNarrow), WARMUP_GETS));
        return profiledGets('GET topic', getSpec(topicNarrow));
      });
      getSearch = await timed(phases, `GET /messages channel+search ×${GETS}`, async () => {
        checkLoad('warm-up', await getLoad(getSpec(searchNarrow), WARMUP_GETS));
        return profiledGets('GET search', getSpec(searchNarrow));
      });
      getUnread = await timed(phases, `GET /messages is:unread ×${GETS}`, async () => {
        checkLoad('warm-up', await getLoad(getSpec(unreadNarrow), WARMUP_GETS));
        return profiledGets('GET unread', getSpec(unreadNarrow));
      });
    }

    // --- POST /messages
    const postSpecs: RequestSpec[] = auths.map((authorization) => ({
      method: 'POST',
      path: '/api/v1/messages',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'ParleyBench/1.0' },
      body: new URLSearchParams({ type: 'stream', to: 'bench', topic: 'topic-{t}', content: 'Load message {n}: the quick brown fox jumps over the lazy dog.' })
        .toString().replace(/%7Bn%7D/g, '{n}').replace(/%7Bt%7D/g, '{t}'),
    }));
    const postLoad = (base: string, total: number, concurrency = CONCURRENCY) =>
      runLoad({ baseUrl: base, concurrency, total, maxSeconds: POST_SECONDS, clients: postSpecs });
    const post = MESSAGES === 0 ? null : await timed(phases, `POST /messages ×${MESSAGES} (${CONCURRENCY} clients)`, async () => {
      checkLoad('warm-up', await postLoad(baseUrl, WARMUP_POSTS));
      const stopProfile = PROFILE ? await startProfile() : null;
      try {
        return checkLoad('POST /messages', await postLoad(baseUrl, MESSAGES));
      } finally {
        if (stopProfile) log(`  CPU profile of the POST run: ${await stopProfile(`post-${kind}`)}`);
      }
    });
    if (post && post.count < MESSAGES) log(`  stopped after ${POST_SECONDS} s: ${post.count} messages`);

    // --- Statements per request (node-postgres only)
    let queries: DbResult['queries'] = null;
    if (kind === 'postgres') {
      const n = 20;
      queries = {
        post: post ? await countStatements(n, () => postLoad(baseUrl, n, 1)) : NaN,
        getTopic: GETS > 0 ? await countStatements(n, () => getLoad(getSpec(topicNarrow), n)) : NaN,
        getSearch: GETS > 0 ? await countStatements(n, () => getLoad(getSpec(searchNarrow), n)) : NaN,
        getUnread: GETS > 0 ? await countStatements(n, () => getLoad(getSpec(unreadNarrow), n)) : NaN,
        bare: 0,
      };
    }

    if (smtp) {
      const n = ((await prisma.$queryRawUnsafe(`SELECT count(*)::int AS n FROM "MissedMessageEmail"`)) as { n: number }[])[0]!.n;
      log(`  missed-message e-mails: ${n} messages queued for away recipients, ${smtp.received()} e-mails mailed during the run`);
    }
    await timed(phases, 'stop Parley', async () => { await server!.close(); server = null; });

    // --- The bare limit, on the same database
    const bare = MESSAGES === 0 ? null : await timed(phases, `bare Koa INSERT ×${MESSAGES} (${CONCURRENCY} clients)`, async () => {
      const driver = await openDriver({ url: pgDb?.url, dataDir: pgliteDir ?? undefined });
      const senders = new Map(users.map((u) => [`${u.email}:${u.apiKey}`, u.id]));
      const bareServer = await startBareServer(driver, { realmId, channelId, senders });
      const bareUrl = `http://127.0.0.1:${bareServer.port}`;
      try {
        checkLoad('warm-up', await postLoad(bareUrl, WARMUP_POSTS));
        const result = checkLoad('bare INSERT', await postLoad(bareUrl, MESSAGES));
        if (kind === 'postgres' && queries) queries.bare = await countStatements(20, () => postLoad(bareUrl, 20, 1));
        return result;
      } finally {
        await bareServer.close();
        await driver.close();
      }
    });

    // --- The same POST load through main.ts with one worker, then several (goal 4)
    let workers: WorkersResult | null = null;
    if (kind === 'postgres' && WORKERS > 1 && MESSAGES > 0) {
      if (await redisAnswers(REDIS_URL)) {
        workers = await timed(phases, `POST /messages ×${MESSAGES}: main.ts with PARLEY_WORKERS=1, then ${WORKERS} (Redis)`, () => benchWorkers({
          databaseUrl: pgDb!.url, redisUrl: REDIS_URL, workers: WORKERS, ownerEmail: OWNER_EMAIL, log,
          warmUp: async (base) => checkLoad('warm-up', await postLoad(base, WARMUP_POSTS)),
          load: async (base) => checkLoad('POST /messages (workers)', await postLoad(base, MESSAGES)),
        }));
      } else log(`no Redis at ${REDIS_URL} (BENCH_REDIS_URL): PARLEY_WORKERS not measured`);
    }

    return { kind, label, version, post, bare, workers, seed, getTopic, getSearch, getUnread, queries, phases, load: [loadAtStart, os.loadavg()[0]!] };
  } finally {
    if (server) await (server as ParleyServer).close().catch(() => {});
    await pgDb?.drop().catch((e) => log(`could not drop the database: ${e}`));
    if (removePgliteDir && pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
    await smtp?.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const latency = (r: LoadResult | null) => (r ? `${ms(r.p50)} / ${ms(r.p99)}` : '—');

// Issue 16, goal 3: GET /messages over a million messages on PostgreSQL. The baseline is the last
// run before the work (docs/benchmarks.md, 2026-11-22: 100,000 messages, topic-7 of 50 topics).
const GET_GOAL = { p50: 5, p99: 15, statements: 4, seed: 1_000_000 };
const GET_BASELINE = { topic: [10.1, 17.3, 11], search: [10.6, 18.0, 12], unread: null } as const;

function getGoal(results: DbResult[]): string[] {
  const r = results.find((x) => x.kind === 'postgres');
  if (!r || !r.getTopic || !r.getSearch || !r.getUnread) return [];
  const lines = [
    '', `### Goal: GET /messages at ${int(GET_GOAL.seed)} messages (PostgreSQL): p50 < ${GET_GOAL.p50} ms, p99 < ${GET_GOAL.p99} ms, at most ${GET_GOAL.statements} SQL statements`, '',
    '| Narrow | baseline p50 / p99 (ms) · statements | now p50 / p99 (ms) · statements | goal |', '|---|---:|---:|---|',
  ];
  const seeded = r.seed?.messages ?? 0;
  const narrows: [string, LoadResult, number, readonly [number, number, number] | null][] = [
    ['channel+topic', r.getTopic, r.queries?.getTopic ?? NaN, GET_BASELINE.topic],
    ['channel+search', r.getSearch, r.queries?.getSearch ?? NaN, GET_BASELINE.search],
    ['is:unread', r.getUnread, r.queries?.getUnread ?? NaN, GET_BASELINE.unread],
  ];
  for (const [name, load, statements, base] of narrows) {
    const met = seeded >= GET_GOAL.seed && load.p50 < GET_GOAL.p50 && load.p99 < GET_GOAL.p99 && statements <= GET_GOAL.statements;
    lines.push(`| ${name} | ${base ? `${ms(base[0])} / ${ms(base[1])} · ${base[2]}` : '—'} | ${latency(load)} · ${+statements.toFixed(1)} | **${met ? 'met' : 'not met'}** |`);
  }
  lines.push('', `Baseline: the run of 2026-11-22 (100,000 messages, a topic of 2,000); this run seeded ${int(seeded)}` +
    `${seeded < GET_GOAL.seed ? ' (fewer than the goal\'s million: not met whatever the latencies)' : ''}.`);
  return lines;
}

// Issue 16, goals 1 and 4: POST /messages against the bare INSERT handler measured in the same run,
// and PARLEY_WORKERS=N against one worker in the same run. The earlier ratios are the last run
// before the work (docs/benchmarks.md, 2026-11-22).
const POST_GOAL = { postgres: 50, pglite: 40, workers: 1.7 } as const;
const POST_BASELINE = { postgres: 28.8, pglite: 22.8 } as const;

function postGoals(results: DbResult[]): string[] {
  const lines = [
    '', `### Goals: POST /messages ≥ ${POST_GOAL.postgres}% of the bare INSERT on PostgreSQL, ≥ ${POST_GOAL.pglite}% on PGlite; ${WORKERS} workers ≥ ${POST_GOAL.workers}× one`, '',
    '| | baseline (same run) | now | ratio (before the work) | goal |', '|---|---:|---:|---:|---|',
  ];
  for (const r of results) {
    if (!r.post || !r.bare) continue;
    const ratio = (100 * r.post.perSecond) / r.bare.perSecond;
    const goal = POST_GOAL[r.kind];
    lines.push(`| POST /messages ÷ bare INSERT, ${r.label} | bare: ${int(r.bare.perSecond)} msg/s | ${int(r.post.perSecond)} msg/s | ` +
      `**${ratio.toFixed(1)}%** (${POST_BASELINE[r.kind]}%) | ≥ ${goal}%: **${ratio >= goal ? 'met' : 'not met'}** |`);
  }
  const pg = results.find((r) => r.kind === 'postgres');
  if (pg?.workers) {
    const { one, many, workers } = pg.workers;
    const factor = many.perSecond / one.perSecond;
    lines.push(`| PARLEY_WORKERS=${workers} ÷ PARLEY_WORKERS=1, PostgreSQL + Redis | 1 worker: ${int(one.perSecond)} msg/s · p50 ${ms(one.p50)} ms | ` +
      `${workers} workers: ${int(many.perSecond)} msg/s · p50 ${ms(many.p50)} ms | **${factor.toFixed(2)}×** | ≥ ${POST_GOAL.workers}×: **${factor >= POST_GOAL.workers ? 'met' : 'not met'}** |`);
  } else if (pg?.post) {
    lines.push(`| PARLEY_WORKERS=${WORKERS} ÷ PARLEY_WORKERS=1 | — | — | — | not measured (${WORKERS > 1 ? `no Redis at ${REDIS_URL}` : 'BENCH_WORKERS ≤ 1'}) |`);
  }
  if (pg?.workers?.cpuPerMessage) {
    const cpu = pg.workers.cpuPerMessage;
    const ceiling = cpuCeiling(cpu);
    const total = cpu.parley + cpu.postgres + cpu.redis + cpu.clients;
    const times = ceiling / pg.workers.one.perSecond;
    lines.push('', `CPU per message in the one-worker run: Parley ${ms(cpu.parley)} ms, PostgreSQL ${ms(cpu.postgres)} ms, ` +
      `Redis ${ms(cpu.redis)} ms, load generator ${ms(cpu.clients)} ms (total ${ms(total)} ms). Whatever the number of workers, ` +
      `${os.cpus().length} cores carry at most ${int(ceiling)} msg/s at that cost: **${times.toFixed(2)}×** the one-worker figure` +
      `${times < POST_GOAL.workers ? `, below the ${POST_GOAL.workers}× goal on this machine` : ''}.`);
  }
  lines.push('', `The worker comparison runs \`main.ts\` (a child process, the clients staying in this one) on the same database and ` +
    `clients as above, each after ${WARMUP_POSTS} warm-up requests. The load generator, PostgreSQL and Redis share the ${os.cpus().length} cores with the workers.`);
  return lines;
}

function report(results: DbResult[], totalSeconds: number): string {
  const head = `| | ${results.map((r) => r.label).join(' | ')} |\n|---|${results.map(() => '---:').join('|')}|`;
  const row = (name: string, cell: (r: DbResult) => string) => `| ${name} | ${results.map(cell).join(' | ')} |`;
  const lines = [
    `## Parley benchmark`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'} · Node ${process.version} · ` +
      results.map((r) => r.version).join(' · '),
    '',
    `Clients: node:http with a keep-alive Agent, in a worker thread of the same process. POST: ${CONCURRENCY} concurrent clients, ` +
      `urlencoded bodies, Basic auth, to channel "bench" (${EXTRA_USERS + 1} subscribers), after ${WARMUP_POSTS} warm-up requests. ` +
      `GET: 1 client, anchor=newest, num_before=50, after ${WARMUP_GETS} warm-ups. Latencies in ms, percentiles over all samples.` +
      (results.some((r) => r.kind === 'pglite') && SEED_PGLITE !== SEED
        ? ` PGlite is seeded with ${int(SEED_PGLITE)} messages, PostgreSQL with ${int(SEED)}: PGlite runs in this process, on one core, and would take minutes to seed a million.`
        : ''),
    '',
    head,
    row('POST /messages: messages sent', (r) => (r.post ? int(r.post.count) : '—')),
    row('POST /messages: throughput (msg/s)', (r) => (r.post ? int(r.post.perSecond) : '—')),
    row('POST /messages: p50 / p99 (ms)', (r) => latency(r.post)),
    row('Bare Koa + one INSERT: requests', (r) => (r.bare ? int(r.bare.count) : '—')),
    row('Bare Koa + one INSERT: throughput (msg/s)', (r) => (r.bare ? int(r.bare.perSecond) : '—')),
    row('Bare Koa + one INSERT: p50 / p99 (ms)', (r) => latency(r.bare)),
    row('Server thread busy during POST / bare (event-loop utilisation)', (r) => (r.post && r.bare
      ? `${(100 * r.post.mainThreadBusy).toFixed(0)}% / ${(100 * r.bare.mainThreadBusy).toFixed(0)}%` : '—')),
    row('**POST /messages ÷ bare limit**', (r) => (r.post && r.bare ? `**${((100 * r.post.perSecond) / r.bare.perSecond).toFixed(1)}%**` : '—')),
    row('Seeded messages (UserMessage rows)', (r) => (r.seed ? `${int(r.seed.messages)} (${int(r.seed.userMessages)})` : '—')),
    row('Seeding time (s)', (r) => (r.seed ? (r.seed.reused ? `reused (BENCH_PG_DB)` : r.seed.seconds.toFixed(1)) : '—')),
    row(`GET channel+topic narrow ("${LARGEST_TOPIC}", 1 message in 10): p50 / p99 (ms)`, (r) => latency(r.getTopic)),
    row(`GET channel+search "${SEARCH_WORD}" (1 message in 100): p50 / p99 (ms)`, (r) => latency(r.getSearch)),
    row('GET is:unread (1 message in 20): p50 / p99 (ms)', (r) => latency(r.getUnread)),
  ];
  if (results.some((r) => r.queries)) {
    lines.push(
      row('SQL statements per POST /messages', (r) => (r.queries && r.post ? String(+r.queries.post.toFixed(1)) : '—')),
      row('SQL statements per GET (topic / search / unread)', (r) => (r.queries && !Number.isNaN(r.queries.getTopic)
        ? `${+r.queries.getTopic.toFixed(1)} / ${+r.queries.getSearch.toFixed(1)} / ${+r.queries.getUnread.toFixed(1)}` : '—')),
      row('SQL statements per bare request', (r) => (r.queries && r.bare ? String(+r.queries.bare.toFixed(1)) : '—')),
    );
  }
  if (results.some((r) => r.post)) lines.push(...postGoals(results));
  lines.push(...getGoal(results));
  lines.push('', '### Where the time went', '', `| Phase | ${results.map((r) => r.label + ' (s)').join(' | ')} |`, `|---|${results.map(() => '---:').join('|')}|`);
  const names = [...new Set(results.flatMap((r) => r.phases.map(([n]) => n)))];
  for (const name of names) {
    lines.push(`| ${name} | ${results.map((r) => { const p = r.phases.find(([n]) => n === name); return p ? p[1].toFixed(1) : '—'; }).join(' | ')} |`);
  }
  lines.push(`| 1-min load average at start → end | ${results.map((r) => `${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)}`).join(' | ')} |`);
  lines.push(`| **total** | ${results.map((r) => r.phases.reduce((a, [, s]) => a + s, 0).toFixed(1)).join(' | ')} |`);
  lines.push('', `Whole run: ${totalSeconds.toFixed(1)} s.`);
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

const ONLY = (env.BENCH_ONLY ?? '').toLowerCase();
if (ONLY && ONLY !== 'events') throw new Error('BENCH_ONLY must be events (or unset)');
if (ONLY !== 'events') {
  const started = performance.now();
  const kinds: Kind[] = DB_CHOICE === 'both' ? ['pglite', 'postgres'] : [DB_CHOICE as Kind];
  const results: DbResult[] = [];
  for (const kind of kinds) results.push(await benchDatabase(kind));
  const markdown = report(results, (performance.now() - started) / 1000);
  console.log(markdown);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'latest.md'), markdown);
  log(`written to ${join('bench', 'results', 'latest.md')}`);
}
if (ONLY === 'events' || env.BENCH_EVENTS === '1') {
  const { runEventsBench } = await import('./events.ts');
  await runEventsBench();
}
process.exit(0);
