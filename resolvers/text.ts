// Small text helpers shared across areas.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Length in Unicode code points, which is how Zulip counts its limits. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function truncateCodePoints(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
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
