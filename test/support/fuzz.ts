// Hostile requests for every REST route (from the route table) and every GraphQL Query and
// Mutation field (from the schema), generated from a seed: deeply nested JSON, lone surrogates,
// NUL, huge strings and numbers, wrong types, repeated fields, wrong content types, bodies in every
// encoding, with and without credentials. Used by test/rest/fuzz.test.ts (a few thousand, in the
// suite) and scripts/hostile/fuzz.ts (hundreds of thousands, on PGlite and PostgreSQL).
import {
  getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
  type GraphQLField, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { schema } from '../../schema/index.ts';
import { routes } from '../../rest-facade/routes.ts';
import { compileRoutes, type CompiledRoute } from '../../rest-facade/compile.ts';
import { rawRequest, type Credentials } from './client.ts';

/** Fields that would take the fuzzing callers themselves away (their account, their key). */
const SPARED = new Set(['deactivateOwnAccount', 'deactivateUser', 'regenerateApiKey', 'regenerateBotApiKey', 'deactivateBot']);

/** mulberry32: small, fast, good enough to pick cases reproducibly from a seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

/** Hostile text, as it would travel in a form field or a query string. */
function hostileString(rng: Rng): string {
  return pick(rng, [
    () => '',
    () => ' ',
    () => 'a\u0000b',
    () => '\ud800',
    () => 'x\udc00y',
    () => 'x'.repeat(pick(rng, [61, 1001, 10_001, 100_000, 1_000_000])),
    () => '𝄞'.repeat(pick(rng, [300, 601, 5000])),
    () => nested(pick(rng, [33, 1000, 20_000])),
    () => nested(pick(rng, [33, 5000]), '{"a":', '}').replace(/}$/, '1}'),
    () => '99999999999999999999999',
    () => '-2147483649',
    () => '2147483648',
    () => '1e308',
    () => '-0',
    () => 'NaN',
    () => '0x10',
    () => 'true',
    () => 'null',
    () => '[]',
    () => '{}',
    () => '[null]',
    () => '[1,"a",{}]',
    () => '{"__proto__":{"x":1}}',
    () => '["\\ud800"]',
    () => '"\\u0000"',
    () => '[' + '1,'.repeat(10_000) + '1]',
    () => '<script>alert(1)</script>',
    () => '../../etc/passwd',
    () => '%00',
    () => '\u202e\u200b\ufeff',
    () => String(Math.floor(rng() * 50)),
    () => 'general',
    () => '[{"name":"fuzz-' + Math.floor(rng() * 1e6) + '"}]',
    () => '[["channel","general"],["search","x"]]',
  ])();
}

/** A value of a JSON body: a hostile string, or a hostile JSON value of another type. */
function hostileJson(rng: Rng): unknown {
  return pick(rng, [
    () => hostileString(rng),
    () => 1e308,
    () => -1,
    () => 2 ** 53 + 1,
    () => 1.5,
    () => true,
    () => null,
    () => [],
    () => [hostileString(rng)],
    () => ({ [hostileString(rng)]: hostileString(rng) }),
    () => JSON.parse(nested(pick(rng, [33, 200]))),
    () => ({ a: { b: { c: '\u0000' } } }),
  ])();
}

export interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What was sent, to reproduce a failure. */
  label: string;
}

export interface FuzzCallers {
  baseUrl: string;
  /** Callers whose credentials may be sent (the first is the organization's owner). */
  callers: Credentials[];
}

const basic = (c: Credentials) => 'Basic ' + Buffer.from(`${c.email}:${c.apiKey}`).toString('base64');

let compiled: CompiledRoute[] | undefined;
export function restRoutes(): CompiledRoute[] {
  compiled ??= compileRoutes(schema, routes).filter((c) => !SPARED.has(c.route.field));
  return compiled;
}

