// The background jobs every server process runs on a timer (scheduled-message delivery, full
// member promotion): one run at a time in the process, a failed run logged and the next one
// scheduled all the same; stopping waits for the run under way.

export interface PeriodicJob {
  /** Runs the job now, after the run under way; resolves with the run's count. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts `run` every `intervalMs` (0: only when runNow is called). `run` is told whether the job
 * was stopped, so a long run can end early.
 */
export function startPeriodicJob(
  name: string, intervalMs: number, log: (line: string) => void, run: (stopped: () => boolean) => Promise<number>,
): PeriodicJob {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> = Promise.resolve(0);
  const isStopped = () => stopped;
  const runNow = (): Promise<number> => {
    running = running.catch(() => 0).then(() => run(isStopped));
    return running;
  };
  const tick = async () => {
    timer = null;
    try {
      await runNow();
    } catch (error) {
      log(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  if (intervalMs > 0) schedule();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running.catch(() => 0);
    },
  };
}
