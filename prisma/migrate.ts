// Applies the committed migrations in prisma/migrations/ at start-up.
//
// Prisma's own `migrate deploy` needs a native engine this machine cannot download, so this runner
// does the same job with the driver we already have, and records each migration in Prisma's
// `_prisma_migrations` table with Prisma's checksum, so `prisma migrate deploy` and `migrate status`
// agree with it wherever the native engine exists.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SqlRunner {
  /** Runs one or more statements with no parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

// The same key `prisma migrate` locks with, so the two never run at once on one database.
const ADVISORY_LOCK_KEY = 72707369;

export async function applyMigrations(db: SqlRunner, log: (line: string) => void = () => {}): Promise<string[]> {
  const names = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  await db.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
  try {
    await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = new Set(
      (await db.query<{ migration_name: string }>(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      )).map((row) => row.migration_name),
    );
    const applied: string[] = [];
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      // One transaction per migration: a failure leaves the database as it was before it.
      await db.exec(`BEGIN;\n${sql}\n;COMMIT;`).catch(async (error) => {
        await db.exec('ROLLBACK').catch(() => {});
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
      });
      await db.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), checksum, name],
      );
      applied.push(name);
      log(`applied migration ${name}`);
    }
    return applied;
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
  }
}
