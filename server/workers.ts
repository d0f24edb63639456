// PARLEY_WORKERS=N: N server processes on one port, through node:cluster. One process runs
// JavaScript on one core; requests (connections) are handed to the workers in turn by the primary,
// which serves nothing itself. The workers share what a request may need from another one through
// Redis (events, event queues, rate limits) and PostgreSQL, exactly as separate `npm start`
// processes behind a load balancer do, so several workers need REDIS_URL and DATABASE_URL.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';

/** Why the configuration cannot run `config.workers` workers, or null. */
export function workersProblem(config: Config): string | null {
  const n = config.workers;
  if (!Number.isInteger(n) || n < 1) return 'PARLEY_WORKERS must be a whole number, at least 1';
  if (n === 1) return null;
  const missing = [
    !config.redisUrl && 'REDIS_URL (the workers share events, event queues and rate limits through Redis)',
    !config.databaseUrl && 'DATABASE_URL (PGlite serves one process)',
  ].filter(Boolean);
  return missing.length ? `PARLEY_WORKERS=${n} needs ${missing.join(' and ')}` : null;
}

/** True in the process that starts the workers (PARLEY_WORKERS > 1), which serves no request itself. */
export function isWorkersPrimary(config: Config): boolean {
  return config.workers > 1 && cluster.isPrimary;
}

/** The log prefix of this process: `parley`, or `parley w2` in the second worker. */
export function processLabel(): string {
  return cluster.isWorker ? `parley w${cluster.worker!.id}` : 'parley';
}

/** What a worker tells the primary. */
type WorkerReport = { parley: 'listening'; port: number };

/** A worker reports that it listens (main.ts), instead of printing the start-up lines itself. */
export function reportListening(port: number): void {
  process.send?.({ parley: 'listening', port } satisfies WorkerReport);
}

/** In a worker: calls `stop` when the primary goes away without stopping it (killed). */
export function onPrimaryGone(stop: () => void): void {
  if (cluster.isWorker) process.once('disconnect', stop);
}

/**
 * Runs the primary: starts the first worker alone (it applies the migrations and creates the first
 * organization), then the others; prints the start-up lines once all listen. A worker that stops
 * unexpectedly is replaced; SIGINT or SIGTERM stops them all (each answers its long-polls first),
 * then this process. A worker that cannot start stops everything.
 */
export function runPrimary(config: Config, log: (line: string) => void, startupLines: (port: number) => string[]): void {
  let stopping = false;
  let started = false;
  const listening = new Set<Worker>();

  const stopAll = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    if (!workers.length) process.exit(exitCode);
    let remaining = workers.length;
    for (const worker of workers) {
      worker.once('exit', (code) => {
        if (code !== 0) exitCode ||= 1;
        if (--remaining === 0) {
          log('stopped');
          process.exit(exitCode);
        }
      });
      worker.process.kill('SIGTERM');
    }
  };

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: WorkerReport) => {
      if (message?.parley !== 'listening') return;
      listening.add(worker);
      if (!started && listening.size === 1 && Object.keys(cluster.workers ?? {}).length === 1) {
        // The database is ready: the others can start together.
        for (let i = 1; i < config.workers; i++) fork();
      }
      if (!started && listening.size === config.workers) {
        started = true;
        log(`${config.workers} worker processes (pids ${[...listening].map((w) => w.process.pid).join(', ')}) share the port`);
        for (const line of startupLines(message.port)) log(line);
      }
    });
    worker.once('exit', (code, signal) => {
      listening.delete(worker);
      if (stopping) return;
      if (!started) {
        console.error(`[parley] cannot start: worker ${worker.id} exited (${signal ?? code}) while starting`);
        stopAll(1);
        return;
      }
      log(`worker ${worker.id} (pid ${worker.process.pid}) exited (${signal ?? code}): starting another`);
      fork();
    });
    return worker;
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      log(`${signal}: stopping ${config.workers} workers (answering long-polls)`);
      stopAll(0);
    });
  }
  fork();
}
