// Benchmark settings from the environment, shared by every benchmark.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const env = process.env;

/** A non-negative integer setting, or `fallback` when unset. */
export function intEnv(name: string, fallback: number): number {
  const value = env[name];
  if (value == null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

/**
 * The Node flags `npm start` gives the server (package.json's start script, e.g. V8's heap sizing):
 * every server measured here runs with them, as it runs in production.
 */
export function serverNodeFlags(): string[] {
  const start = (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const words = start.split(/\s+/);
  const flags: string[] = [];
  for (let i = words.indexOf('node') + 1; i > 0 && i < words.length && words[i]!.startsWith('--') && words[i] !== '--import'; i++) flags.push(words[i]!);
  return flags;
}
