// One Parley server in a child process of bench/events.ts, so its memory (RSS) and file descriptors
// are its own and the benchmark's clients run on the other core. Started with
// `node --expose-gc --import tsx bench/events-server.ts`, configured through BENCH_SERVER_CONFIG
// (JSON, merged over configFromEnv({})), and driven over the IPC channel:
//   → { id, cmd: 'stats' | 'gc' | 'sql' | 'profileStart' | 'profileStop' | 'traceTake' | 'stop', ... }
//   ← { id, ok, result } or { id, ok: false, error }
// It reports { ready: port } once listening.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector';
import { findSourceMap } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createParleyServer } from '../server/app.ts';
import { configFromEnv, type Config } from '../server/config.ts';

const send = (message: unknown) => process.send!(message);
const overrides = JSON.parse(process.env.BENCH_SERVER_CONFIG ?? '{}') as Partial<Config>;
// Measures the server, not its rate limits.
const config: Config = { ...configFromEnv({ PARLEY_RATE_LIMITING: '0' }), port: 0, logRequests: false, ...overrides };
const server = await createParleyServer(config, (line) => process.stderr.write(`[server ${process.pid}] ${line}\n`));
const port = await server.listen(0, '127.0.0.1');

/** The in-memory registry's queues (undefined for other registries): private fields, read for the benchmark only. */
function memoryQueues(): { waiters?: Set<unknown> }[] | undefined {
  const map = (server.queues as unknown as { queues?: Map<string, { waiters?: Set<unknown> }> }).queues;
  return map instanceof Map ? [...map.values()] : undefined;
}

// --- With BENCH_WS_TRACE=1, when each fan-out message was published and when its graphql-ws frames
// (or long-poll answers) were handed to each socket and written: separates the server's share of a delivery's latency from
// the client's. Times are absolute (timeOrigin + now), comparable with the benchmark process's.
const trace = { publishing: [] as [number, number][], published: [] as [number, number][], sent: [] as [number, number][], written: [] as [number, number][] };
const clock = () => performance.timeOrigin + performance.now();
/** The k of FANOUT_TEXT(k) in `text`, or -1. */
function fanoutTag(text: string): number {
  const at = text.indexOf('fanout ');
  if (at < 0) return -1;
  const k = parseInt(text.slice(at + 7, at + 14), 10);
  return Number.isNaN(k) ? -1 : k;
}
if (process.env.BENCH_WS_TRACE === '1') {
  const publish = server.events.publish.bind(server.events);
  server.events.publish = (realmId, userIds, event) => {
    if (event.type === 'message') {
      const k = fanoutTag((event as { message?: { content?: string } }).message?.content ?? '');
      if (k >= 0) trace.publishing.push([k, clock()]);
    }
    publish(realmId, userIds, event);
  };
  // Subscribed after the queue registry: noted once every queue has the event.
  server.events.subscribe((delivery) => {
    const message = (delivery.event as { type: string; message?: { content?: string } });
    if (message.type === 'message') {
      const k = fanoutTag(message.message?.content ?? '');
      if (k >= 0) trace.published.push([k, clock()]);
    }
  });
  // REST long-polls: each answer handed to its socket (ServerResponse.end) and written.
  const end = http.ServerResponse.prototype.end;
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, chunk?: unknown, encoding?: unknown, cb?: () => void) {
    const k = typeof chunk === 'string' && chunk.startsWith('{"result":"success"') ? fanoutTag(chunk) : -1;
    if (k < 0) return end.call(this, chunk as never, encoding as never, cb as never);
    if (typeof encoding === 'function') { cb = encoding as typeof cb; encoding = undefined; }
    trace.sent.push([k, clock()]);
    return end.call(this, chunk as never, (encoding ?? 'utf8') as never, () => {
      trace.written.push([k, clock()]);
      cb?.();
    });
  } as typeof end;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data: unknown, options?: unknown, cb?: (error?: Error) => void) {
    if (typeof options === 'function') { cb = options as typeof cb; options = undefined; }
    const k = typeof data === 'string' ? fanoutTag(data) : -1;
    if (k < 0) return send.call(this, data as never, options as never, cb as never);
    trace.sent.push([k, clock()]);
    return send.call(this, data as never, (options ?? {}) as never, (error?: Error) => {
      trace.written.push([k, clock()]);
      cb?.(error);
    });
  } as typeof send;
}

function traceTake() {
  const taken = { ...trace };
  trace.publishing = [];
  trace.published = [];
  trace.sent = [];
  trace.written = [];
  return taken;
}

let eluMark = performance.eventLoopUtilization();

