// `npx tsx bench/events.ts` (or `BENCH_ONLY=events npm run bench`, or `BENCH_EVENTS=1 npm run bench` after
// the message benchmark): what Parley's event system costs per client and how fast it fans out.
//
// The server runs in a child process (bench/events-server.ts; a fresh one per measurement, on one
// database), so its RSS is its own and the clients here get the other core; every server process
// gets the Node flags of package.json's start script, as `npm start` gives them. In order:
//   1. idle long-poll queues: register BENCH_IDLE_QUEUES queues (event_types=["message"]) for
//      BENCH_IDLE_USERS users, then open a long-poll (GET /events, dont_block=false) on each;
//      RSS after registering and after opening the polls
//   2. graphql-ws subscribers: BENCH_WS_SUBSCRIBERS queues, each streamed by a queueEvents
//      subscription; once with one WebSocket per subscription, once with BENCH_WS_MUX subscriptions
//      per WebSocket (one connection per user: a connection authenticates as one user)
//   3. fan-out: a channel with BENCH_FANOUT subscribers, each with one queue and a live long-poll that
//      re-polls with last_event_id; BENCH_FANOUT_MESSAGES messages, one after another (the next once
//      the previous reached everyone, plus BENCH_FANOUT_GAP_MS); latency from the POST's start to
//      each recipient's poll response. The same over graphql-ws subscriptions, and, as the limit,
//      through a bare EventEmitter with as many listeners and payloads of the same size.
//   4. with Redis support in the server (REDIS_URL): two `main.ts` processes on one database and one
//      Redis; queues and polls on process A, messages sent through process B.
//
// Environment: BENCH_DB=postgres|pglite (postgres; "both" means postgres here), BENCH_PG_URL,
// BENCH_IDLE_QUEUES (10000), BENCH_IDLE_USERS (100), BENCH_IDLE_POLLS (all queues, capped by the
// file-descriptor limit), BENCH_REGISTER_CONCURRENCY (16), BENCH_WS_SUBSCRIBERS (2000), BENCH_WS_MUX
// (20; 0 skips the multiplexed run), BENCH_FANOUT (1000), BENCH_FANOUT_MESSAGES (50),
// BENCH_FANOUT_GAP_MS (100), BENCH_FANOUT_POLL (1; 0 skips the REST long-poll fan-out), BENCH_FANOUT_WS (1),
// BENCH_WS_TRACE (0; 1: the server notes when each graphql-ws frame or long-poll answer of the fan-out is handed to its
// socket and written, to tell the server's share of the latency from the client's), BENCH_REDIS_URL (redis://127.0.0.1:6379),
// BENCH_REDIS_FANOUT (BENCH_FANOUT), BENCH_REDIS_MESSAGES (BENCH_FANOUT_MESSAGES), BENCH_HEARTBEAT_SECS
// (50), BENCH_PROFILE (1: CPU-profile the server during the long-poll fan-out), BENCH_PROFILE_WS (0; 1:
// during the graphql-ws fan-out too; BENCH_PROFILE_SAVE=<path prefix> keeps each whole profile), BENCH_MEMORY_QUEUES
// (20000) and BENCH_MEMORY_WS (5000): issue 16's goal 5, that many idle queues and graphql-ws
// subscribers in one server (0 skips it).
//
// The report ends with issue 16's goals (fan-out latency, memory), each beside the baseline measured
// in the same run, and whether it is met.
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import net from 'node:net';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { basicAuth, percentile } from './load.ts';
import { createScratchDatabase } from '../prisma/scratch-database.ts';
import { env, intEnv, serverNodeFlags } from './env.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

const DB_KIND = (env.BENCH_DB ?? 'postgres').toLowerCase() === 'pglite' ? 'pglite' : 'postgres';
const PG_BASE = env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const REDIS_URL = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IDLE_QUEUES = intEnv('BENCH_IDLE_QUEUES', 10_000);
const IDLE_USERS = Math.max(1, intEnv('BENCH_IDLE_USERS', 100));
const REGISTER_CONCURRENCY = Math.max(1, intEnv('BENCH_REGISTER_CONCURRENCY', 16));
const WS_SUBSCRIBERS = intEnv('BENCH_WS_SUBSCRIBERS', 2000);
const WS_MUX = intEnv('BENCH_WS_MUX', 20);
const FANOUT = intEnv('BENCH_FANOUT', 1000);
const FANOUT_MESSAGES = intEnv('BENCH_FANOUT_MESSAGES', 50);
const FANOUT_GAP_MS = intEnv('BENCH_FANOUT_GAP_MS', 100);
const FANOUT_POLL = intEnv('BENCH_FANOUT_POLL', 1) > 0;
const FANOUT_WS = intEnv('BENCH_FANOUT_WS', 1) > 0;
const WS_TRACE = env.BENCH_WS_TRACE === '1';
const REDIS_FANOUT = intEnv('BENCH_REDIS_FANOUT', FANOUT);
const REDIS_MESSAGES = intEnv('BENCH_REDIS_MESSAGES', FANOUT_MESSAGES);
const HEARTBEAT_SECS = Math.max(1, intEnv('BENCH_HEARTBEAT_SECS', 50));
const PROFILE = intEnv('BENCH_PROFILE', 1) > 0;
const PROFILE_WS = intEnv('BENCH_PROFILE_WS', 0) > 0;
const MEMORY_QUEUES = intEnv('BENCH_MEMORY_QUEUES', 20_000);
const MEMORY_WS = intEnv('BENCH_MEMORY_WS', 5000);
/** Issue 16's goals: p99 send → delivery (ms) per transport, and the server's RSS (bytes) for goal 5. */
const GOALS = { poll: 100, ws: 50, redis: 150, rss: 2 * 1024 ** 3 };
const WARMUP_MESSAGES = 2;
/** Extra fan-out messages sent while the server's CPU profile is taken (not in the latency figures). */
const PROFILE_MESSAGES = Math.min(20, FANOUT_MESSAGES);
/** Sockets and files a process needs besides the benchmark's connections (database pool, stdio, Redis, spare). */
const FD_RESERVE = 300;
const RAMP_CHUNK = 500;

const OWNER_EMAIL = 'owner@bench.example.com';
const OWNER_PASSWORD = 'bench owner password';
const CHANNEL = 'fanout';

const log = (line: string) => console.error(`[bench events] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
const MiB = (bytes: number) => bytes / (1024 * 1024);

// ---------------------------------------------------------------------------------------------
// Limits of this machine

/** The soft limit on open files, as `ulimit -n` shows it (Node cannot raise it). */
function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft && soft !== 'unlimited') return Number(soft);
    if (soft === 'unlimited') return Infinity;
  } catch { /* not Linux */ }
  return 1024;
}

function readSysctl(path: string): string {
  try { return readFileSync(path, 'utf8').trim().replace(/\s+/g, '–'); } catch { return '?'; }
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface Credentials { id: number; email: string; apiKey: string; auth: string }

function encodeParams(params: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
}

interface HttpAnswer { status: number; body: any; text: string; ms: number; end: number }

function httpRequest(agent: http.Agent, baseUrl: string, method: string, path: string, params: Record<string, unknown>, auth?: string): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'user-agent': 'ParleyBench/1.0' };
  if (auth) headers.authorization = auth;
  const form = encodeParams(params);
  let url = `${baseUrl}/api/v1${path}`;
  let body: Buffer | undefined;
  if (method === 'GET' || method === 'DELETE') url += form ? `?${form}` : '';
  else {
    body = Buffer.from(form);
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(body.length);
  }
  const started = now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const end = now();
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: any = null;
        try { parsed = JSON.parse(text); } catch { /* reported below */ }
        resolve({ status: res.statusCode ?? 0, body: parsed, text, ms: end - started, end });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

const setupAgent = new http.Agent({ keepAlive: false });

async function api(baseUrl: string, method: string, path: string, params: Record<string, unknown>, auth?: string, agent = setupAgent): Promise<any> {
  const answer = await httpRequest(agent, baseUrl, method, path, params, auth);
  if (answer.status !== 200 || answer.body?.result !== 'success') throw new Error(`${method} ${path}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body;
}

