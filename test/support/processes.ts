// Real server processes (`node --import tsx main.ts`) for the multi-process tests: several servers
// on one PostgreSQL database and one Redis, as a deployment runs them.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  output: string[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `main.ts` on a free port with `env` added to this process's; resolves once it listens.
 * `command` runs it another way (`['npm', 'start']`, as the README says).
 */
export async function startServerProcess(name: string, env: Record<string, string | undefined>, command = [process.execPath, '--import', 'tsx', 'main.ts']): Promise<ServerProcess> {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Rate limits are off unless the test turns them on (PARLEY_RATE_LIMITING=1).
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', PARLEY_RATE_LIMITING: '0', ...env },
  });
  const output: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output.join('')}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /REST API: http:\/\/[^\s]+:(\d+)\/api\/v1/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${output.join('')}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output,
    stop: async () => {
      if (child.exitCode == null) child.kill('SIGTERM');
      return exited;
    },
  };
}
