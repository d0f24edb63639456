// The REST facade: `/api/v1/*` → route table → GraphQL operation → Zulip-shaped JSON.
// It decodes parameters and shapes responses; every rule lives behind the GraphQL field it calls.
import type Koa from 'koa';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { routes } from './routes.ts';
import { compileRoutes, type CompiledRoute } from './compile.ts';
import { collectRawParams, decodeParams } from './params.ts';
import { uploadedFiles } from './uploads.ts';
import { envelopeForError, envelopeForGraphQLErrors, errorEnvelope, successEnvelope, type Envelope } from './errors.ts';
import { BadRequestError, NotLoggedInError, NotFoundError, ParleyError } from '../resolvers/errors.ts';
import type { RequestFacts } from '../server/context.ts';

export type Executor = (document: DocumentNode, variables: Record<string, unknown>, facts: RequestFacts) => Promise<ExecutionResult>;

export function restFacade(schema: GraphQLSchema, execute: Executor): Koa.Middleware {
  const compiled = compileRoutes(schema, routes);
  return async (ctx) => {
    const envelope = await handle(ctx, compiled, execute);
    ctx.status = envelope.status;
    for (const [key, value] of Object.entries(envelope.headers ?? {})) ctx.set(key, value);
    ctx.body = envelope.body;
  };
}

async function handle(ctx: Koa.Context, compiled: CompiledRoute[], execute: Executor): Promise<Envelope> {
  const path = ctx.path.replace(/^\/api\/v1/, '') || '/';
  const method = ctx.method.toUpperCase();
  let pathMatched = false;
  for (const entry of compiled) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (entry.route.method !== method) continue;
    try {
      return await run(ctx, entry, match, execute);
    } catch (error) {
      return envelopeForError(error);
    }
  }
  if (pathMatched) {
    return { status: 405, body: { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' } };
  }
  return errorEnvelope(new NotFoundError('Endpoint not found'));
}

async function run(ctx: Koa.Context, entry: CompiledRoute, match: RegExpExecArray, execute: Executor): Promise<Envelope> {
  const { route } = entry;
  // A long-poll whose client has gone away stops waiting.
  const abort = new AbortController();
  ctx.req.once('close', () => { if (!ctx.res.writableEnded) abort.abort(); });
  const facts: RequestFacts = {
    signal: abort.signal,
    host: ctx.get('host'),
    authorization: ctx.get('authorization') || null,
    userAgent: ctx.get('user-agent'),
  };
  // Zulip checks credentials before parameters: an anonymous caller learns nothing about them.
  if (!route.public && !facts.authorization) throw new NotLoggedInError();
  const pathParams: Record<string, string> = {};
  entry.pathParamNames.forEach((name, i) => {
    try {
      pathParams[name] = decodeURIComponent(match[i + 1]!);
    } catch {
      throw new BadRequestError('Invalid URL encoding');
    }
  });
  const raw = collectRawParams(ctx.query as Record<string, unknown>, (ctx.request as { body?: unknown }).body, Boolean(ctx.is('application/json')));
  const { values, ignored } = decodeParams(entry.params, raw, pathParams, uploadedFiles(ctx));
  const result = await execute(entry.document, entry.variables(values), facts);
  if (result.errors?.length) return envelopeForGraphQLErrors(result.errors, entry.wireOfVariable);
  const data = result.data as Record<string, any>;
  const fields = route.shape ? route.shape(data[route.field], values, data) : {};
  return successEnvelope(fields, ignored);
}

export { ParleyError };