// ---------------------------------------------------------------------------------------------
// The server under test, in a child process

interface ServerStats { rss: number; heapUsed: number; external: number; queues: number; waiting: number; connections: number; busy: number; cpuMs: number }

interface ChildServer {
  pid: number;
  baseUrl: string;
  call<T = unknown>(cmd: string, extra?: Record<string, unknown>): Promise<T>;
  stats(): Promise<ServerStats>;
  /** Stats after a full garbage collection. */
  settled(): Promise<ServerStats>;
  sql<T = any>(sql: string, ...params: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

function stopChild(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode != null || child.signalCode != null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); }, ms);
    child.once('exit', () => { clearTimeout(timer); children.delete(child); resolve(); });
  });
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid: number): number {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

async function startServer(config: Record<string, unknown>): Promise<ChildServer> {
  const child = fork(join(here, 'events-server.ts'), [], {
    cwd: root,
    execArgv: [...serverNodeFlags(), '--expose-gc', '--import', 'tsx'],
    env: { ...process.env, BENCH_SERVER_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: any) => {
      if (message.ready) { resolve(message.ready); return; }
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(`server: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      children.delete(child);
      const error = new Error(`server process exited (${code ?? signal})`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    });
  });
  const call = <T>(cmd: string, extra: Record<string, unknown> = {}) => new Promise<T>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    child.send({ id, cmd, ...extra });
  });
  return {
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    call,
    stats: () => call<ServerStats>('stats'),
    settled: () => call<ServerStats>('gc'),
    sql: (sql, ...params) => call('sql', { sql, params }),
    stop: async () => {
      const exited = stopChild(child, 30_000);
      await call('stop').catch(() => {});
      await exited;
    },
  };
}

/** Waits until `ready()` holds (polled every 100 ms) or `ms` pass; says whether it held. */
async function waitUntil(ready: () => Promise<boolean> | boolean, ms: number, every = 100): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await ready()) return true;
    if (Date.now() > deadline) return false;
    await sleep(every);
  }
}

// ---------------------------------------------------------------------------------------------
// Database and users

function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  return createScratchDatabase(PG_BASE, 'parley_bench_events');
}

/**
 * The owner, a template user made through the API (for its system-group memberships), channel
 * CHANNEL, and `count` users made with bulk SQL; the first `subscribers` of them subscribe to CHANNEL.
 */
async function setupUsers(server: ChildServer, count: number, subscribers: number): Promise<{ owner: Credentials; users: Credentials[] }> {
  const base = server.baseUrl;
  const key = await api(base, 'POST', '/fetch_api_key', { username: OWNER_EMAIL, password: OWNER_PASSWORD });
  const owner: Credentials = { id: key.user_id, email: key.email, apiKey: key.api_key, auth: basicAuth(key.email, key.api_key) };
  const template = await api(base, 'POST', '/users', { email: 'template@bench.example.com', password: 'bench template password', full_name: 'Bench Template' }, owner.auth);
  await api(base, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }] }, owner.auth);
  const { realmId } = (await server.sql<{ realmId: number }>(`SELECT "realmId" FROM "User" WHERE id = $1`, owner.id))[0]!;
  const { channelId } = (await server.sql<{ channelId: number }>(`SELECT id AS "channelId" FROM "Channel" WHERE name = $1 AND "realmId" = $2`, CHANNEL, realmId))[0]!;
  await server.sql(`
    INSERT INTO "User" ("realmId", "email", "deliveryEmail", "fullName", "role", "apiKey")
    SELECT $1::int, 'bench' || g || '@bench.example.com', 'bench' || g || '@bench.example.com', 'Bench User ' || g, 400,
           md5('parley-bench-' || g || '-' || random()::text)
    FROM generate_series(1, $2::int) g`, realmId, count);
  await server.sql(`
    INSERT INTO "UserGroupMember" ("groupId", "userId")
    SELECT m."groupId", u.id FROM "UserGroupMember" m CROSS JOIN "User" u
    WHERE m."userId" = $1 AND u.email LIKE 'bench%@bench.example.com' ON CONFLICT DO NOTHING`, template.user_id);
  await server.sql(`
    INSERT INTO "Subscription" ("userId", "channelId")
    SELECT id, $1::int FROM "User" WHERE email LIKE 'bench%@bench.example.com' ORDER BY id LIMIT $2::int`, channelId, subscribers);
  const rows = await server.sql<{ id: number; email: string; apiKey: string }>(
    `SELECT id, email, "apiKey" FROM "User" WHERE email LIKE 'bench%@bench.example.com' ORDER BY id`);
  return { owner, users: rows.map((r) => ({ id: r.id, email: r.email, apiKey: r.apiKey, auth: basicAuth(r.email, r.apiKey) })) };
}

// ---------------------------------------------------------------------------------------------
// Queues, long-polls and subscriptions

interface Queue { queueId: string; lastEventId: number; user: Credentials }

interface Registration { queues: Queue[]; seconds: number; p50: number; p99: number }

/** Registers one queue per entry of `owners` (event_types=["message"]), `concurrency` at a time. */
async function registerQueues(baseUrl: string, owners: Credentials[], concurrency = REGISTER_CONCURRENCY): Promise<Registration> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const queues: Queue[] = new Array(owners.length);
  const latencies: number[] = [];
  let next = 0;
  const started = now();
  const step = Math.max(1000, Math.ceil(owners.length / 5 / 1000) * 1000);
  const worker = async () => {
    while (next < owners.length) {
      const i = next++;
      const user = owners[i]!;
      const answer = await httpRequest(agent, baseUrl, 'POST', '/register', { event_types: ['message'] }, user.auth);
      if (answer.status !== 200 || answer.body?.result !== 'success') throw new Error(`POST /register: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
      latencies.push(answer.ms);
      queues[i] = { queueId: answer.body.queue_id, lastEventId: answer.body.last_event_id, user };
      if ((i + 1) % step === 0) log(`  registered ${(i + 1).toLocaleString('en-US')}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, owners.length) }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = (now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { queues, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** `bytes`: the answer's size, or NaN where it was not measured. */
type EventsHandler = (events: any[], end: number, bytes: number) => void;

/** Long-polls over one keep-alive agent: each queue has one GET /events open, re-polled as soon as it answers. */
class Poller {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  private stopped = false;
  /** Queues answered in this turn of the event loop, polled again once its other answers are read. */
  private again: Queue[] = [];
  responses = 0;
  errors = 0;
  firstError: string | null = null;

  constructor(private readonly baseUrl: string, private readonly onEvents: EventsHandler = () => {}) {}

  start(queue: Queue): void {
    if (this.stopped) return;
    const path = `/api/v1/events?queue_id=${encodeURIComponent(queue.queueId)}&last_event_id=${queue.lastEventId}&dont_block=false`;
    const req = http.request(`${this.baseUrl}${path}`, {
      method: 'GET', agent: this.agent, headers: { authorization: queue.user.auth, 'user-agent': 'ParleyBench/1.0' },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const end = now();
        if (this.stopped) return;
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = null;
        try { body = JSON.parse(text); } catch { /* below */ }
        if (res.statusCode !== 200 || body?.result !== 'success') {
          this.fail(`HTTP ${res.statusCode} ${text.slice(0, 200)}`);
          return; // a queue the server no longer knows is not polled again
        }
        this.responses++;
        const events = body.events as { id: number; type: string }[];
        for (const event of events) if (event.id > queue.lastEventId) queue.lastEventId = event.id;
        this.onEvents(events, end, Buffer.byteLength(text));
        this.pollAgain(queue);
      });
      res.on('error', () => {});
    });
    req.on('error', (error) => {
      if (this.stopped) return;
      this.fail(String(error));
      setTimeout(() => this.start(queue), 500);
    });
    req.end();
  }

  /**
   * Each client re-polls at once, but this one process plays a thousand clients: their next
   * requests leave after every answer that arrived in this turn is read and timed, so one client's
   * delivery is not timed after the others' next requests were built and written.
   */
  private pollAgain(queue: Queue): void {
    if (!this.again.length) setImmediate(() => this.startAgain());
    this.again.push(queue);
  }

  private startAgain(): void {
    const queues = this.again;
    this.again = [];
    for (const queue of queues) this.start(queue);
  }

  private fail(message: string): void {
    this.errors++;
    this.firstError ??= message;
  }

  stop(): void {
    this.stopped = true;
    this.agent.destroy();
  }
}

/** One graphql-ws result in this many has its size measured (for "bytes per delivered event"). */
const SIZE_SAMPLE = 50;

const SUBSCRIBE = 'subscription($q: String!, $last: Int) { queueEvents(queueId: $q, lastEventId: $last) }';

/** graphql-ws connections, each streaming some queues of one user. */
class Subscribers {
  readonly clients: Client[] = [];
  private received = 0;
  errors = 0;
  firstError: string | null = null;
  private stopped = false;

  constructor(private readonly baseUrl: string, private readonly onEvent: EventsHandler = () => {}) {}

  /** One connection for `queues` (all of one user). */
  open(queues: Queue[]): void {
    const client = createClient({
      url: this.baseUrl.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: queues[0]!.user.auth },
      lazy: true,
      retryAttempts: 0,
      keepAlive: 0,
    });
    this.clients.push(client);
    for (const queue of queues) {
      client.subscribe({ query: SUBSCRIBE, variables: { q: queue.queueId, last: queue.lastEventId } }, {
        next: (result) => {
          const end = now();
          if (result.errors) { this.fail(JSON.stringify(result.errors).slice(0, 200)); return; }
          const event = (result.data as any).queueEvents;
          queue.lastEventId = event.id;
          // The size is sampled: serializing every result again would add to the client's own
          // work, which shares the latency figure with the server's (each result is still parsed).
          this.onEvent([event], end, this.received++ % SIZE_SAMPLE === 0 ? JSON.stringify(result).length : NaN);
        },
        error: (error) => { if (!this.stopped) this.fail(String((error as Error)?.message ?? JSON.stringify(error)).slice(0, 200)); },
        complete: () => {},
      });
    }
  }

  private fail(message: string): void {
    this.errors++;
    this.firstError ??= message;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.clients.map((c) => c.dispose()));
  }
}

/**
 * Starts `total` waits (polls or subscriptions) in chunks, each chunk once the server reports the
 * previous ones waiting: thousands of connections at once would overflow the listen backlog.
 */
async function rampUp(server: ChildServer, total: number, start: (from: number, to: number) => void, label: string): Promise<{ waiting: number; seconds: number }> {
  const started = now();
  const base = (await server.stats()).waiting;
  let waiting = base;
  for (let from = 0; from < total; from += RAMP_CHUNK) {
    const to = Math.min(total, from + RAMP_CHUNK);
    start(from, to);
    const held = await waitUntil(async () => { waiting = (await server.stats()).waiting; return waiting - base >= to; }, 30_000);
    if (!held) log(`  ${label}: only ${waiting - base} of ${to} waiting after 30 s; going on`);
    if (to % Math.max(RAMP_CHUNK, Math.ceil(total / 5 / RAMP_CHUNK) * RAMP_CHUNK) === 0 || to === total) log(`  ${label}: ${to.toLocaleString('en-US')} waiting`);
  }
  return { waiting: waiting - base, seconds: (now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Measurements

/** Server stats along a holding measurement (all after a full GC). */
interface Memory {
  /** Warmed up: WARM_QUEUES queues registered and waited on, so first-use allocations are not counted. */
  base: ServerStats;
  /** With the queues registered. */
  queues: ServerStats;
  /** With the queues waited on (long-polls or subscriptions). */
  held: ServerStats;
  /** The clients gone, the queues still registered. */
  released: ServerStats;
  /** Every queue deleted. */
  dropped: ServerStats;
}

/** Queues registered and waited on before the baseline is taken. */
const WARM_QUEUES = 200;
/** How long the server gets to notice that waiting clients have gone. */
const LINGER_MS = 5000;

/**
 * One server; WARM_QUEUES queues waited on, then the baseline; `count` queues registered, then
 * `count` waits opened by `open`; stats at each step (see Memory).
 */
async function holdQueues(
  config: Record<string, unknown>, owners: (k: number) => Credentials, count: number, waits: number, label: string,
  holder: (server: ChildServer) => { open: (queues: Queue[], from: number, to: number) => void; stop: () => Promise<void> | void },
): Promise<{ registration: Registration; openSeconds: number; waiting: number; lingering: number; memory: Memory }> {
  const server = await startServer(config);
  const warm = holder(server);
  const main = holder(server);
  try {
    const warmQueues = (await registerQueues(server.baseUrl, Array.from({ length: WARM_QUEUES }, (_, k) => owners(k)))).queues;
    await rampUp(server, WARM_QUEUES, (from, to) => warm.open(warmQueues, from, to), `warm-up ${label}`);
    const base = await server.settled();
    const registration = await registerQueues(server.baseUrl, Array.from({ length: count }, (_, k) => owners(k)));
    const queues = await server.settled();
    log(`  ${int(count)} queues: RSS ${MiB(base.rss).toFixed(0)} → ${MiB(queues.rss).toFixed(0)} MiB, heap ${MiB(base.heapUsed).toFixed(0)} → ${MiB(queues.heapUsed).toFixed(0)} MiB`);
    const opened = await rampUp(server, waits, (from, to) => main.open(registration.queues, from, to), label);
    await sleep(500);
    const held = await server.settled();
    log(`  ${int(opened.waiting)} ${label}: RSS ${MiB(held.rss).toFixed(0)} MiB, heap ${MiB(held.heapUsed).toFixed(0)} MiB, ${held.connections} connections`);
    await main.stop();
    await warm.stop();
    // The server should stop waiting on a queue as soon as its client is gone.
    let lingering = 0;
    if (!(await waitUntil(async () => (lingering = (await server.stats()).waiting) === 0, LINGER_MS))) {
      log(`  ${label}: ${lingering} still waiting on the server ${LINGER_MS / 1000} s after their clients left`);
    }
    await sleep(500);
    const released = await server.settled();
    await server.call('dropQueues');
    const dropped = await server.settled();
    log(`  clients gone: heap ${MiB(released.heapUsed).toFixed(0)} MiB; queues deleted: heap ${MiB(dropped.heapUsed).toFixed(0)} MiB`);
    return { registration, openSeconds: opened.seconds, waiting: held.waiting - base.waiting, lingering, memory: { base, queues, held, released, dropped } };
  } finally {
    await main.stop();
    await warm.stop();
    await server.stop();
  }
}

interface IdleResult {
  queues: number;
  users: number;
  polls: number;
  waiting: number;
  registration: Registration;
  openSeconds: number;
  lingering: number;
  memory: Memory;
  pollErrors: number;
}

async function idleQueues(config: Record<string, unknown>, users: Credentials[], count: number, polls: number): Promise<IdleResult> {
  let errors = 0;
  const held = await holdQueues(config, (k) => users[k % users.length]!, count, polls, 'long-polls', (server) => {
    const poller = new Poller(server.baseUrl);
    let stopped = false;
    return {
      open: (queues, from, to) => { for (let i = from; i < to; i++) poller.start(queues[i]!); },
      stop: () => {
        if (stopped) return;
        stopped = true;
        if (poller.errors) log(`  poll errors: ${poller.errors}; first: ${poller.firstError}`);
        errors += poller.errors;
        poller.stop();
      },
    };
  });
  return { queues: count, users: Math.min(users.length, count), polls, ...held, pollErrors: errors };
}

interface WsResult {
  subscribers: number;
  connections: number;
  perConnection: number;
  waiting: number;
  registration: Registration;
  openSeconds: number;
  lingering: number;
  memory: Memory;
  errors: number;
}

async function wsSubscribers(config: Record<string, unknown>, users: Credentials[], count: number, perConnection: number): Promise<WsResult> {
  let errors = 0;
  // Queue k belongs to the user of its connection (a connection authenticates as one user).
  const held = await holdQueues(config, (k) => users[Math.floor(k / perConnection) % users.length]!, count, count, `subscriptions (${perConnection} per connection)`, (server) => {
    const subscribers = new Subscribers(server.baseUrl);
    let stopped = false;
    return {
      open: (queues, from, to) => {
        // Whole connections: ramp chunks are multiples of perConnection except at the end.
        for (let c = Math.ceil(from / perConnection); c < Math.ceil(to / perConnection); c++) {
          subscribers.open(queues.slice(c * perConnection, Math.min(queues.length, (c + 1) * perConnection)));
        }
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        if (subscribers.errors) log(`  subscription errors: ${subscribers.errors}; first: ${subscribers.firstError}`);
        errors += subscribers.errors;
        await subscribers.stop();
      },
    };
  });
  return { subscribers: count, connections: Math.ceil(count / perConnection), perConnection, ...held, errors };
}

interface MemoryGoalResult {
  queues: number;
  subscribers: number;
  waiting: number;
  base: ServerStats;
  held: ServerStats;
  seconds: number;
  errors: number;
}

/**
 * Goal 5: one server holding `queues` idle queues (registered, never polled) and `subscribers`
 * graphql-ws subscribers (a queue and a WebSocket each); RSS after a full GC, beside the empty server's.
 */
async function memoryGoal(config: Record<string, unknown>, users: Credentials[], queues: number, subscribers: number): Promise<MemoryGoalResult> {
  const started = now();
  const server = await startServer(config);
  const subs = new Subscribers(server.baseUrl);
  try {
    const base = await server.settled();
    await registerQueues(server.baseUrl, Array.from({ length: queues }, (_, k) => users[k % users.length]!));
    const streamed = (await registerQueues(server.baseUrl, Array.from({ length: subscribers }, (_, k) => users[k % users.length]!))).queues;
    const opened = await rampUp(server, subscribers, (from, to) => { for (let i = from; i < to; i++) subs.open([streamed[i]!]); }, 'subscriptions');
    await sleep(500);
    const held = await server.settled();
    log(`  ${int(queues)} idle queues + ${int(opened.waiting)} subscribers: RSS ${MiB(base.rss).toFixed(0)} → ${MiB(held.rss).toFixed(0)} MiB`);
    return { queues, subscribers, waiting: opened.waiting, base, held, seconds: (now() - started) / 1000, errors: subs.errors };
  } finally {
    await subs.stop();
    await server.stop();
  }
}

interface FanoutResult {
  label: string;
  recipients: number;
  messages: number;
  expected: number;
  delivered: number;
  p50: number;
  p99: number;
  mean: number;
  lastP50: number;
  lastP99: number;
  perSecond: number;
  postP50: number;
  bytesPerEvent: number;
  serverBusy: number | null;
  /** The server process's CPU time (user + system) per measured message, its POST included. */
  serverCpuPerMessage?: number;
  errors: number;
  firstError: string | null;
  profile?: ProfileSummary;
  /** The benchmark process's event-loop utilisation over the measured messages (gaps included). */
  clientBusy?: number;
  /** CPU (user + system) of each process in `cpuPids` over the measured messages, per delivery (µs). */
  cpuPerDelivery?: number[];
  /** With BENCH_WS_TRACE: the server's own times, from the POST's start (ms, p50 / p99). */
  trace?: { publishing: [number, number]; published: [number, number]; sent: [number, number]; written: [number, number]; lastSent: [number, number] };
}

/** Per fan-out message, the server's times (absolute ms) for it: see events-server.ts `trace`. */
interface ServerTrace { publishing: [number, number][]; published: [number, number][]; sent: [number, number][]; written: [number, number][] }

/** p50 and p99 of each traced time minus its message's send start. */
function traceFigures(trace: ServerTrace, sendStart: Float64Array): NonNullable<FanoutResult['trace']> {
  const origin = performance.timeOrigin;
  const since = (rows: [number, number][]) => rows.filter(([k]) => k < sendStart.length).map(([k, t]) => t - origin - sendStart[k]!).sort((a, b) => a - b);
  const both = (xs: number[]): [number, number] => [percentile(xs, 50), percentile(xs, 99)];
  const last = new Map<number, number>();
  for (const [k, t] of trace.sent) last.set(k, Math.max(last.get(k) ?? 0, t));
  return {
    publishing: both(since(trace.publishing)), published: both(since(trace.published)), sent: both(since(trace.sent)), written: both(since(trace.written)),
    lastSent: both(since([...last])),
  };
}

interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  self: { name: string; ms: number }[];
  inclusiveProject: { name: string; ms: number }[];
  areas: { name: string; ms: number }[];
}

const FANOUT_TEXT = (k: number | string) => `fanout ${k}: the quick brown fox jumps over the lazy dog, and the slow red hen watches the whole thing.`;

/**
 * One queue per recipient on `recvUrl` (long-polls or graphql-ws subscriptions), messages sent to
 * CHANNEL through `sendUrl`, one at a time; latency from each POST's start to each delivery.
 */
async function fanout(options: {
  label: string; transport: 'poll' | 'ws'; recvUrl: string; sendUrl: string; owner: Credentials; recipients: Credentials[];
  messages: number; server?: ChildServer; profile?: boolean;
  /** Processes whose CPU to report per delivery (the two `main.ts` of the Redis run). */
  cpuPids?: number[];
}): Promise<FanoutResult> {
  const { recipients, messages } = options;
  const R = recipients.length;
  const sendStart = new Float64Array(messages);
  const counts = new Int32Array(messages);
  const lastDelivery = new Float64Array(messages);
  const latencies: number[] = [];
  /** Deliveries of the unmeasured messages (warm-up, profiling), by tag. */
  const tagged = new Map<string, number>();
  let bytes = 0;
  let bytesEvents = 0;
  const onEvents: EventsHandler = (events, end, size) => {
    let messageEvents = 0;
    for (const event of events) {
      if (event.type !== 'message') continue;
      messageEvents++;
      const match = /^fanout (\S+):/.exec(event.message?.content ?? '');
      if (!match) continue;
      if (!/^\d+$/.test(match[1]!)) { tagged.set(match[1]!, (tagged.get(match[1]!) ?? 0) + 1); continue; }
      const k = Number(match[1]);
      counts[k]!++;
      lastDelivery[k] = Math.max(lastDelivery[k]!, end);
      latencies.push(end - sendStart[k]!);
    }
    if (messageEvents && !Number.isNaN(size)) { bytes += size; bytesEvents += messageEvents; }
  };
  const registration = await registerQueues(options.recvUrl, recipients);
  log(`  ${R} queues registered in ${registration.seconds.toFixed(1)} s`);
  const poller = options.transport === 'poll' ? new Poller(options.recvUrl, onEvents) : null;
  const subscribers = options.transport === 'ws' ? new Subscribers(options.recvUrl, onEvents) : null;
  const open = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      if (poller) poller.start(registration.queues[i]!);
      else subscribers!.open([registration.queues[i]!]);
    }
  };
  const sendAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (content: string) => httpRequest(sendAgent, options.sendUrl, 'POST', '/messages', { type: 'stream', to: CHANNEL, topic: 'fan-out', content }, options.owner.auth);
  try {
    if (options.server) await rampUp(options.server, R, open, options.transport === 'poll' ? 'long-polls' : 'subscriptions');
    else { open(0, R); await sleep(2000); }
    /** Unmeasured messages, each sent once the previous one reached everyone. */
    const unmeasured = async (tag: string, count: number) => {
      for (let w = 1; w <= count; w++) {
        const answer = await send(FANOUT_TEXT(tag));
        if (answer.status !== 200) throw new Error(`POST /messages: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
        if (!(await waitUntil(() => (tagged.get(tag) ?? 0) >= w * R, 60_000, 5))) log(`  ${tag} ${w}: ${(tagged.get(tag) ?? 0) - (w - 1) * R} of ${R} recipients`);
        await sleep(FANOUT_GAP_MS);
      }
    };
    // Warm-up messages, which also show that every recipient is listening.
    await unmeasured('warmup', WARMUP_MESSAGES);
    bytes = 0;
    bytesEvents = 0;
    await sleep(FANOUT_GAP_MS);
    const before = options.server ? await options.server.stats() : null;
    const traced = WS_TRACE && options.server;
    if (traced) await options.server!.call('traceTake');
    const clientMark = performance.eventLoopUtilization();
    const cpuBefore = (options.cpuPids ?? []).map(processCpuMs);
    const postLatencies: number[] = [];
    let errors = 0;
    let firstError: string | null = null;
    for (let k = 0; k < messages; k++) {
      sendStart[k] = now();
      const answer = await send(FANOUT_TEXT(k));
      postLatencies.push(answer.ms);
      if (answer.status !== 200) { errors++; firstError ??= `POST /messages: HTTP ${answer.status} ${answer.text.slice(0, 200)}`; continue; }
      if (!(await waitUntil(() => counts[k]! >= R, 30_000, 5))) log(`  message ${k}: ${counts[k]} of ${R} delivered after 30 s`);
      await sleep(FANOUT_GAP_MS);
    }
    const clientBusy = performance.eventLoopUtilization(clientMark).utilization;
    const cpuSpent = (options.cpuPids ?? []).map((pid, i) => processCpuMs(pid) - cpuBefore[i]!);
    const after = options.server ? await options.server.stats() : null;
    const trace = traced ? traceFigures(await options.server!.call<ServerTrace>('traceTake'), sendStart) : undefined;
    // The profiler slows the server down: it samples extra messages, outside the figures above.
    let profile: ProfileSummary | undefined;
    if (options.profile && options.server) {
      await options.server.call('profileStart');
      await unmeasured('profile', PROFILE_MESSAGES);
      profile = await options.server.call<ProfileSummary>('profileStop', { top: 15 });
    }
    latencies.sort((a, b) => a - b);
    postLatencies.sort((a, b) => a - b);
    const windows = Array.from({ length: messages }, (_, k) => (counts[k]! ? lastDelivery[k]! - sendStart[k]! : NaN)).filter((x) => !Number.isNaN(x));
    const sortedWindows = [...windows].sort((a, b) => a - b);
    const delivered = latencies.length;
    const transportErrors = (poller?.errors ?? 0) + (subscribers?.errors ?? 0);
    return {
      label: options.label,
      recipients: R,
      messages,
      expected: R * messages,
      delivered,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      mean: latencies.reduce((a, b) => a + b, 0) / (delivered || 1),
      lastP50: percentile(sortedWindows, 50),
      lastP99: percentile(sortedWindows, 99),
      perSecond: delivered / (windows.reduce((a, b) => a + b, 0) / 1000),
      postP50: percentile(postLatencies, 50),
      bytesPerEvent: bytesEvents ? bytes / bytesEvents : NaN,
      // ELU over the whole measured stretch, pauses between messages included.
      serverBusy: before && after ? after.busy : null,
      serverCpuPerMessage: before && after ? (after.cpuMs - before.cpuMs) / messages : undefined,
      errors: errors + transportErrors,
      firstError: firstError ?? poller?.firstError ?? subscribers?.firstError ?? null,
      profile,
      clientBusy,
      cpuPerDelivery: latencies.length ? cpuSpent.map((spent) => (1000 * spent) / latencies.length) : undefined,
      trace,
    };
  } finally {
    poller?.stop();
    await subscribers?.stop();
    sendAgent.destroy();
  }
}

/**
 * The limit: one EventEmitter, `listeners` listeners, `messages` emits of a JSON payload of
 * `payloadBytes`; latency from just before emit() to each listener. With `serialise`, each listener
 * JSON.stringify()s the event object instead (what a server does per recipient at the least).
 */
async function bareEmitter(listeners: number, messages: number, payloadBytes: number, serialise: boolean): Promise<FanoutResult> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const latencies: number[] = [];
  let sink = 0;
  for (let i = 0; i < listeners; i++) {
    emitter.on('event', (payload: string | object, t0: number) => {
      sink += serialise ? JSON.stringify(payload).length : (payload as string).length;
      latencies.push(now() - t0);
    });
  }
  const event = { type: 'message', message: { id: 1, content: FANOUT_TEXT(0), pad: '' }, flags: [], id: 0 };
  const envelope = { result: 'success', msg: '', events: [event], queue_id: '1a2b3c:abcdefghijkl' };
  event.message.pad = 'x'.repeat(Math.max(0, payloadBytes - JSON.stringify(envelope).length));
  const windows: number[] = [];
  for (let k = 0; k < messages + WARMUP_MESSAGES; k++) {
    const payload = serialise ? envelope : JSON.stringify(envelope);
    if (k === WARMUP_MESSAGES) latencies.length = 0;
    const t0 = now();
    emitter.emit('event', payload, t0);
    if (k >= WARMUP_MESSAGES) windows.push(now() - t0);
    await new Promise((r) => setImmediate(r));
  }
  if (sink < 0) log('unreachable');
  latencies.sort((a, b) => a - b);
  const sortedWindows = [...windows].sort((a, b) => a - b);
  return {
    label: serialise ? 'EventEmitter + JSON.stringify per listener' : 'bare EventEmitter',
    recipients: listeners, messages, expected: listeners * messages, delivered: latencies.length,
    p50: percentile(latencies, 50), p99: percentile(latencies, 99), mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    lastP50: percentile(sortedWindows, 50), lastP99: percentile(sortedWindows, 99),
    perSecond: latencies.length / (windows.reduce((a, b) => a + b, 0) / 1000),
    postP50: NaN, bytesPerEvent: payloadBytes, serverBusy: null, errors: 0, firstError: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Across two processes (Redis)

function redisSupported(): boolean {
  const app = readFileSync(join(root, 'server/app.ts'), 'utf8');
  return /\bredisUrl\b/.test(app);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function startMain(name: string, envVars: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string; pid: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeFlags(), '--import', 'tsx', 'main.ts'], {
    cwd: root, env: { ...process.env, ...envVars, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stderr!.on('data', (c) => process.stderr.write(`[${name}] ${c}`));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      if (/listening on/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${out.slice(-500)}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, pid: child.pid! };
}

async function dropRedisPrefix(prefix: string): Promise<number> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  let dropped = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) dropped += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return dropped;
}

async function acrossProcesses(databaseUrl: string, owner: Credentials, recipients: Credentials[]): Promise<FanoutResult> {
  const prefix = `parley_bench_${process.pid}_${randomBytes(3).toString('hex')}:`;
  const common = {
    DATABASE_URL: databaseUrl, REDIS_URL, PARLEY_REDIS_PREFIX: prefix,
    PARLEY_ADMIN_EMAIL: OWNER_EMAIL, PARLEY_ADMIN_PASSWORD: OWNER_PASSWORD, PARLEY_REALM_NAME: 'Bench',
    PARLEY_HEARTBEAT_SECS: String(HEARTBEAT_SECS), PARLEY_LOG_REQUESTS: '0', PARLEY_RATE_LIMITING: '0',
  };
  const a = await startMain('A', common);
  const b = await startMain('B', common);
  try {
    log(`  process A (pid ${a.pid}, queues and polls) ${a.baseUrl}; process B (pid ${b.pid}, sends) ${b.baseUrl}; prefix ${prefix}`);
    return await fanout({
      label: 'REST long-poll on A, sent through B (Redis)', transport: 'poll', recvUrl: a.baseUrl, sendUrl: b.baseUrl,
      owner, recipients, messages: REDIS_MESSAGES, cpuPids: [a.pid, b.pid],
    });
  } finally {
    log('  stopping processes A and B (SIGTERM)');
    for (const p of [a, b]) {
      const exited = stopChild(p.child, 20_000);
      p.child.kill('SIGTERM');
      await exited;
    }
    const dropped = await dropRedisPrefix(prefix).catch((e) => { log(`could not clean Redis: ${e}`); return 0; });
    log(`  dropped ${dropped} Redis keys under ${prefix}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const ms = (n: number) => (!Number.isFinite(n) ? '—' : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n >= 0.1 ? n.toFixed(2) : n.toFixed(4));
const mib = (bytes: number) => `${MiB(bytes).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const perThousand = (delta: number, count: number) => (count ? mib((delta / count) * 1000) : '—');

interface EventsReport {
  memoryGoal: MemoryGoalResult | null;
  version: string;
  fdLimit: number;
  idle: IdleResult | null;
  idleNote: string;
  ws: WsResult[];
  fanouts: FanoutResult[];
  redis: FanoutResult | null;
  redisNote: string;
  phases: [string, number][];
  load: [number, number];
}

function report(r: EventsReport, totalSeconds: number): string {
  const lines = [
    '## Parley event-system benchmark',
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'} · Node ${process.version} · ${r.version} · ` +
      `open-file limit ${r.fdLimit === Infinity ? 'unlimited' : r.fdLimit.toLocaleString('en-US')} per process · somaxconn ${readSysctl('/proc/sys/net/core/somaxconn')} · ` +
      `ephemeral ports ${readSysctl('/proc/sys/net/ipv4/ip_local_port_range')}`,
    '',
    'The server runs in a child process (a fresh one per measurement, same database, in-memory queue registry), the clients in this ' +
      'process. RSS and heap are the server\'s, after a forced full GC; "per 1,000" is the delta from a warmed-up server ' +
      `(${WARM_QUEUES} queues registered and waited on first) divided by the count. Queues are registered with event_types=["message"], ${REGISTER_CONCURRENCY} concurrent clients. ` +
      `Latencies in ms, nearest-rank percentiles over every delivery. Heartbeat every ${HEARTBEAT_SECS} s.`,
    '',
  ];

  lines.push('### 1. Idle long-poll queues', '');
  if (r.idle) {
    const i = r.idle;
    const m = i.memory;
    // A queue's own cost plus its poll's.
    const withPoll = (key: 'rss' | 'heapUsed') => ((m.queues[key] - m.base[key]) / i.queues + (m.held[key] - m.queues[key]) / Math.max(1, i.polls)) * 1000;
    lines.push(
      '| | |', '|---|---:|',
      `| Queues registered (users) | ${int(i.queues)} (${int(i.users)}) |`,
      `| Registration: total time · rate | ${i.registration.seconds.toFixed(1)} s · ${int(i.queues / i.registration.seconds)} queues/s |`,
      `| Registration: p50 / p99 (ms) | ${ms(i.registration.p50)} / ${ms(i.registration.p99)} |`,
      `| Long-polls opened · waiting on the server · time to open | ${int(i.polls)} · ${int(i.waiting)} · ${i.openSeconds.toFixed(1)} s |`,
      `| Server RSS: warmed up → with queues → with queues and polls | ${mib(m.base.rss)} → ${mib(m.queues.rss)} → ${mib(m.held.rss)} |`,
      `| Server heap used: warmed up → with queues → with queues and polls | ${mib(m.base.heapUsed)} → ${mib(m.queues.heapUsed)} → ${mib(m.held.heapUsed)} |`,
      `| **RSS per 1,000 idle queues (no poll)** | **${perThousand(m.queues.rss - m.base.rss, i.queues)}** (heap ${perThousand(m.queues.heapUsed - m.base.heapUsed, i.queues)}) |`,
      `| **RSS per 1,000 queues with an open long-poll** | **${mib(withPoll('rss'))}** (heap ${mib(withPoll('heapUsed'))}) |`,
      `| … of which the open long-poll (socket, request, GraphQL execution) | ${perThousand(m.held.rss - m.queues.rss, i.polls)} (heap ${perThousand(m.held.heapUsed - m.queues.heapUsed, i.polls)}) |`,
      `| Heap freed per 1,000 when the pollers disconnect · when the queues are then deleted | ${perThousand(m.held.heapUsed - m.released.heapUsed, i.polls)} · ${perThousand(m.released.heapUsed - m.dropped.heapUsed, i.queues + WARM_QUEUES)} |`,
      `| Long-polls still waiting on the server ${LINGER_MS / 1000} s after their clients disconnected | ${int(i.lingering)} |`,
      `| Poll errors | ${int(i.pollErrors)} |`,
    );
  }
  if (r.idleNote) lines.push('', r.idleNote);
  lines.push('');

  lines.push('### 2. graphql-ws subscribers (queueEvents, one queue each)', '');
  if (r.ws.length) {
    const head = `| | ${r.ws.map((w) => (w.perConnection === 1 ? 'one WebSocket each' : `${w.perConnection} per WebSocket`)).join(' | ')} |`;
    const row = (name: string, cell: (w: WsResult) => string) => `| ${name} | ${r.ws.map(cell).join(' | ')} |`;
    lines.push(
      head, `|---|${r.ws.map(() => '---:').join('|')}|`,
      row('Subscribers (connections)', (w) => `${int(w.subscribers)} (${int(w.connections)})`),
      row('Subscriptions waiting on the server', (w) => int(w.waiting)),
      row('Registration time · subscribing time', (w) => `${w.registration.seconds.toFixed(1)} s · ${w.openSeconds.toFixed(1)} s`),
      row('Server RSS: warmed up → with queues → subscribed', (w) => `${mib(w.memory.base.rss)} → ${mib(w.memory.queues.rss)} → ${mib(w.memory.held.rss)}`),
      row('Server heap used: warmed up → with queues → subscribed', (w) => `${mib(w.memory.base.heapUsed)} → ${mib(w.memory.queues.heapUsed)} → ${mib(w.memory.held.heapUsed)}`),
      row('**RSS per 1,000 subscribers (queue included)**', (w) => `**${perThousand(w.memory.held.rss - w.memory.base.rss, w.subscribers)}**`),
      row('Heap per 1,000 subscribers (queue included)', (w) => perThousand(w.memory.held.heapUsed - w.memory.base.heapUsed, w.subscribers)),
      row('… of which connection + subscription: RSS (heap)', (w) => `${perThousand(w.memory.held.rss - w.memory.queues.rss, w.subscribers)} (${perThousand(w.memory.held.heapUsed - w.memory.queues.heapUsed, w.subscribers)})`),
      row('Heap freed per 1,000 when the sockets close · when the queues are then deleted', (w) => `${perThousand(w.memory.held.heapUsed - w.memory.released.heapUsed, w.subscribers)} · ${perThousand(w.memory.released.heapUsed - w.memory.dropped.heapUsed, w.subscribers + WARM_QUEUES)}`),
      row(`Subscriptions still waiting on the server ${LINGER_MS / 1000} s after their sockets closed`, (w) => int(w.lingering)),
      row('Errors', (w) => int(w.errors)),
    );
    lines.push('', 'At a few thousand clients the RSS deltas are within the noise of V8 and malloc keeping freed pages resident ' +
      '(registration garbage is reused by the subscriptions); heap used is the steadier figure.');
  } else lines.push('Skipped (BENCH_WS_SUBSCRIBERS=0).');
  lines.push('');

  lines.push(`### 3. Fan-out: one channel message to ${int(FANOUT)} subscribers, each with a live queue`, '');
  if (r.fanouts.length) {
    const head = `| | ${r.fanouts.map((f) => f.label).join(' | ')} |`;
    const row = (name: string, cell: (f: FanoutResult) => string) => `| ${name} | ${r.fanouts.map(cell).join(' | ')} |`;
    lines.push(
      head, `|---|${r.fanouts.map(() => '---:').join('|')}|`,
      row('Messages × recipients', (f) => `${int(f.messages)} × ${int(f.recipients)}`),
      row('Deliveries (of expected)', (f) => `${int(f.delivered)} (${int(f.expected)})`),
      row('**Latency, send → each delivery: p50 / p99 (ms)**', (f) => `**${ms(f.p50)} / ${ms(f.p99)}**`),
      row('Latency, send → last recipient: p50 / p99 (ms)', (f) => `${ms(f.lastP50)} / ${ms(f.lastP99)}`),
      row('**Events delivered per second (while fanning out)**', (f) => `**${int(f.perSecond)}**`),
      row('POST /messages answered after: p50 (ms)', (f) => ms(f.postP50)),
      row('Bytes per delivered event (response body)', (f) => int(f.bytesPerEvent)),
      row('Server thread busy (whole run, gaps included)', (f) => (f.serverBusy == null ? '—' : `${(100 * f.serverBusy).toFixed(0)}%`)),
      row('Server CPU per message, its POST included (ms)', (f) => (f.serverCpuPerMessage == null ? '—' : ms(f.serverCpuPerMessage))),
      row('Client (this process) thread busy, same stretch', (f) => (f.clientBusy == null ? '—' : `${(100 * f.clientBusy).toFixed(0)}%`)),
      ...(r.fanouts.some((f) => f.trace) ? [
        row('Server trace: send → published (the POST\'s commit): p50 / p99 (ms)', (f) => (f.trace ? `${ms(f.trace.publishing[0])} / ${ms(f.trace.publishing[1])}` : '—')),
        row('Server trace: send → in every queue: p50 / p99 (ms)', (f) => (f.trace ? `${ms(f.trace.published[0])} / ${ms(f.trace.published[1])}` : '—')),
        row('Server trace: send → each frame handed to its socket: p50 / p99 (ms)', (f) => (f.trace ? `${ms(f.trace.sent[0])} / ${ms(f.trace.sent[1])}` : '—')),
        row('Server trace: send → each frame written: p50 / p99 (ms)', (f) => (f.trace ? `${ms(f.trace.written[0])} / ${ms(f.trace.written[1])}` : '—')),
        row('Server trace: send → last frame handed to a socket: p50 / p99 (ms)', (f) => (f.trace ? `${ms(f.trace.lastSent[0])} / ${ms(f.trace.lastSent[1])}` : '—')),
      ] : []),
      row('Errors', (f) => (f.errors ? `${int(f.errors)}: ${f.firstError?.replace(/\|/g, '\\|')}` : '0')),
    );
    lines.push('', `Messages are sent one at a time: the next ${FANOUT_GAP_MS} ms after the previous one reached everyone, after ${WARMUP_MESSAGES} warm-up messages. ` +
      '"Events per second" is deliveries ÷ the summed send → last-recipient windows. Long-polls re-poll with last_event_id as soon as they answer (at the end of the client\'s event-loop turn, once every answer that arrived with theirs is timed); ' +
      'the EventEmitter columns emit synchronously in this process, the latency being emit() → listener.');
  }
  lines.push('');

  lines.push('### 4. Across two server processes (Redis)', '');
  if (r.redis) {
    const f = r.redis;
    lines.push(
      '| | |', '|---|---:|',
      `| Setup | queues and long-polls on process A, POST /messages through process B (\`main.ts\` ×2, one database, one Redis) |`,
      `| Messages × recipients | ${int(f.messages)} × ${int(f.recipients)} |`,
      `| Deliveries (of expected) | ${int(f.delivered)} (${int(f.expected)}) |`,
      `| **Latency, send on B → delivery on A: p50 / p99 (ms)** | **${ms(f.p50)} / ${ms(f.p99)}** |`,
      `| Latency, send → last recipient: p50 / p99 (ms) | ${ms(f.lastP50)} / ${ms(f.lastP99)} |`,
      `| Events delivered per second | ${int(f.perSecond)} |`,
      `| POST /messages on B answered after: p50 (ms) | ${ms(f.postP50)} |`,
      `| CPU per delivery, process A / process B (µs) | ${f.cpuPerDelivery ? f.cpuPerDelivery.map((x) => x.toFixed(0)).join(' / ') : '—'} |`,
      `| Errors | ${f.errors ? `${int(f.errors)}: ${f.firstError?.replace(/\|/g, '\\|')}` : '0'} |`,
    );
  } else lines.push(r.redisNote);
  lines.push('');

  lines.push(...goalsReport(r), '');

  for (const profiled of r.fanouts) {
    if (!profiled.profile) continue;
    const p = profiled.profile;
    const busy = p.totalMs - p.idleMs;
    lines.push(`### Server CPU profile: "${profiled.label}" fan-out`, '',
      `${PROFILE_MESSAGES} more messages to the same ${int(profiled.recipients)} recipients after the measured ones, sampled every 0.5 ms: ` +
      `${(busy / 1000).toFixed(1)} s on CPU of ${(p.totalMs / 1000).toFixed(1)} s. Self time is where the CPU was; inclusive time of async functions ` +
      'covers only their synchronous stretches (continuations after an await count under runMicrotasks).', '',
      '| Self time by area | ms | % of busy |', '|---|---:|---:|',
      ...p.areas.slice(0, 10).map((a) => `| ${a.name} | ${int(a.ms)} | ${((100 * a.ms) / busy).toFixed(1)}% |`),
      '', '| Top functions, self time | ms | % of busy |', '|---|---:|---:|',
      ...p.self.slice(0, 12).map((a) => `| \`${a.name}\` | ${int(a.ms)} | ${((100 * a.ms) / busy).toFixed(1)}% |`),
      '', '| Project functions, inclusive time | ms | % of busy |', '|---|---:|---:|',
      ...p.inclusiveProject.slice(0, 15).map((a) => `| \`${a.name}\` | ${int(a.ms)} | ${((100 * a.ms) / busy).toFixed(1)}% |`),
      '');
  }

  lines.push('### Where the time went', '', '| Phase | s |', '|---|---:|',
    ...r.phases.map(([name, s]) => `| ${name} | ${s.toFixed(1)} |`),
    `| 1-min load average at start → end | ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)} |`,
    '', `Whole run: ${totalSeconds.toFixed(1)} s.`);
  return lines.join('\n') + '\n';
}

/** Issue 16's goals 2 and 5, each beside the baseline measured in this run. */
function goalsReport(r: EventsReport): string[] {
  const lines = ['### Goals (issue 16)', '', '| Goal | Measured | Baseline in this run | Target | |', '|---|---:|---:|---:|---|'];
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  const stringify = r.fanouts.find((f) => f.label.startsWith('EventEmitter + JSON'));
  const base = stringify ? `${ms(stringify.p99)} ms (EventEmitter + JSON.stringify per listener, p99)` : '—';
  const latency = (name: string, f: FanoutResult | undefined, target: number) => {
    if (f) lines.push(`| ${name}: p99 send → delivery, ${int(f.recipients)} recipients | ${ms(f.p99)} ms | ${base} | < ${target} ms | ${verdict(f.p99 < target && f.delivered === f.expected)} |`);
    else lines.push(`| ${name} | not measured | | < ${target} ms | |`);
  };
  latency('2. REST long-polls', r.fanouts.find((f) => f.label === 'REST long-poll'), GOALS.poll);
  latency('2. graphql-ws', r.fanouts.find((f) => f.label === 'graphql-ws'), GOALS.ws);
  latency('2. two processes over Redis (REST long-polls)', r.redis ?? undefined, GOALS.redis);
  const m = r.memoryGoal;
  if (m) {
    lines.push(`| 5. ${int(m.queues)} idle queues + ${int(m.waiting)} graphql-ws subscribers (of ${int(m.subscribers)}): server RSS | ${mib(m.held.rss)} (heap ${mib(m.held.heapUsed)}) | ${mib(m.base.rss)} (the same server, empty) | < 2 GiB | ${verdict(m.held.rss < GOALS.rss && m.waiting >= m.subscribers && !m.errors)} |`);
  } else lines.push('| 5. idle queues + graphql-ws subscribers: server RSS | not measured (BENCH_MEMORY_QUEUES/BENCH_MEMORY_WS) | | < 2 GiB | |');
  return lines;
}

// ---------------------------------------------------------------------------------------------

async function timed<T>(phases: [string, number][], name: string, fn: () => Promise<T>): Promise<T> {
  const started = now();
  log(`${name} …`);
  try {
    return await fn();
  } finally {
    const seconds = (now() - started) / 1000;
    phases.push([name, seconds]);
    log(`${name}: ${seconds.toFixed(1)} s`);
  }
}

/** Runs every measurement; prints the Markdown report and writes it to bench/results/events.md. */
export async function runEventsBench(): Promise<string> {
  const started = now();
  const phases: [string, number][] = [];
  const loadAtStart = os.loadavg()[0]!;
  const fdLimit = openFileLimit();
  // Each long-poll holds one socket in the server and one here (other processes, same limit).
  const maxConnections = Math.max(0, fdLimit - FD_RESERVE - REGISTER_CONCURRENCY);
  const idlePolls = Math.min(intEnv('BENCH_IDLE_POLLS', IDLE_QUEUES), IDLE_QUEUES, maxConnections);
  let idleNote = '';
  if (idlePolls < IDLE_QUEUES) {
    idleNote = `Only ${int(idlePolls)} of the ${int(IDLE_QUEUES)} queues got an open long-poll: ` +
      (idlePolls === maxConnections ? `the open-file limit (\`ulimit -n\` ${fdLimit}) leaves room for ${int(maxConnections)} sockets per process.` : 'BENCH_IDLE_POLLS.');
  }
  const wsCount = Math.min(WS_SUBSCRIBERS, maxConnections);
  const fanoutSize = Math.min(FANOUT, maxConnections);
  log(`open-file limit ${fdLimit}; idle queues ${IDLE_QUEUES} with ${idlePolls} polls; ${wsCount} subscribers; fan-out to ${fanoutSize}`);

  const pgDb = DB_KIND === 'postgres' ? await freshPostgres() : null;
  const pgliteDir = DB_KIND === 'pglite' ? mkdtempSync(join(os.tmpdir(), 'parley-bench-events-')) : null;
  const config = {
    databaseUrl: pgDb?.url,
    dataDir: pgliteDir ?? 'memory://',
    adminEmail: OWNER_EMAIL,
    adminPassword: OWNER_PASSWORD,
    realmName: 'Bench',
    heartbeatSecs: HEARTBEAT_SECS,
  };
  const result: EventsReport = {
    version: '', fdLimit, memoryGoal: null, idle: null, idleNote, ws: [], fanouts: [], redis: null, redisNote: '', phases, load: [loadAtStart, 0],
  };
  try {
    const setupServer = await timed(phases, 'start Parley, create users (bulk SQL)', () => startServer(config));
    const userCount = Math.max(IDLE_USERS, fanoutSize, 1);
    let owner: Credentials;
    let users: Credentials[];
    try {
      ({ owner, users } = await setupUsers(setupServer, userCount, fanoutSize));
      const v = (await setupServer.sql<{ server_version: string }>('SHOW server_version'))[0]!.server_version;
      result.version = DB_KIND === 'postgres' ? `PostgreSQL ${v}` : `PGlite ${JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version} (on disk)`;
      log(`  ${users.length} users, ${fanoutSize} of them in #${CHANNEL}`);
    } finally {
      await setupServer.stop();
    }
    const idleUsers = users.slice(0, IDLE_USERS);

    if (IDLE_QUEUES > 0) {
      result.idle = await timed(phases, `1. ${int(IDLE_QUEUES)} idle queues, ${int(idlePolls)} long-polls`, () => idleQueues(config, idleUsers, IDLE_QUEUES, idlePolls));
    }

    if (wsCount > 0) {
      result.ws.push(await timed(phases, `2. ${int(wsCount)} graphql-ws subscribers, one WebSocket each`, () => wsSubscribers(config, idleUsers, wsCount, 1)));
      if (WS_MUX > 1) {
        result.ws.push(await timed(phases, `2. ${int(wsCount)} graphql-ws subscribers, ${WS_MUX} per WebSocket`, () => wsSubscribers(config, idleUsers, wsCount, WS_MUX)));
      }
    }

    if (MEMORY_QUEUES + MEMORY_WS > 0) {
      const ws = Math.min(MEMORY_WS, maxConnections);
      result.memoryGoal = await timed(phases, `5. ${int(MEMORY_QUEUES)} idle queues + ${int(ws)} graphql-ws subscribers`, () => memoryGoal(config, idleUsers, MEMORY_QUEUES, ws));
    }

    if (fanoutSize > 0 && FANOUT_MESSAGES > 0) {
      const recipients = users.slice(0, fanoutSize);
      const viaPoll = !FANOUT_POLL ? null : await timed(phases, `3. fan-out to ${int(fanoutSize)} long-polls ×${FANOUT_MESSAGES}`, async () => {
        const server = await startServer(config);
        try {
          return await fanout({ label: 'REST long-poll', transport: 'poll', recvUrl: server.baseUrl, sendUrl: server.baseUrl, owner, recipients, messages: FANOUT_MESSAGES, server, profile: PROFILE });
        } finally {
          await server.stop();
        }
      });
      if (viaPoll) result.fanouts.push(viaPoll);
      if (FANOUT_WS) {
        result.fanouts.push(await timed(phases, `3. fan-out to ${int(fanoutSize)} graphql-ws subscriptions ×${FANOUT_MESSAGES}`, async () => {
          const server = await startServer(config);
          try {
            return await fanout({ label: 'graphql-ws', transport: 'ws', recvUrl: server.baseUrl, sendUrl: server.baseUrl, owner, recipients, messages: FANOUT_MESSAGES, server, profile: PROFILE_WS });
          } finally {
            await server.stop();
          }
        }));
      }
      const sized = viaPoll ?? result.fanouts.find((f) => f.label === 'graphql-ws');
      const payload = sized && Number.isFinite(sized.bytesPerEvent) ? Math.round(sized.bytesPerEvent) : 1000;
      result.fanouts.push(await timed(phases, '3. bare EventEmitter', () => bareEmitter(fanoutSize, FANOUT_MESSAGES, payload, false)));
      result.fanouts.push(await timed(phases, '3. EventEmitter + JSON.stringify', () => bareEmitter(fanoutSize, FANOUT_MESSAGES, payload, true)));

      if (!redisSupported()) result.redisNote = 'n/a (Redis support not present)';
      else if (!pgDb) result.redisNote = 'n/a (two processes need PostgreSQL; BENCH_DB=pglite)';
      else if (REDIS_FANOUT === 0 || REDIS_MESSAGES === 0) result.redisNote = 'Skipped (BENCH_REDIS_FANOUT or BENCH_REDIS_MESSAGES is 0).';
      else {
        const redisRecipients = users.slice(0, Math.min(REDIS_FANOUT, fanoutSize));
        try {
          result.redis = await timed(phases, `4. two processes over Redis: fan-out to ${int(redisRecipients.length)} ×${REDIS_MESSAGES}`, () => acrossProcesses(pgDb.url, owner, redisRecipients));
        } catch (error) {
          log(`two-process run failed: ${(error as Error).stack ?? error}`);
          result.redisNote = `Failed: ${String((error as Error).message ?? error).slice(0, 300)}`;
        }
      }
    } else result.redisNote = 'Skipped (no fan-out).';
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await pgDb?.drop().catch((e) => log(`could not drop the database: ${e}`));
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
  result.load[1] = os.loadavg()[0]!;
  const markdown = report(result, (now() - started) / 1000);
  console.log(markdown);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'events.md'), markdown);
  log(`written to ${join('bench', 'results', 'events.md')}`);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await runEventsBench();
  process.exit(0);
}