async function stats() {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const queues = memoryQueues();
  const connections = await new Promise<number>((resolve) => server.httpServer.getConnections((_e, n) => resolve(n ?? -1)));
  const elu = performance.eventLoopUtilization(eluMark);
  eluMark = performance.eventLoopUtilization();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    queues: queues?.length ?? -1,
    /** Queues with a poll or a subscription waiting on them. */
    waiting: queues ? queues.filter((q) => q.waiters && q.waiters.size > 0).length : -1,
    connections,
    /** Event-loop utilisation since the previous stats call. */
    busy: elu.utilization,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

async function collectGarbage() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// --- CPU profile of this process, summarised by function (self and inclusive time)
let session: Session | null = null;
const post = <T>(method: string, params?: object) =>
  new Promise<T>((resolve, reject) => session!.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

function frameName(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return frame.functionName || '(anonymous)';
  let file = frame.url;
  let line = frame.lineNumber + 1;
  try {
    // tsx loads TypeScript with inline source maps: report the original line.
    const entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalLine?: number; originalSource?: string } | undefined;
    if (entry?.originalSource && entry.originalLine != null) {
      file = entry.originalSource;
      line = entry.originalLine + 1;
    }
  } catch { /* keep the generated position */ }
  if (file.startsWith('file://')) file = fileURLToPath(file);
  const root = fileURLToPath(new URL('..', import.meta.url));
  file = file.startsWith(root) ? file.slice(root.length) : file;
  file = file.replace(/^.*node_modules\//, 'node_modules/');
  return `${frame.functionName || '(anonymous)'} ${file}:${line}`;
}

function summarise(profile: Profile, top: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const names = new Map<number, string>();
  const nameOf = (id: number) => {
    let name = names.get(id);
    if (name === undefined) names.set(id, (name = frameName(byId.get(id)!.callFrame)));
    return name;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((leaf, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const leafName = nameOf(leaf);
    if (leafName.startsWith('(idle)')) { idle += ms; return; }
    self.set(leafName, (self.get(leafName) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id != null; id = parent.get(id)) {
      const name = nameOf(id);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  });
  const sorted = (map: Map<string, number>, filter: (name: string) => boolean = () => true) =>
    [...map].filter(([name]) => filter(name)).sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms }));
  const ours = (name: string) => / (server|resolvers|rest-facade|schema|prisma)\/[^ ]*\.ts:\d+$/.test(name) && !name.includes('node_modules');
  // Self time per package or project directory: where the CPU went, coarsely.
  const byArea = new Map<string, number>();
  for (const [name, ms] of self) {
    const file = name.slice(name.lastIndexOf(' ') + 1);
    const area = !name.includes(' ') || name.startsWith('(') ? name
      : file.startsWith('node_modules/') ? file.split('/').slice(0, file.split('/')[1]!.startsWith('@') ? 3 : 2).join('/')
      : file.startsWith('node:') ? 'node internals'
      : file.includes('/') ? `${file.split('/')[0]}/` : file;
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
  }
  return {
    totalMs: total,
    idleMs: idle,
    self: sorted(self),
    inclusiveProject: sorted(inclusive, ours),
    areas: sorted(byArea),
  };
}

async function profileStart() {
  session = new Session();
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
}

async function profileStop(top: number) {
  const { profile } = await post<{ profile: Profile }>('Profiler.stop');
  session!.disconnect();
  session = null;
  // The whole profile, for DevTools or a closer look than the summary's tables.
  if (process.env.BENCH_PROFILE_SAVE) writeFileSync(`${process.env.BENCH_PROFILE_SAVE}-${process.pid}-${Date.now()}.cpuprofile`, JSON.stringify(profile));
  return summarise(profile, top);
}

// --- Commands

async function dropAllQueues() {
  const map = (server.queues as unknown as { queues?: Map<string, unknown> }).queues;
  if (!(map instanceof Map)) return;
  for (const queue of [...map.values()]) await server.queues.delete(queue as never);
}

process.on('message', async (message: { id: number; cmd: string; sql?: string; params?: unknown[]; top?: number }) => {
  try {
    let result: unknown;
    switch (message.cmd) {
      case 'stats': result = await stats(); break;
      case 'gc': await collectGarbage(); result = await stats(); break;
      case 'sql': result = await server.database.prisma.$queryRawUnsafe(message.sql!, ...(message.params ?? [])); break;
      case 'dropQueues': await dropAllQueues(); result = true; break;
      case 'profileStart': await profileStart(); result = true; break;
      case 'profileStop': result = await profileStop(message.top ?? 15); break;
      case 'traceTake': result = traceTake(); break;
      case 'stop':
        // No queue is saved for the next server: each measurement starts from an empty registry.
        await dropAllQueues();
        await server.close();
        send({ id: message.id, ok: true, result: true });
        process.disconnect();
        setTimeout(() => process.exit(0), 100).unref();
        return;
      default: throw new Error(`unknown command ${message.cmd}`);
    }
    // BigInt (count(*)) does not survive the IPC channel's JSON.
    send({ id: message.id, ok: true, result: JSON.parse(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))) });
  } catch (error) {
    send({ id: message.id, ok: false, error: String((error as Error)?.stack ?? error) });
  }
});

send({ ready: port, pid: process.pid });
