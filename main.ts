// Entry point: `npm start` (`node --max-semi-space-size=64 --import tsx main.ts`: no wrapper process
// between the signals and this one, so nothing can kill it while it saves its event queues).
// V8's young generation is sized up from Node 20's 16 MiB semi-spaces to 64 MiB: a long-poll lives
// about as long as the gap between two events (~100 ms under a fan-out), so with small semi-spaces
// every scavenge finds the waiting polls alive, copies them and then promotes them, and the
// old-generation collector pays for their death. With 64 MiB, most polls are answered before the
// next scavenge: in bench/events.ts's REST fan-out, garbage collection fell from 34–36% of the
// server's CPU to 21%. PARLEY_WORKERS' workers inherit the flag (node:cluster forks with execArgv).
import { resolve } from 'node:path';
import { configFromEnv, type Config } from './server/config.ts';
import { bindHttp, createParleyServer, type HttpFront, type ParleyServer } from './server/app.ts';
import { isWorkersPrimary, onPrimaryGone, processLabel, reportListening, runPrimary, workersProblem } from './server/workers.ts';

const label = processLabel();
const log = (line: string) => console.log(`[${label}] ${line}`);
const config = configFromEnv();

/** A URL without its credentials, for start-up lines. */
function withoutCredentials(url: string, defaultPort: number): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || defaultPort}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return '(unparsable URL)';
  }
}

function startupLines(config: Config, port: number): string[] {
  const loopbackOrAll = ['127.0.0.1', '::1', '0.0.0.0', '::'].includes(config.bindAddress);
  const host = loopbackOrAll ? 'localhost' : config.bindAddress.includes(':') ? `[${config.bindAddress}]` : config.bindAddress;
  const base = `http://${host}:${port}`;
  const reach = config.bindAddress === '127.0.0.1' || config.bindAddress === '::1' ? 'this machine only; PARLEY_BIND=0.0.0.0 for every interface' : 'PARLEY_BIND';
  return [
    `database: ${config.databaseUrl ? `PostgreSQL at ${withoutCredentials(config.databaseUrl, 5432)}` : `PGlite in ${resolve(config.dataDir)}`}`,
    `event queues: ${config.redisUrl ? `shared via Redis at ${withoutCredentials(config.redisUrl, 6379)}` : 'in-process (set REDIS_URL to share them between server processes)'}`,
    `listening on ${config.bindAddress.includes(':') ? `[${config.bindAddress}]` : config.bindAddress}:${port} (${reach})`,
    `REST API: ${base}/api/v1   GraphQL and GraphiQL: ${base}/graphql`,
  ];
}

const problem = workersProblem(config);
if (problem) {
  console.error(`[parley] cannot start: ${problem}`);
  process.exit(1);
}
if (isWorkersPrimary(config)) runPrimary(config, log, (port) => startupLines(config, port));
else await serve();

/** One server process: the only one, or one of PARLEY_WORKERS. */
async function serve(): Promise<void> {
  // Signals are taken from the start: one arriving while the server starts stops it once it can.
  let stopRequested: NodeJS.Signals | null = null;
  let stop: ((signal: NodeJS.Signals) => Promise<void>) | null = null;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopRequested) {
        log(`${signal}: still saving, please wait`);
        return;
      }
      stopRequested = signal;
      void stop?.(signal);
    });
  }
  // A worker whose primary is gone (killed) stops as if told to.
  onPrimaryGone(() => { if (!stopRequested) process.emit('SIGTERM', 'SIGTERM'); });

  // The port first: a process that cannot listen stops before it opens the database, so it neither
  // migrates it nor takes the event queues a previous run saved there.
  let front: HttpFront;
  try {
    front = await bindHttp(config.port, config.bindAddress);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE' ? `port ${config.port} on ${config.bindAddress} is already in use (another server running? set PORT)`
      : code === 'EADDRNOTAVAIL' ? `${config.bindAddress} is not an address of this machine (PARLEY_BIND)`
      : code === 'EACCES' ? `no permission to listen on port ${config.port} (PORT)`
      : (error as Error).message;
    console.error(`[${label}] cannot start: ${reason}`);
    process.exit(1);
  }
  let server: ParleyServer;
  let port: number;
  try {
    server = await createParleyServer(config, log, front);
    port = await server.listen();
  } catch (error) {
    console.error(`[${label}] cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  if (config.workers > 1) reportListening(port);
  else for (const line of startupLines(config, port)) log(line);

  stop = async (signal) => {
    log(`${signal}: shutting down (answering long-polls, saving event queues)`);
    let exitCode = 0;
    try {
      await server.close();
      log('stopped');
    } catch (error) {
      console.error(error);
      exitCode = 1;
    }
    process.exit(exitCode);
  };
  if (stopRequested) await stop(stopRequested);
}
