// POST /messages through `main.ts` as operators run it with PARLEY_WORKERS=1 and with N workers
// (server/workers.ts), on the benchmark's PostgreSQL database and a Redis, with the same clients:
// how far more processes on one port multiply the throughput. Both runs share events, queues and
// rate-limit counters through Redis, so they differ only in the number of workers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { LoadResult } from './load.ts';
import { serverNodeFlags } from './env.ts';
// The test suite's own clean-up of a Redis key prefix (bench and tests are both development tools).
import { dropRedisKeys } from '../test/support/redis.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface WorkersResult {
  workers: number;
  one: LoadResult;
  many: LoadResult;
  /** CPU milliseconds per message in the one-worker run, by process (Linux /proc; null elsewhere). */
  cpuPerMessage: CpuShare | null;
}

/** CPU time (ms) spent by each party of a run. */
export interface CpuShare {
  parley: number;
  postgres: number;
  redis: number;
  /** This process: the load generator's client threads (and the bench's own bookkeeping). */
  clients: number;
}

// Where the CPU goes: with N cores, no number of workers can send more than N seconds of CPU a
// second divided by the CPU all parties spend per message, so the one-worker run's CPU split gives
// goal 4's ceiling on the machine it ran on.

const TICKS_PER_SECOND = 100; // USER_HZ on Linux, the unit of /proc/<pid>/stat's times

interface ProcInfo { pid: number; ppid: number; comm: string; cpuMs: number }

function processes(): ProcInfo[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const found: ProcInfo[] = [];
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm is in parentheses and may hold spaces; the fields after it are space-separated.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
      found.push({ pid: Number(entry), ppid: Number(fields[1]), comm: stat.slice(stat.indexOf('(') + 1, close), cpuMs: (ticks * 1000) / TICKS_PER_SECOND });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function cpuSnapshot(rootPid: number): CpuShare | null {
  const all = processes();
  if (!all) return null;
  const parley = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!parley.has(p.pid) && parley.has(p.ppid)) { parley.add(p.pid); grew = true; }
  }
  const sum = (keep: (p: ProcInfo) => boolean) => all.filter(keep).reduce((total, p) => total + p.cpuMs, 0);
  const own = process.cpuUsage();
  return {
    parley: sum((p) => parley.has(p.pid)),
    postgres: sum((p) => p.comm === 'postgres'),
    redis: sum((p) => p.comm.startsWith('redis-server')),
    clients: (own.user + own.system) / 1000,
  };
}

/** The messages per second `cores` cores can carry at this CPU cost per message, whatever the workers. */
export function cpuCeiling(perMessage: CpuShare, cores = os.cpus().length): number {
  return (cores * 1000) / (perMessage.parley + perMessage.postgres + perMessage.redis + perMessage.clients);
}

interface Cluster {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

async function startCluster(workers: number, env: Record<string, string>): Promise<Cluster> {
  const child: ChildProcess = spawn(process.execPath, [...serverNodeFlags(), '--import', 'tsx', 'main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', PARLEY_WORKERS: String(workers), PARLEY_RATE_LIMITING: '0', ...env },
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PARLEY_WORKERS=${workers} did not start:\n${output}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /REST API: http:\/\/[^\s]+:(\d+)\/api\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PARLEY_WORKERS=${workers} exited with ${code}:\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode == null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Whether Redis answers at `url` (a benchmark without one skips this part). */
export async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Runs `warmUp` then `load` against PARLEY_WORKERS=1, then PARLEY_WORKERS=`workers`, each a
 * fresh `main.ts` on `databaseUrl` (users and channel already there) and `redisUrl`; the one-worker
 * run's `load` is also measured in CPU time per message, by process.
 */
export async function benchWorkers(options: {
  databaseUrl: string;
  redisUrl: string;
  workers: number;
  ownerEmail: string;
  warmUp: (baseUrl: string) => Promise<unknown>;
  load: (baseUrl: string) => Promise<LoadResult>;
  log: (line: string) => void;
}): Promise<WorkersResult> {
  const prefix = `parley-bench-${randomBytes(4).toString('hex')}:`;
  const env = { DATABASE_URL: options.databaseUrl, REDIS_URL: options.redisUrl, PARLEY_REDIS_PREFIX: prefix, PARLEY_ADMIN_EMAIL: options.ownerEmail };
  let cpuPerMessage: CpuShare | null = null;
  const measure = async (workers: number) => {
    const cluster = await startCluster(workers, env);
    try {
      await options.warmUp(cluster.baseUrl);
      const before = cpuSnapshot(cluster.pid);
      const result = await options.load(cluster.baseUrl);
      const after = cpuSnapshot(cluster.pid);
      options.log(`  PARLEY_WORKERS=${workers}: ${Math.round(result.perSecond)} msg/s`);
      if (workers === 1 && before && after && result.count) {
        const per = (key: keyof CpuShare) => (after[key] - before[key]) / result.count;
        cpuPerMessage = { parley: per('parley'), postgres: per('postgres'), redis: per('redis'), clients: per('clients') };
      }
      return result;
    } finally {
      await cluster.stop();
    }
  };
  try {
    const one = await measure(1);
    const many = await measure(options.workers);
    return { workers: options.workers, one, many, cpuPerMessage };
  } finally {
    await dropRedisKeys(options.redisUrl, prefix).catch(() => {});
  }
}
