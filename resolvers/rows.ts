// Database row helpers: ID checks, case-insensitive matching, and rows read with `to_jsonb(...)` in
// raw queries (used on hot paths, where one raw statement replaces several model queries), which
// carry timestamps as text.

/** PostgreSQL's timestamp(3) has no zone; Prisma stores UTC. */
export function reviveTimestamps<T>(row: T, fields: (keyof T)[]): T {
  for (const field of fields) {
    const value = row[field] as unknown;
    if (typeof value === 'string') (row as Record<keyof T, unknown>)[field] = new Date(value.endsWith('Z') ? value : `${value}Z`);
  }
  return row;
}

/**
 * For Prisma's case-insensitive `equals`, which PostgreSQL runs as ILIKE: escapes the pattern
 * characters so that `gen%` or `a_b` match only themselves.
 */
export function exactInsensitive(value: string): { equals: string; mode: 'insensitive' } {
  return { equals: value.replace(/[\\%_]/g, (c) => `\\${c}`), mode: 'insensitive' };
}

/** Every ID column is a 32-bit serial: anything else cannot name a row (and would fail in SQL). */
export function isDbId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647;
}
