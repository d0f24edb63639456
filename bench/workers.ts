// POST /messages through `main.ts` as operators run it with PARLEY_WORKERS=1 and with N workers
// (server/workers.ts), on the benchmark's PostgreSQL database and a Redis, with the same clients:
// how far more processes on one port multiply the throughput. Both runs share events, queues and
// rate-limit counters through Redis, so they differ only in the number of workers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { LoadResult } from './load.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface WorkersResult {
  workers: number;
  one: LoadResult;
  many: LoadResult;
}

interface Cluster {
  baseUrl: string;
  stop(): Promise<void>;
}

async function startCluster(workers: number, env: Record<string, string>): Promise<Cluster> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
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

async function dropKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Runs `load` (warm-up included) against PARLEY_WORKERS=1, then PARLEY_WORKERS=`workers`, each a
 * fresh `main.ts` on `databaseUrl` (users and channel already there) and `redisUrl`.
 */
export async function benchWorkers(options: {
  databaseUrl: string;
  redisUrl: string;
  workers: number;
  ownerEmail: string;
  load: (baseUrl: string) => Promise<LoadResult>;
  log: (line: string) => void;
}): Promise<WorkersResult> {
  const prefix = `parley-bench-${randomBytes(4).toString('hex')}:`;
  const env = { DATABASE_URL: options.databaseUrl, REDIS_URL: options.redisUrl, PARLEY_REDIS_PREFIX: prefix, PARLEY_ADMIN_EMAIL: options.ownerEmail };
  const measure = async (workers: number) => {
    const cluster = await startCluster(workers, env);
    try {
      const result = await options.load(cluster.baseUrl);
      options.log(`  PARLEY_WORKERS=${workers}: ${Math.round(result.perSecond)} msg/s`);
      return result;
    } finally {
      await cluster.stop();
    }
  };
  try {
    const one = await measure(1);
    const many = await measure(options.workers);
    return { workers: options.workers, one, many };
  } finally {
    await dropKeys(options.redisUrl, prefix).catch(() => {});
  }
}