/** A path segment from any text; a lone surrogate (which encodeURIComponent refuses) as its would-be UTF-8. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function pathFor(rng: Rng, entry: CompiledRoute): string {
  let path = entry.route.path;
  for (const name of entry.pathParamNames) {
    const param = entry.params.find((p) => p.wire === name)!;
    const value = param.decode === 'int'
      ? pick(rng, ['0', '1', '2', '-1', '2147483648', '99999999999999999999', String(Math.floor(rng() * 30))])
      : pick(rng, ['x', 'me', '%00', '%ED%A0%80', '%FF', '%', 'a'.repeat(5000), encodeSegment(hostileString(rng)).slice(0, 10_000), '1']);
    path = path.replace(new RegExp(`\\{${name}(:path)?\\}`), value);
  }
  return `/api/v1${path}`;
}

/** One hostile request for a REST route. */
export function restCase(rng: Rng, entry: CompiledRoute, { callers }: FuzzCallers): FuzzCase {
  const fields: [string, unknown][] = [];
  const wires = entry.params.filter((p) => !p.inPath && p.decode !== 'file').map((p) => p.wire);
  for (const wire of wires) if (rng() < 0.7) fields.push([wire, rng() < 0.8 ? hostileString(rng) : hostileJson(rng)]);
  if (wires.length && rng() < 0.2) fields.push([pick(rng, wires), hostileString(rng)]); // a repeated field
  if (rng() < 0.1) fields.push([hostileString(rng).slice(0, 100) || 'x', 'unknown']);
  const headers: Record<string, string> = {};
  const who = rng();
  if (who < 0.75) headers.authorization = basic(pick(rng, callers));
  else if (who < 0.85) headers.authorization = pick(rng, ['Basic ' + Buffer.from('a@b.c:' + 'x'.repeat(32)).toString('base64'), 'Basic %%%', 'Bearer x', 'Basic ' + Buffer.from('\u0000:\u0000').toString('base64')]);
  const method = entry.route.method;
  let path = pathFor(rng, entry);
  const encoding = method === 'GET' ? pick(rng, ['query', 'query', 'query', 'urlencoded']) : pick(rng, ['urlencoded', 'urlencoded', 'json', 'multipart', 'query', 'text', 'broken-json', 'broken-multipart']);
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  let body: string | Buffer | undefined;
  switch (encoding) {
    case 'query': {
      const q = new URLSearchParams();
      for (const [k, v] of fields) q.append(k, asText(v).slice(0, 20_000));
      if (fields.length) path += `?${q}`;
      break;
    }
    case 'urlencoded': {
      const q = new URLSearchParams();
      for (const [k, v] of fields) q.append(k, asText(v));
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = q.toString();
      break;
    }
    case 'json':
      headers['content-type'] = 'application/json';
      body = JSON.stringify(Object.fromEntries(fields));
      break;
    case 'multipart': {
      const b = 'fuzzboundary';
      const parts = fields.map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${asText(v)}\r\n`);
      if (entry.params.some((p) => p.decode === 'file') && rng() < 0.7) {
        parts.push(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${pick(rng, ['a.png', '../x', '\u0000.gif', 'x'.repeat(300)])}"\r\nContent-Type: ${pick(rng, ['image/png', 'image/gif', 'text/html', 'application/octet-stream'])}\r\n\r\n${pick(rng, ['\x89PNG\r\n\x1a\n', 'GIF89a', 'x'.repeat(1000), ''])}\r\n`);
      }
      headers['content-type'] = `multipart/form-data; boundary=${b}`;
      body = parts.join('') + `--${b}--\r\n`;
      break;
    }
    case 'text':
      headers['content-type'] = pick(rng, ['text/plain', 'application/xml', 'application/octet-stream', 'application/graphql']);
      body = asText(hostileJson(rng));
      break;
    case 'broken-json':
      headers['content-type'] = 'application/json';
      body = pick(rng, ['{', '[1,2]', '"x"', '1', 'null', '{"a":' + nested(50_000), '{"a":"\\ud800"}', '\u0000', '{"a":1,"a":2}']);
      break;
    case 'broken-multipart':
      headers['content-type'] = pick(rng, ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=x']);
      body = pick(rng, ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb', 'garbage', '--x--', '']);
      break;
  }
  return { method, path, headers, body, label: `${method} ${entry.route.path} (${encoding})` };
}

function selection(type: ReturnType<typeof getNamedType>, depth = 0): string {
  if (!isObjectType(type) || depth > 2) return '';
  const leaves = Object.values(type.getFields()).filter((f) => !f.args.some((a) => isNonNullType(a.type)));
  const scalars = leaves.filter((f) => isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type))).slice(0, 4);
  const objects = leaves.filter((f) => isObjectType(getNamedType(f.type))).slice(0, 1);
  const parts = [...scalars.map((f) => f.name), ...objects.map((f) => `${f.name} ${selection(getNamedType(f.type), depth + 1) || '{ __typename }'}`)];
  return `{ __typename ${parts.join(' ')} }`;
}

