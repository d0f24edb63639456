// Rows read with `to_jsonb(...)` in raw queries (used on hot paths, where one raw statement replaces
// several model queries) carry timestamps as text; these give them back their Date fields.

/** PostgreSQL's timestamp(3) has no zone; Prisma stores UTC. */
export function reviveTimestamps<T>(row: T, fields: (keyof T)[]): T {
  for (const field of fields) {
    const value = row[field] as unknown;
    if (typeof value === 'string') (row as Record<keyof T, unknown>)[field] = new Date(value.endsWith('Z') ? value : `${value}Z`);
  }
  return row;
}
