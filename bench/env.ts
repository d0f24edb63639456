// Benchmark settings from the environment, shared by every benchmark.
export const env = process.env;

/** A non-negative integer setting, or `fallback` when unset. */
export function intEnv(name: string, fallback: number): number {
  const value = env[name];
  if (value == null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}