function hostileValue(rng: Rng, type: GraphQLInputType, depth = 0): unknown {
  if (isNonNullType(type)) return rng() < 0.05 ? null : hostileValue(rng, type.ofType, depth);
  if (isListType(type)) return rng() < 0.15 ? hostileJson(rng) : Array.from({ length: Math.floor(rng() * 3) }, () => hostileValue(rng, type.ofType, depth + 1));
  const named = getNamedType(type);
  if (rng() < 0.15) return hostileJson(rng); // the wrong type altogether
  if (isInputObjectType(named)) {
    if (depth > 3) return {};
    const out: Record<string, unknown> = {};
    for (const field of Object.values(named.getFields())) if (rng() < 0.7) out[field.name] = hostileValue(rng, field.type, depth + 1);
    return out;
  }
  if (isEnumType(named)) return rng() < 0.8 ? pick(rng, named.getValues()).name : hostileString(rng);
  switch (named.name) {
    case 'Int': return pick(rng, [0, 1, -1, 2147483647, 2147483648, -2147483649, 1e308, 1.5, Math.floor(rng() * 30)]);
    case 'Float': return pick(rng, [0, -1, 1e308, -1e308, 1.5, 2 ** 53 + 1]);
    case 'Boolean': return rng() < 0.5;
    default: return hostileString(rng);
  }
}

export function graphqlFields(): { operation: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[] {
  const out: { operation: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[] = [];
  for (const [operation, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) if (!SPARED.has(field.name)) out.push({ operation, field });
  }
  return out;
}

/** One hostile GraphQL operation for a root field: every argument from a variable. */
export function graphqlCase(rng: Rng, { operation, field }: ReturnType<typeof graphqlFields>[number], { callers }: FuzzCallers): FuzzCase {
  const args = field.args.filter((a) => isNonNullType(a.type) || rng() < 0.6);
  const declarations = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const query = `${operation} Fuzz${declarations ? `(${declarations})` : ''} { ${field.name}${call} ${selection(getNamedType(field.type))} }`;
  const variables = Object.fromEntries(args.map((a) => [a.name, hostileValue(rng, a.type)]));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (rng() < 0.85) headers.authorization = basic(pick(rng, callers));
  const body = rng() < 0.05 ? pick(rng, ['{"query":' + nested(10_000) + '}', '{"query":"{","variables":1}', '{"query":1}', '[]']) : JSON.stringify({ query, variables });
  return { method: 'POST', path: '/graphql', headers, body, label: `graphql ${operation} ${field.name}` };
}

export interface FuzzFailure {
  label: string;
  status: number;
  detail: string;
}

/** Sends one case; a failure when the server answers 5xx or a GraphQL INTERNAL_SERVER_ERROR (or not at all). */
export async function send(baseUrl: string, c: FuzzCase): Promise<FuzzFailure | null> {
  let res;
  try {
    res = await rawRequest(c.method, baseUrl + c.path, c.headers, c.body);
  } catch (error) {
    return { label: c.label, status: 0, detail: String(error) };
  }
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  if (res.status >= 500 || text.includes('INTERNAL_SERVER_ERROR')) {
    return { label: c.label, status: res.status, detail: `${text.slice(0, 300)} | sent ${String(c.body ?? '').slice(0, 200)} to ${c.path.slice(0, 200)}` };
  }
  return null;
}

/** `count` seeded cases, REST routes and GraphQL fields in turn; the failures (at most `keep`). */
export async function fuzz(target: FuzzCallers, seed: number, count: number, options: { concurrency?: number; keep?: number; onProgress?: (done: number) => void } = {}): Promise<{ sent: number; rest: number; graphql: number; failures: FuzzFailure[]; failed: number }> {
  const rng = random(seed);
  const rest = restRoutes();
  const fields = graphqlFields();
  const failures: FuzzFailure[] = [];
  let failed = 0;
  let next = 0;
  let restSent = 0;
  let graphqlSent = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // Each route and field in turn, so every one gets its share whatever the count.
      const total = rest.length + fields.length;
      const slot = i % total;
      const c = slot < rest.length ? restCase(rng, rest[slot]!, target) : graphqlCase(rng, fields[slot - rest.length]!, target);
      if (slot < rest.length) restSent++;
      else graphqlSent++;
      const failure = await send(target.baseUrl, c);
      if (failure) {
        failed++;
        if (failures.length < (options.keep ?? 50)) failures.push(failure);
      }
      if (options.onProgress && (i + 1) % 1000 === 0) options.onProgress(i + 1);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return { sent: restSent + graphqlSent, rest: restSent, graphql: graphqlSent, failures, failed };
}
