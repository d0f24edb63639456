// Opens the database: PostgreSQL when a URL is given, otherwise embedded PGlite in a directory.
// Both speak the same SQL, so one schema, one set of migrations and the same raw queries serve both.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrismaClient, type Prisma } from './generated/client/client.ts';
import { applyMigrations, type SqlRunner } from './migrate.ts';
import { withTransactionRetries } from '../resolvers/transaction.ts';

export type Db = PrismaClient;

// Prisma's defaults (wait 2 s for a connection, 5 s per transaction) fail sound multi-row writes
// when the machine is briefly saturated; a transaction holds its locks only as long as it runs.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

export interface Database {
  prisma: PrismaClient;
  /** Writes through `prisma` to the rows resolvers/row-cache.ts keeps (raw SQL is not seen). */
  writes: WriteSignal;
  kind: 'postgresql' | 'pglite';
  close(): Promise<void>;
}

/** Statements sent through the driver, bypassing the Prisma client's runtime. */
interface DriverQueries {
  query<Row>(sql: Prisma.Sql, options?: DriverQueryOptions): Promise<Row[]>;
}

export interface DriverQueryOptions {
  /**
   * Prepare the statement under this name (PostgreSQL): each pooled connection parses it once, and
   * after five executions PostgreSQL keeps one generic plan for it instead of planning it again for
   * every request's values. Only for statements whose best plan does not depend on the values (a
   * page's records by ID, an INSERT); a statement whose plan should follow its values (a narrow's
   * window: a small topic wants its index, a large one the primary key backwards) stays unnamed.
   * Each distinct text gets its own prepared statement, named `<prepare>:<hash of the text>`.
   */
  prepare?: string;
}

const drivers = new WeakMap<object, DriverQueries>();

/**
 * The rows of one of the hot paths' statements, as `db.$queryRaw(sql)` returns them. Through the
 * database's own client, the statement goes to the driver: node-postgres' pool (named when
 * `options.prepare` says so; Prisma's adapter sends every statement unnamed), or PGlite's client.
 * Inside a transaction `db` is the transaction's client, whose connection the statement must use:
 * it then goes through Prisma.
 */
export function driverQuery<Row>(db: Db, sql: Prisma.Sql, options: DriverQueryOptions = {}): Promise<Row[]> {
  const driver = drivers.get(db);
  return driver ? driver.query<Row>(sql, options) : db.$queryRaw<Row[]>(sql);
}

// Prisma's raw queries answer `timestamp` columns (which hold UTC, Prisma's DateTime) as Dates
// in UTC and int8 as BigInt; the drivers' own parsers would read the first in the process's zone.
const parseUtcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/** Parameters as Prisma binds them: Dates as their UTC instant (a driver would write local time). */
function bindable(values: unknown[]): unknown[] {
  return values.map((value) => (value instanceof Date ? value.toISOString() : value));
}

/**
 * node-postgres' parameters: as `bindable`, and arrays of numbers or booleans written as array
 * literals here. pg quotes and escapes every element through two regular expressions; a send's
 * recipient arrays (seven of them, an element per recipient) spent ~1.5 ms of the request there.
 */
function pgBindable(values: unknown[]): unknown[] {
  return values.map((value) => (value instanceof Date ? value.toISOString() : Array.isArray(value) ? scalarArrayLiteral(value) ?? value : value));
}

/** `{1,2,3}` or `{t,f}` for an array of finite numbers or of booleans; undefined for any other array. */
export function scalarArrayLiteral(values: unknown[]): string | undefined {
  if (!values.length) return '{}';
  const kind = typeof values[0];
  if (kind === 'number') {
    for (const value of values) if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
    return `{${values.join(',')}}`;
  }
  if (kind === 'boolean') {
    let literal = '{';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (typeof value !== 'boolean') return undefined;
      literal += i ? (value ? ',t' : ',f') : value ? 't' : 'f';
    }
    return `${literal}}`;
  }
  return undefined;
}

/** Distinct statement texts prepared per process (each holds memory on every connection); past it, texts go unnamed. */
const MAX_PREPARED_TEXTS = 500;

