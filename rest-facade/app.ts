// The REST facade: `/api/v1/*` → route table → GraphQL operation → Zulip-shaped JSON.
// It decodes parameters and shapes responses; every rule lives behind the GraphQL field it calls.
import type Koa from 'koa';
import { parse, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { routes } from './routes.ts';
import type { Route } from './route.ts';
import { defaultVariables } from './route.ts';
import { collectRawParams, decodeParams } from './params.ts';
import { uploadedFiles } from './uploads.ts';
import { envelopeForError, envelopeForGraphQLErrors, errorEnvelope, successEnvelope, type Envelope } from './errors.ts';
import { BadRequestError, NotLoggedInError, NotFoundError, ParleyError } from '../resolvers/errors.ts';
import type { RequestFacts } from '../server/context.ts';

export type Executor = (document: DocumentNode, variables: Record<string, unknown>, facts: RequestFacts) => Promise<ExecutionResult>;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  pathParamNames: string[];
  document: DocumentNode;
}

/** Parses and validates every route's document once, at start-up: a broken route fails the boot. */
export function compileRoutes(schema: GraphQLSchema): CompiledRoute[] {
  const compiled = routes.map((route) => {
    const document = parse(route.document);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`Route ${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
    const pathParamNames: string[] = [];
    const pattern = new RegExp(
      '^' + route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        pathParamNames.push(name);
        // Integer path parameters match digits only, so `/users/{user_id}` and `/users/{email}` coexist.
        return route.params[name]?.type === 'int' ? '(-?\\d+)' : '([^/]+)';
      }) + '/?$',
    );
    return { route, pattern, pathParamNames, document };
  });
  // Literal segments win over templates (`/users/me` before `/users/{user_id}`).
  return compiled.sort((a, b) => a.pathParamNames.length - b.pathParamNames.length);
}

export function restFacade(schema: GraphQLSchema, execute: Executor): Koa.Middleware {
  const compiled = compileRoutes(schema);
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
  const { values, ignored } = decodeParams(route.params, raw, pathParams, uploadedFiles(ctx));
  const variables = route.variables ? route.variables(values) : defaultVariables(values);
  const result = await execute(entry.document, variables, facts);
  if (result.errors?.length) return envelopeForGraphQLErrors(result.errors);
  const fields = route.shape ? route.shape(result.data, values) : {};
  return successEnvelope(fields, ignored);
}

export { ParleyError };
