import { spawn } from 'node:child_process';
import pg from 'pg';
import { ApiClient } from '../test/support/client.ts';
const base = 'postgresql://postgres@127.0.0.1:5432/test';
const name = `parley_latency_${process.pid}`;
const admin = async (sql: string) => { const c = new pg.Client({ connectionString: base }); await c.connect(); await c.query(sql); await c.end(); };
await admin(`CREATE DATABASE ${name}`);
const prefix = `parley-latency-${process.pid}:`;
const procs: any[] = [];
async function start(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], { env: { ...process.env, PORT: '0', DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${name}`, REDIS_URL: 'redis://127.0.0.1:6379', PARLEY_REDIS_PREFIX: prefix, PARLEY_ADMIN_EMAIL: 'o@example.com', PARLEY_ADMIN_PASSWORD: 'pw' }, stdio: ['ignore', 'pipe', 'inherit'] });
  procs.push(child);
  let out = '';
  return new Promise((resolve) => child.stdout!.on('data', (d) => { out += d; const m = /listening on http:\/\/localhost:(\d+)/.exec(out); if (m) resolve(`http://127.0.0.1:${m[1]}`); }));
}
try {
  const A = await start(); const B = await start();
  const key = (await new ApiClient(A).post('/fetch_api_key', { username: 'o@example.com', password: 'pw' })).body;
  const owner = { email: key.email, apiKey: key.api_key, userId: key.user_id };
  await new ApiClient(A, owner).post('/users', { email: 'bob@example.com', password: 'pw-bob', full_name: 'Bob' });
  const bk = (await new ApiClient(A).post('/fetch_api_key', { username: 'bob@example.com', password: 'pw-bob' })).body;
  const bob = { email: bk.email, apiKey: bk.api_key, userId: bk.user_id };
  async function run(pollOn: string, sendOn: string, n: number) {
    const q = (await new ApiClient(pollOn, bob).post('/register', { event_types: ['message'], fetch_event_types: ['realm'] })).body.queue_id;
    let last = -1; const deliver: number[] = []; const sendDur: number[] = [];
    for (let i = 0; i < n; i++) {
      const poll = new ApiClient(pollOn, bob, undefined, false).get('/events', { queue_id: q, last_event_id: last });
      await new Promise((r) => setTimeout(r, 20));
      const t0 = performance.now();
      let tPoll = 0;
      poll.then(() => { tPoll = performance.now(); });
      await new ApiClient(sendOn, owner, undefined, false).post('/messages', { type: 'direct', to: [bob.userId], content: `m${i}` });
      const tSend = performance.now();
      const res = await poll;
      last = res.body.events.at(-1).id;
      deliver.push(tPoll - t0); sendDur.push(tSend - t0);
    }
    const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return `p50 ${s[Math.floor(s.length / 2)]!.toFixed(2)} ms, p95 ${s[Math.floor(s.length * 0.95)]!.toFixed(2)} ms`; };
    return `send request: ${med(sendDur)}; poll answered (from send start): ${med(deliver)}`;
  }
  await run(A, B, 20); // warm-up
  console.log('same process (poll A, send A):', await run(A, A, 200));
  console.log('cross process (poll A, send B):', await run(A, B, 200));
} finally {
  for (const p of procs) p.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 2000));
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
