// The REST facade: `/api/v1/*` → route table → GraphQL operation → Zulip-shaped JSON.
// It decodes parameters and shapes responses; every rule lives behind the GraphQL field it calls.
import type Koa from 'koa';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { routes } from './routes.ts';
import { compileRoutes, type CompiledRoute } from './compile.ts';
import { collectRawParams, decodeParams } from './params.ts';
import { readMultipart } from './uploads.ts';
import type { RawParams, RawUpload } from './params.ts';
import type { Route } from './route.ts';
import { envelopeForError, envelopeForGraphQLErrors, envelopeForRefusal, errorEnvelope, successEnvelope, type Envelope } from './errors.ts';
import { BadRequestError, MethodNotAllowedError, NotFoundError, ParleyError } from '../resolvers/errors.ts';
import { CREDENTIAL_FREE_FIELDS, type RequestFacts } from '../server/context.ts';
import type { Access, Admission } from '../server/gate.ts';
import { discardBody, hasBody, parseUrlencoded, readBody, readParamsBody } from '../server/request-body.ts';
import { hasRawJson, stringifyBody } from './json.ts';

export type Executor = (document: DocumentNode, variables: Record<string, unknown>, facts: RequestFacts) => Promise<ExecutionResult>;

/**
 * Checks a request's credentials from its headers, before any of its body is read (server/gate.ts):
 * the caller and the body limit it earns, or the refusal thrown.
 */
export type Gate = (ctx: Koa.Context, access: Access) => Promise<Admission>;

function accessOf(route: Route): Access {
  if (CREDENTIAL_FREE_FIELDS.has(route.field)) return 'credentialFree';
  if (route.webhook) return 'webhook';
  return route.public ? 'public' : 'authenticated';
}

/** What Koa's `ctx.type = 'json'` sets, written as it is rather than looked up on every response. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The routes without path parameters, by method and path: found without trying every pattern. */
type LiteralRoutes = Map<string, CompiledRoute>;

const literalKey = (method: string, path: string) => `${method} ${path}`;

export function restFacade(schema: GraphQLSchema, execute: Executor, gate: Gate): Koa.Middleware {
  const compiled = compileRoutes(schema, routes);
  const literal: LiteralRoutes = new Map();
  for (const entry of compiled) {
    if (!entry.pathParamNames.length) literal.set(literalKey(entry.route.method, entry.route.path), entry);
  }
  return async (ctx) => {
    const envelope = await handle(ctx, compiled, literal, execute, gate);
    // Whatever of the body the request did not need is thrown away, not kept.
    await discardBody(ctx);
    ctx.status = envelope.status;
    for (const [key, value] of Object.entries(envelope.headers ?? {})) ctx.set(key, value);
    // The type first: Koa then takes the string body as it is instead of guessing a type for it.
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = hasRawJson(envelope.body) ? stringifyBody(envelope.body) : JSON.stringify(envelope.body);
  };
}

async function handle(ctx: Koa.Context, compiled: CompiledRoute[], literal: LiteralRoutes, execute: Executor, gate: Gate): Promise<Envelope> {
  const path = ctx.path.replace(/^\/api\/v1/, '') || '/';
  const method = ctx.method.toUpperCase();
  // Literal routes come first in `compiled` (compileRoutes), so the one found here is the one the
  // loop below would find; the loop is left for templates and for Zulip's 405 and 404.
  const direct = literal.get(literalKey(method, path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path));
  if (direct) {
    try {
      return await run(ctx, direct, NO_MATCH, execute, gate);
    } catch (error) {
      return failure(ctx, direct.route, error);
    }
  }
  let pathMatched = false;
  for (const entry of compiled) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (entry.route.method !== method) continue;
    try {
      return await run(ctx, entry, match, execute, gate);
    } catch (error) {
      return failure(ctx, entry.route, error);
    }
  }
  if (pathMatched) {
    return errorEnvelope(new MethodNotAllowedError());
  }
  return errorEnvelope(new NotFoundError('Endpoint not found'));
}

/**
 * The envelope of a request that failed. Refused Basic credentials all answer UNAUTHORIZED, as
 * Zulip's REST views do; a webhook's `api_key` parameter keeps the specific code (Zulip's
 * webhook_view checks it with validate_api_key, which raises the error itself).
 */