function pgDriver(pool: import('pg').Pool, pgTypes: typeof import('pg').types): DriverQueries {
  const names = new Map<string, string>();
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === TIMESTAMP_OID ? parseUtcTimestamp : oid === INT8_OID ? BigInt : pgTypes.getTypeParser(oid, format as 'text'),
  };
  return {
    async query<Row>(sql: Prisma.Sql, options: DriverQueryOptions = {}) {
      const text = sql.text;
      let statementName = options.prepare ? names.get(text) : undefined;
      if (options.prepare && statementName === undefined && names.size < MAX_PREPARED_TEXTS) {
        statementName = `${options.prepare}:${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
        names.set(text, statementName);
      }
      const result = await pool.query({ name: statementName, text, values: pgBindable(sql.values), types } as import('pg').QueryConfig);
      return result.rows as Row[];
    },
  };
}

/**
 * The client's own parsers (set when it is created): per-query `parsers` would cost a copy of its
 * whole parser table on every statement. Prisma's adapter passes its own per query and is unaffected.
 */
const PGLITE_PARSERS = { [TIMESTAMP_OID]: parseUtcTimestamp, [INT8_OID]: BigInt };

function pgliteDriver(client: import('@electric-sql/pglite').PGlite): DriverQueries {
  return {
    async query<Row>(sql: Prisma.Sql) {
      // PGlite keeps no named statements; its client still spares the statement Prisma's runtime.
      return (await client.query<Row>(sql.text, bindable(sql.values))).rows;
    },
  };
}

/** Listeners told after a write to a watched model's rows, committed or inside a transaction. */
export class WriteSignal {
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

const WRITE_OPERATIONS = new Set(['create', 'createMany', 'createManyAndReturn', 'update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany']);

/**
 * The client, with writes to the rows the hot paths cache (resolvers/row-cache.ts: users, their
 * organizations, channels and subscriptions) signalled, whoever wrote them, events or not.
 */
function watchWrites(prisma: PrismaClient, signal: WriteSignal): PrismaClient {
  const watched = {
    async $allOperations({ operation, args, query }: { operation: string; args: unknown; query: (args: unknown) => Promise<unknown> }) {
      const result = await query(args);
      if (WRITE_OPERATIONS.has(operation)) signal.notify();
      return result;
    },
  };
  return prisma.$extends({ query: { user: watched, realm: watched, channel: watched, subscription: watched } }) as unknown as PrismaClient;
}

export interface DatabaseOptions {
  /** postgresql://… ; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir?: string;
  /** For `memory://`: a `dumpDataDir` tar file to start from (see Config.pgliteTemplate). */
  pgliteTemplate?: string;
  log?: (line: string) => void;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? (() => {});
  if (options.url) return openPostgres(options.url, log, options.poolSize);
  return openPglite(options.dataDir ?? './data', log, options.pgliteTemplate);
}

/**
 * Sends a connection's queries one after another. A transaction's statements share one connection,
 * and Prisma sends those of a `Promise.all` inside a transaction at once; pg used to queue them
 * itself, which pg 8.19 deprecates (a warning per process) and pg 9 will refuse. Queued here, they
 * run in the same order as pg ran them.
 */
function queueQueries(client: { query: (...args: any[]) => unknown }): void {
  const query = client.query.bind(client);
  let tail: Promise<unknown> = Promise.resolve();
  client.query = (...args: any[]) => {
    // The callback and submittable forms (pg-pool's own `pool.query`) keep pg's behaviour.
    if (typeof args.at(-1) === 'function' || typeof args[0]?.submit === 'function') return query(...args);
    const run = tail.then(() => query(...args));
    tail = run.catch(() => {});
    return run;
  };
}

async function openPostgres(url: string, log: (line: string) => void, poolSize = 10): Promise<Database> {
  const pg = (await import('pg')).default;
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    const runner: SqlRunner = {
      exec: async (sql) => { await setup.query(sql); },
      query: async (sql, params) => (await setup.query(sql, params as unknown[])).rows,
    };
    await applyMigrations(runner, log);
  } finally {
    await setup.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection dropped by the server (restart, failover, admin) is replaced on next use;
  // without a listener the pool's 'error' event would crash the process.
  pool.on('error', (error) => log(`database connection lost: ${error.message}`));
  pool.on('connect', queueQueries);
  const writes = new WriteSignal();
  const prisma = withTransactionRetries(watchWrites(new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS }), writes));
  drivers.set(prisma, pgDriver(pool, pg.types));
  return {
    prisma,
    writes,
    kind: 'postgresql',
    close: async () => { await prisma.$disconnect(); await pool.end().catch(() => {}); },
  };
}

/**
 * PGlite is one process's database: a second process opening the same directory would corrupt it.
 * A pid file claims the directory; a claim by a process that is gone is taken over.
 */
function claimDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, 'parley.pid');
  if (existsSync(lockPath)) {
    const pid = Number(readFileSync(lockPath, 'utf8'));
    let alive = false;
    try {
      if (pid && pid !== process.pid) { process.kill(pid, 0); alive = true; }
    } catch {
      alive = false;
    }
    if (alive) throw new Error(`${dataDir} is in use by process ${pid} (PGlite serves one process): stop it first.`);
  }
  writeFileSync(lockPath, String(process.pid));
  return () => rmSync(lockPath, { force: true });
}

async function openPglite(dataDir: string, log: (line: string) => void, template?: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  let release = () => {};
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    release = claimDataDir(dataDir);
  }
  const client = await PGlite.create(dataDir, { parsers: PGLITE_PARSERS, ...(inMemory && template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}) });
  const runner: SqlRunner = {
    exec: async (sql) => { await client.exec(sql); },
    query: async (sql, params) => (await client.query(sql, params as unknown[])).rows as any[],
  };
  await applyMigrations(runner, log);
  const writes = new WriteSignal();
  const prisma = withTransactionRetries(watchWrites(new PrismaClient({ adapter: new PrismaPGlite(client), transactionOptions: TRANSACTION_OPTIONS }), writes));
  drivers.set(prisma, pgliteDriver(client));
  return {
    prisma,
    writes,
    kind: 'pglite',
    close: async () => { await prisma.$disconnect(); await client.close(); release(); },
  };
}
