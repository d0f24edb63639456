// PostgreSQL scratch databases for test files, named after the run so the global teardown
// (global-setup.ts) drops any a file left behind.
import { inject } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../prisma/scratch-database.ts';
import { runDatabasePrefix } from './global-setup.ts';

/** A new database for a test file: a copy of the run's migrated template (global-setup.ts). */
export function testDatabase(baseUrl: string, kind = 'db'): Promise<ScratchDatabase> {
  return createScratchDatabase(baseUrl, `${runDatabasePrefix(inject('testRun'))}_${kind}`, inject('pgTemplate') || undefined);
}