function failure(ctx: Koa.Context, route: Route, error: unknown): Envelope {
  const byApiKeyParameter = route.webhook && !ctx.get('authorization');
  return (byApiKeyParameter ? null : envelopeForRefusal(error)) ?? envelopeForError(error);
}

async function run(ctx: Koa.Context, entry: CompiledRoute, match: RegExpExecArray, execute: Executor, gate: Gate): Promise<Envelope> {
  const { route } = entry;
  // Zulip checks credentials before parameters: a refused caller learns nothing about them, and
  // none of its body is read.
  const admission = await gate(ctx, accessOf(route));
  // A long-poll whose client has gone away stops waiting (the response's close, not the request's:
  // that one comes as soon as the body is read).
  const abort = new AbortController();
  ctx.res.once('close', () => { if (!ctx.res.writableEnded) abort.abort(); });
  // Not `{ ...admission.facts, signal }`: V8 builds a spread followed by more properties slowly.
  const facts: RequestFacts = Object.assign({}, admission.facts, { signal: abort.signal });
  const pathParams: Record<string, string> = {};
  entry.pathParamNames.forEach((name, i) => {
    try {
      pathParams[name] = decodeURIComponent(match[i + 1]!);
    } catch {
      throw new BadRequestError('Invalid URL encoding');
    }
  });
  const { raw, files } = route.webhook ? await readWebhookRequest(ctx, admission) : await readParams(ctx, entry, admission);
  const { values, ignored } = decodeParams(entry.params, raw, pathParams, files);
  const result = await execute(entry.document, entry.variables(values), facts);
  if (result.errors?.length) {
    const envelope = envelopeForGraphQLErrors(result.errors, entry.wireOfVariable);
    return route.errorShape ? { ...envelope, body: route.errorShape(envelope.body, values) } : envelope;
  }
  const data = result.data as Record<string, any>;
  const fields = route.shape ? route.shape(data[route.field], values, data) : {};
  // A third party reads nothing but the result (Zulip's webhooks answer a bare json_success).
  return successEnvelope(fields, route.webhook ? [] : ignored);
}

/** The parameters of an API call: the query string and the body (urlencoded, JSON or multipart). */
async function readParams(ctx: Koa.Context, entry: CompiledRoute, admission: Admission): Promise<{ raw: RawParams; files: RawUpload[] }> {
  let body: unknown;
  let json = false;
  let files: RawUpload[] = [];
  if (!BODY_METHODS.has(method(ctx)) || !hasBody(ctx)) {
    // Zulip reads no body for GET.
  } else if (ctx.is('multipart')) {
    // A route taking files reads them only from an authenticated caller, within its limit.
    const realm = admission.caller?.realm;
    const fileMib = realm && entry.params.some((p) => p.decode === 'file') ? entry.route.maxUploadMib?.(realm) ?? realm.maxFileUploadSizeMib : 0;
    ({ fields: body, files } = await readMultipart(ctx, { fileMib, bodyBytes: admission.bodyLimit }));
  } else {
    ({ body, json } = await readParamsBody(ctx, admission.bodyLimit));
  }
  return { raw: collectRawParams(ctx.query as Record<string, unknown>, body, json), files };
}

/** Headers a webhook's integration never needs to see: the caller's own credentials. */
const PRIVATE_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * A third party's webhook call: its parameters (the query string, and the fields of an urlencoded
 * body) for `stream`, `topic` and the like, and the whole request as the `request` parameter.
 */
async function readWebhookRequest(ctx: Koa.Context, admission: Admission): Promise<{ raw: RawParams; files: RawUpload[] }> {
  const body = hasBody(ctx) ? (await readBody(ctx, admission.bodyLimit)).toString('utf8') : '';
  const form = ctx.is('urlencoded') && body ? parseUrlencoded(body) : undefined;
  const raw = collectRawParams(ctx.query as Record<string, unknown>, form);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    // The caller's key stays with the gate: integrations have no use for it.
    if (name !== 'api_key') params[name] = String(Array.isArray(value) ? value[value.length - 1] : value);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (!PRIVATE_HEADERS.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { raw: { ...raw, request: { body, headers, params } }, files: [] };
}

/** The match of a route without path parameters (run reads only the parameters' groups). */
const NO_MATCH = Object.assign([''], { index: 0, input: '' }) as RegExpExecArray;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const method = (ctx: Koa.Context) => ctx.method.toUpperCase();

export { ParleyError };
