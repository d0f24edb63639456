// Runs the load generator (bench/load-worker.mjs) in a worker thread and summarises its samples.
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** `{n}` is replaced by the request number, `{t}` by n % 50. */
  path: string;
  headers: Record<string, string>;
  body?: string | null;
}

export interface LoadOptions {
  baseUrl: string;
  concurrency: number;
  total: number;
  /** Stop early (and report fewer requests) after this long. */
  maxSeconds?: number;
  clients: RequestSpec[];
}

export interface LoadResult {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  mean: number;
  errors: number;
  firstError: string | null;
  /** Event-loop utilisation of the calling (server's) thread during the run, 0–1. */
  mainThreadBusy: number;
}

/** Nearest-rank percentile over all samples. */
export function percentile(sorted: Float64Array | number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const elu = performance.eventLoopUtilization();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { ...options, maxSeconds: options.maxSeconds ?? 0 },
    });
    worker.once('error', reject);
    worker.once('message', (msg: { latencies: Float64Array; seconds: number; errors: number; firstError: string | null }) => {
      const sorted = Float64Array.from(msg.latencies).sort();
      const sum = sorted.reduce((a, b) => a + b, 0);
      resolve({
        count: sorted.length,
        seconds: msg.seconds,
        perSecond: sorted.length / msg.seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        mean: sorted.length ? sum / sorted.length : NaN,
        errors: msg.errors,
        firstError: msg.firstError,
        mainThreadBusy: performance.eventLoopUtilization(elu).utilization,
      });
      void worker.terminate();
    });
  });
}

export function basicAuth(email: string, apiKey: string): string {
  return 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64');
}
