// Sends what issue 12 measured: rounds of 16 concurrent 19 MB bodies without valid credentials, to
// POST /api/v1/messages (urlencoded), POST /api/v1/user_uploads (multipart) and POST /graphql
// (JSON), over kept-alive and closing connections, and reports the server's RSS (from /proc) before,
// at its peak and after, and how long the refusals took. The server runs as its own process
// (main.ts on a throw-away PGlite directory), so the figures are its own.
//
//   npx tsx scripts/hostile/large-bodies.ts            (ROUNDS=5 CONCURRENCY=16 BODY_MB=19)
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../../test/support/processes.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const BODY = Number(process.env.BODY_MB ?? 19) * 1000 * 1000;

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

interface Target { name: string; path: string; headers: Record<string, string> }

const boundary = 'hostileboundary';
const targets: Target[] = [
  { name: 'REST urlencoded, no credentials', path: '/api/v1/messages', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { name: 'REST urlencoded, wrong API key', path: '/api/v1/messages', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic ' + Buffer.from('admin@parley.local:' + 'x'.repeat(32)).toString('base64') } },
  { name: 'REST multipart upload, no credentials', path: '/api/v1/user_uploads', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
  { name: 'GraphQL JSON, no credentials', path: '/graphql', headers: { 'content-type': 'application/json' } },
];

/** Sends one body of BODY bytes in 1 MB writes; resolves with the status and the time to the answer. */
function send(baseUrl: string, target: Target, agent: http.Agent | false, chunk: Buffer): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let answered: { status: number; ms: number } | null = null;
    const req = http.request(`${baseUrl}${target.path}`, { method: 'POST', agent, headers: { ...target.headers, 'content-length': String(BODY) } }, (res) => {
      answered = { status: res.statusCode!, ms: performance.now() - started };
      res.resume();
      res.on('end', () => resolve(answered!));
    });
    // A closed connection ends the writes; the answer, when it came, is what counts.
    req.on('error', () => resolve(answered ?? { status: 0, ms: performance.now() - started }));
    let sent = 0;
    const pump = () => {
      if (req.destroyed) return;
      if (sent >= BODY) return req.end();
      const piece = chunk.subarray(0, Math.min(chunk.length, BODY - sent));
      sent += piece.length;
      req.write(piece, () => setImmediate(pump));
    };
    pump();
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'parley-bodies-'));
const server = await startServerProcess('large-bodies', { PARLEY_DATA_DIR: dataDir, PARLEY_ADMIN_PASSWORD: 'hostile-bodies' });
const pid = server.child.pid!;
try {
  const chunk = Buffer.alloc(1000 * 1000, 'a');
  await new Promise((r) => setTimeout(r, 1000));
  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, rssMiB(pid)); }, 20);
  console.log(`server pid ${pid}; RSS before: ${before.toFixed(0)} MiB; ${ROUNDS} rounds × ${CONCURRENCY} concurrent bodies of ${BODY / 1e6} MB per target and connection kind`);
  for (const target of targets) {
    for (const keepAlive of [true, false]) {
      const statuses = new Map<number, number>();
      const times: number[] = [];
      const targetPeakStart = peak;
      for (let round = 0; round < ROUNDS; round++) {
        const agent = keepAlive ? new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }) : false;
        const results = await Promise.all(Array.from({ length: CONCURRENCY }, () => send(server.baseUrl, target, agent, chunk)));
        if (agent) agent.destroy();
        for (const r of results) {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          times.push(r.ms);
        }
      }
      times.sort((a, b) => a - b);
      const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0);
      console.log(`${target.name} (${keepAlive ? 'kept alive' : 'Connection: close'}): statuses ${JSON.stringify(Object.fromEntries(statuses))}; answer p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; RSS peak ${peak.toFixed(0)} MiB (was ${targetPeakStart.toFixed(0)})`);
    }
  }
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 1000));
  const total = targets.length * 2 * ROUNDS * CONCURRENCY;
  console.log(`${total} bodies (${((total * BODY) / 1e9).toFixed(1)} GB offered); RSS before ${before.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, after ${rssMiB(pid).toFixed(0)} MiB`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
