// `npm start` as an operator meets it: a real server process on a PGlite data directory, its
// start-up lines, a port already in use, SIGTERM, and the next start finding the saved event queues.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient, type Credentials } from '../support/client.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'parley-process-'));
const OWNER = 'owner@example.com';
// Whatever the test run's settings, these processes use PGlite and in-process queues.
const ENV = { PARLEY_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', PARLEY_ADMIN_EMAIL: OWNER, PARLEY_HEARTBEAT_SECS: '30' };
const running = new Set<ServerProcess>();

async function start(env: Record<string, string> = {}, command?: string[]): Promise<ServerProcess> {
  const server = await startServerProcess('parley', { ...ENV, ...env }, command);
  running.add(server);
  return server;
}

async function stop(server: ServerProcess): Promise<number | null> {
  const code = await server.stop();
  running.delete(server);
  return code;
}

async function login(baseUrl: string, password: string): Promise<Credentials> {
  const key = await new ApiClient(baseUrl).post('/fetch_api_key', { username: OWNER, password });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
}

afterAll(async () => {
  for (const server of running) await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

let queueId: string;

describe('npm start', () => {
  it('says where its database is, how queues are kept and where its APIs are', async () => {
    const server = await start({ PARLEY_ADMIN_PASSWORD: 'first-password' });
    try {
      const port = new URL(server.baseUrl).port;
      const out = server.output.join('');
      expect(out).toContain(`[parley] created the organization "Parley"`);
      expect(out).toContain(`log in as ${OWNER} with the password in PARLEY_ADMIN_PASSWORD`);
      expect(out).toContain(`[parley] database: PGlite in ${dataDir}\n`);
      expect(out).toContain('[parley] event queues: in-process (set REDIS_URL to share them between server processes)\n');
      expect(out).toContain(`[parley] listening on 127.0.0.1:${port} (this machine only; PARLEY_BIND=0.0.0.0 for every interface)\n`);
      expect(out).toContain(`[parley] REST API: http://localhost:${port}/api/v1   GraphQL and GraphiQL: http://localhost:${port}/graphql\n`);

      // A queue with one event, to be found again after the restarts below.
      const client = new ApiClient(server.baseUrl, await login(server.baseUrl, 'first-password'));
      const reg = await client.post('/register', { event_types: ['message'] });
      expect(reg.status).toBe(200);
      queueId = reg.body.queue_id;
      const sent = await client.post('/messages', { type: 'direct', to: [client.credentials!.userId], content: 'before SIGTERM' });
      expect(sent.status).toBe(200);

      // SIGTERM answers an open long-poll, saves the queues and exits 0.
      const poll = client.get('/events', { queue_id: queueId, last_event_id: 0 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await stop(server)).toBe(0);
      const answered = await poll;
      expect(answered.status).toBe(200);
      // Answered at once (a heartbeat), not cut off.
      expect(answered.body.events).toEqual([{ type: 'heartbeat', id: 1 }]);
      expect(server.output.join('')).toContain('[parley] SIGTERM: shutting down');
      expect(server.output.join('')).toContain('[parley] stopped\n');
    } finally {
      if (running.has(server)) await stop(server);
    }
  }, 120_000);

  it('refuses a port in use in one line, exit code 1, before touching the database', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_OPTIONS: '', ...ENV, PORT: String(port) },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(`[parley] cannot start: port ${port} on 127.0.0.1 is already in use (another server running? set PORT)\n`);
      expect(stdout).toBe('');
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('finds the saved queue on the next start, and sets PARLEY_ADMIN_PASSWORD as the owner\'s password', async () => {
    const server = await start({ PARLEY_ADMIN_PASSWORD: 'second-password' });
    try {
      const out = server.output.join('');
      expect(out).toContain('[parley] restored 1 event queues');
      expect(out).toContain(`[parley] PARLEY_ADMIN_PASSWORD is now the password of ${OWNER}`);
      const refused = await new ApiClient(server.baseUrl).post('/fetch_api_key', { username: OWNER, password: 'first-password' });
      expect(refused.status).toBe(401);
      const client = new ApiClient(server.baseUrl, await login(server.baseUrl, 'second-password'));
      // The long-poll above acknowledged event 0; the heartbeat that answered it is still there.
      const events = await client.get('/events', { queue_id: queueId, last_event_id: 0, dont_block: true });
      expect(events.status).toBe(200);
      expect(events.body.events).toEqual([{ type: 'heartbeat', id: 1 }]);
      // New events continue the numbering.
      await client.post('/messages', { type: 'direct', to: [client.credentials!.userId], content: 'after restart' });
      const next = await client.get('/events', { queue_id: queueId, last_event_id: 1, dont_block: true });
      expect(next.body.events.map((e: { id: number; message: { content: string } }) => [e.id, e.message.content])).toEqual([[2, 'after restart']]);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  }, 120_000);

  it('through npm: SIGTERM to npm stops the server gracefully (npm runs it with exec, no shell between)', async () => {
    const server = await start({ PARLEY_ADMIN_PASSWORD: 'second-password' }, ['npm', 'start']);
    const port = Number(new URL(server.baseUrl).port);
    // The same password again is simply the password.
    expect(server.output.join('')).toContain(`[parley] log in as ${OWNER} with the password in PARLEY_ADMIN_PASSWORD\n`);
    expect(server.output.join('')).not.toContain('is now the password');
    expect(await stop(server)).toBe(0);
    expect(server.output.join('')).toContain('[parley] stopped\n');
    // Nothing left behind holding the port.
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  }, 120_000);
});
