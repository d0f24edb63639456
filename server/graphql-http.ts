// GraphQL over HTTP at /graphql: credentials checked before the body is read (within the limit they
// earn), then the request handed to yoga as a Fetch Request.
import type Koa from 'koa';
import type { YogaServerInstance } from 'graphql-yoga';
import { toGraphQLError, asParleyError } from '../schema/errors.ts';
import { BadRequestError, RateLimitedError, type ParleyError } from '../resolvers/errors.ts';
import type { Services } from './context.ts';
import { admit } from './gate.ts';
import { discardBody, hasBody, readBody } from './request-body.ts';

export function isGraphQLPath(path: string): boolean {
  return path === '/graphql' || path.startsWith('/graphql/');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function graphqlOverHttp(services: Services, yoga: YogaServerInstance<any, any>): (ctx: Koa.Context) => Promise<void> {
  const refuse = async (ctx: Koa.Context, parley: ParleyError) => {
    await discardBody(ctx);
    const headers: Record<string, string> = parley instanceof RateLimitedError ? { 'Retry-After': String(parley.secsToFreedom) } : {};
    return Response.json({ errors: [toGraphQLError(parley).toJSON()] }, { status: parley.httpStatus, headers });
  };

  /**
   * POST /graphql's body is read only after its credentials are checked, within the limit they earn:
   * without accepted credentials, what the credential-free fields need; with them, the general
   * limit or, for uploads (base64 in a variable), the organization's file limit.
   */
  const respond = async (ctx: Koa.Context): Promise<Response> => {
    let admission;
    try {
      admission = await admit(services, ctx, 'graphql');
    } catch (error) {
      const parley = asParleyError(error);
      if (!parley) throw error;
      return refuse(ctx, parley);
    }
    const realm = admission.caller?.realm;
    const limit = realm ? Math.max(admission.bodyLimit, Math.ceil((realm.maxFileUploadSizeMib * 1024 * 1024 * 4) / 3) + 1024 * 1024) : admission.bodyLimit;
    const abort = new AbortController();
    ctx.res.once('close', () => { if (!ctx.res.writableEnded) abort.abort(); });
    let body: Buffer | undefined;
    if (ctx.method === 'POST' && hasBody(ctx)) {
      try {
        body = await readBody(ctx, limit);
      } catch (error) {
        const parley = asParleyError(error);
        if (!parley) throw error;
        return refuse(ctx, parley);
      }
    } else await discardBody(ctx);
    const headers = new Headers();
    for (const [key, value] of Object.entries(ctx.req.headers)) {
      if (value === undefined || key === 'content-length' || key === 'transfer-encoding') continue;
      for (const v of Array.isArray(value) ? value : [value]) {
        try {
          headers.append(key, v);
        } catch {
          // A value Node accepted but the Fetch API refuses: yoga reads none of the headers it could be.
        }
      }
    }
    // The host is never read from the URL (facts.host carries it), so a hostile Host cannot break it.
    const request = new Request(new URL(ctx.url, 'http://localhost'), {
      method: ctx.method, headers, body: body ? new Uint8Array(body) : undefined, signal: abort.signal,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return yoga.fetch(request, { facts: { ...admission.facts, signal: abort.signal } } as any);
  };

  return async (ctx) => {
    // CSRF: a cross-site HTML form can post urlencoded or multipart bodies without a preflight;
    // GraphQL over HTTP only needs JSON, so nothing else is accepted for POST.
    if (ctx.method === 'POST' && !/^application\/(json|graphql-response\+json)\b/i.test(ctx.get('content-type'))) {
      ctx.status = 415;
      ctx.body = { errors: [toGraphQLError(new BadRequestError('POST /graphql takes application/json.')).toJSON()] };
      return;
    }
    const response = await respond(ctx);
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.set(key, value));
    // A Basic challenge makes browsers open a password dialog over the page that made the
    // request (GraphiQL, a web client), which signs in by itself: challenge only requests that
    // are not a browser script's (Sec-Fetch-Mode is sent by browsers, "navigate" for the address bar).
    const fetchMode = ctx.get('sec-fetch-mode');
    if (fetchMode && fetchMode !== 'navigate') ctx.remove('WWW-Authenticate');
    ctx.body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  };
}
