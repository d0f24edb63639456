// Load generator, run in a worker thread so the HTTP clients do not share the server's event loop.
// `concurrency` clients each loop: take the next request number, send it, wait for the answer.
// Plain JavaScript on purpose: it needs no TypeScript loader inside the worker.
import { parentPort, workerData } from 'node:worker_threads';
import http from 'node:http';

/**
 * workerData: {
 *   baseUrl, concurrency, total, maxSeconds,
 *   clients: [{ method, path, headers, body }]   // in path/body `{n}` becomes the request number, `{t}` n % 50
 * }
 * Client i (0 ≤ i < concurrency) uses clients[i % clients.length].
 */
const { baseUrl, concurrency, total, maxSeconds, clients } = workerData;
const url = new URL(baseUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });

function send(spec, n) {
  const fill = (text) => text.replaceAll('{n}', String(n)).replaceAll('{t}', String(n % 50));
  const path = fill(spec.path);
  const body = spec.body == null ? null : Buffer.from(fill(spec.body));
  const headers = { ...spec.headers };
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      { host: url.hostname, port: url.port, method: spec.method, path, headers, agent },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const text = Buffer.concat(chunks).toString('utf8');
          let ok = res.statusCode === 200;
          if (ok) {
            try { ok = JSON.parse(text).result === 'success'; } catch { ok = false; }
          }
          resolve({ ms, ok, status: res.statusCode, text });
        });
      },
    );
    req.on('error', (error) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ok: false, status: 0, text: String(error) }));
    if (body) req.write(body);
    req.end();
  });
}

const latencies = new Float64Array(total);
let next = 0;
let done = 0;
let errors = 0;
let firstError = null;
const deadline = maxSeconds ? Date.now() + maxSeconds * 1000 : Infinity;

async function loop(i) {
  const spec = clients[i % clients.length];
  for (;;) {
    if (next >= total || Date.now() > deadline) return;
    const n = next++;
    const r = await send(spec, n);
    latencies[done++] = r.ms;
    if (!r.ok) {
      errors++;
      if (!firstError) firstError = `HTTP ${r.status}: ${r.text.slice(0, 300)}`;
    }
  }
}

const started = process.hrtime.bigint();
await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
agent.destroy();
parentPort.postMessage({ latencies: latencies.slice(0, done), seconds, errors, firstError });
