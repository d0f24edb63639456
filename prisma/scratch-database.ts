// Throwaway PostgreSQL databases for tests and benchmarks: each test file or benchmark run gets a
// fresh one on the server at `baseUrl`, dropped again afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** `template`: a database to copy (already migrated, with no one connected to it). */
export async function createScratchDatabase(baseUrl: string, prefix: string, template?: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      // pg's Pool.end() resolves once it has asked its connections to close, not once they have;
      // dropping WITH (FORCE) before they are gone makes a closed pool emit an unhandled error.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
