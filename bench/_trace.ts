import pg from 'pg';
import http from 'node:http';
import { createParleyServer } from '../server/app.ts';
import { configFromEnv } from '../server/config.ts';
const log: string[] = []; let on = false;
const orig = pg.Client.prototype.query as any;
(pg.Client.prototype as any).query = function (...a: any[]) { if (on) log.push(typeof a[0] === 'string' ? a[0] : a[0]?.text ?? JSON.stringify(a[0])); return orig.apply(this, a); };
const name = 'parley_bench_trace_' + process.pid;
const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/test' }); await admin.connect(); await admin.query(`CREATE DATABASE ${name}`);
const server = await createParleyServer({ ...configFromEnv({}), port: 0, databaseUrl: `postgresql://postgres@127.0.0.1:5432/${name}`, adminEmail: 'o@bench.example.com', adminPassword: 'pw pw pw pw', realmName: 'B' }, () => {});
const port = await server.listen(0, '127.0.0.1');
function req(method: string, path: string, params: any, auth?: string): Promise<any> {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const headers: any = {}; if (auth) headers.authorization = auth;
  let url = `http://127.0.0.1:${port}/api/v1${path}`; let body;
  if (method === 'GET') url += '?' + form; else { body = form; headers['content-type'] = 'application/x-www-form-urlencoded'; }
  return new Promise((res, rej) => { const r = http.request(url, { method, headers }, (s) => { let t = ''; s.on('data', (c) => t += c); s.on('end', () => res(JSON.parse(t))); }); r.on('error', rej); if (body) r.write(body); r.end(); });
}
const k = await req('POST', '/fetch_api_key', { username: 'o@bench.example.com', password: 'pw pw pw pw' });
const auth = 'Basic ' + Buffer.from(`${k.email}:${k.api_key}`).toString('base64');
console.log(await req('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bench' }], principals: [k.user_id] }, auth));
for (let i = 0; i < 3; i++) await req('POST', '/messages', { type: 'stream', to: 'bench', topic: 't', content: 'hello ' + i }, auth);
on = true;
const r = await req('POST', '/messages', { type: 'stream', to: 'bench', topic: 't', content: 'hello world' }, auth);
on = false; console.log('POST', r, log.length); log.forEach((l, i) => console.log(i + 1, l.replace(/\s+/g, ' ').slice(0, 260))); log.length = 0;
on = true;
const g = await req('GET', '/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: 'bench' }, { operator: 'search', operand: 'hello' }] }, auth);
on = false; console.log('GET', g.messages.length, log.length); log.forEach((l, i) => console.log(i + 1, l.replace(/\s+/g, ' ').slice(0, 260)));
await server.close(); await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); await admin.end(); process.exit(0);
