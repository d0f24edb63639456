// Once per `vitest run`, before any test file and after the last one: says whether conformance
// against Zulip's OpenAPI description runs; migrates one database that every test database then
// starts from (creating a PGlite cluster and migrating it takes seconds, copying one a fraction);
// and drops every PostgreSQL database the run made, whatever became of the files that made them (a
// crashed or timed-out file never closes its own).
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { conformanceAvailable, specPath } from './openapi.ts';
import { applyMigrations, type SqlRunner } from '../../prisma/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run's scratch databases (test/support/databases.ts), so teardown finds them all. */
    testRun: string;
    /** A migrated PGlite cluster (a dumpDataDir tar file) for in-memory test databases; '' on PostgreSQL. */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database test databases are copied from; '' without TEST_DATABASE_URL. */
    pgTemplate: string;
  }
}

export function runDatabasePrefix(run: string): string {
  return `parley_test_${run}`;
}

export default async function setup(project: TestProject) {
  if (!conformanceAvailable()) {
    // CI sets this: there the description is always at hand, and a run without it proves less.
    if (process.env.PARLEY_REQUIRE_CONFORMANCE === '1') {
      throw new Error(`PARLEY_REQUIRE_CONFORMANCE=1 but Zulip's OpenAPI description is not at ${specPath()} (set PARLEY_ZULIP_OPENAPI)`);
    }
    console.log(`OpenAPI conformance skipped: no Zulip OpenAPI description at ${specPath()} (set PARLEY_ZULIP_OPENAPI to run it)`);
  }
  const run = randomBytes(3).toString('hex');
  project.provide('testRun', run);
  const base = process.env.TEST_DATABASE_URL;
  const pgliteTemplate = base ? '' : join(tmpdir(), `parley-test-${run}.pglite.tar`);
  const pgTemplate = base ? `${runDatabasePrefix(run)}_template` : '';
  const teardown = async () => {
    if (base) await dropRunDatabases(base, runDatabasePrefix(run));
    if (pgliteTemplate) rmSync(pgliteTemplate, { force: true });
  };
  try {
    if (base) await migratePostgresTemplate(base, pgTemplate);
    else await migratePgliteTemplate(pgliteTemplate);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('pgliteTemplate', pgliteTemplate);
  project.provide('pgTemplate', pgTemplate);
  return teardown;
}

async function migratePgliteTemplate(path: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create('memory://');
  try {
    await applyMigrations(runnerFor(client));
    writeFileSync(path, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await client.close();
  }
}

async function migratePostgresTemplate(base: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  // One connection, closed before any copy: PostgreSQL copies only a database no one is connected to.
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await applyMigrations(runnerFor(client));
  } finally {
    await client.end();
  }
}

function runnerFor(client: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>; exec?(sql: string): Promise<unknown> }): SqlRunner {
  return {
    exec: async (sql) => { await (client.exec ? client.exec(sql) : client.query(sql)); },
    query: async (sql, params) => (await client.query(sql, params)).rows as any[],
  };
}

async function dropRunDatabases(base: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
