// What every HTTP request passes before its body is read (the REST facade per route, /graphql as a
// whole), from its headers alone: its credentials, as Zulip checks them before anything else, the
// rate limit it counts against (its user's, or its IP address's without accepted credentials), and
// the body limit it earns. A refused caller costs one credentials check, never a body.
import type Koa from 'koa';
import type { Realm, User } from '../prisma/generated/client/client.ts';
import { MissingArgumentError, NotLoggedInError, type RateLimitedError } from '../resolvers/errors.ts';
import { checkApiKey, checkCredentials, type RequestFacts, type Services } from './context.ts';
import { rateLimitHeaders } from './rate-limits.ts';

/** How an endpoint treats credentials. */
export type Access =
  /** Served whoever asks, credentials unread: Zulip's plain Django views (server_settings, fetch_api_key). */
  | 'credentialFree'
  /** Served without credentials (web-public spectators), but credentials that are sent must be good. */
  | 'public'
  /** Credentials required. */
  | 'authenticated'
  /**
   * Incoming webhooks (`/api/v1/external/...`): credentials required, Basic or the `api_key` query
   * parameter alone, since third parties are given a URL.
   */
  | 'webhook'
  /**
   * /graphql: the fields an operation asks for are in the body, so missing or refused credentials
   * only earn the small body limit; the operation is refused afterwards (useRefusedCredentials).
   */
  | 'graphql';

export interface Admission {
  /** The request's facts, its credentials already checked. */
  facts: RequestFacts;
  /** The caller, when credentials were sent and accepted. */
  caller: { realm: Realm; user: User } | null;
  /** The largest body this caller may send. */
  bodyLimit: number;
}

export function requestFacts(ctx: Koa.Context): RequestFacts {
  return {
    host: ctx.get('host'),
    authorization: ctx.get('authorization') || null,
    userAgent: ctx.get('user-agent'),
  };
}

export async function admit(services: Services, ctx: Koa.Context, access: Access): Promise<Admission> {
  let admission: Admission;
  try {
    admission = await identify(services, ctx, access);
  } catch (refused) {
    // Refused callers count against their address, like every caller without credentials.
    throw (await count(services, ctx, null)) ?? refused;
  }
  const limited = await count(services, ctx, admission.caller?.user.id ?? null);
  if (limited) throw limited;
  return admission;
}

/** Counts the request against its user's or its address's limit, with Zulip's X-RateLimit-* headers; the refusal when over. */
async function count(services: Services, ctx: Koa.Context, userId: number | null): Promise<RateLimitedError | null> {
  const counted = userId != null
    ? await services.rateLimits.consume('apiByUser', String(userId))
    : await services.rateLimits.consume('apiByIp', ctx.ip);
  if (!counted) return null;
  ctx.set(rateLimitHeaders(counted.state));
  return counted.refusal;
}

/**
 * A WebSocket operation's count against its caller's limit (its credentials are checked here, once
 * for the operation); the refusal when over.
 */
export async function limitRequest(services: Services, facts: RequestFacts, address: string): Promise<RateLimitedError | null> {
  if (!services.rateLimits.enabled) return null;
  let userId: number | null = null;
  if (facts.authorization) {
    const checked = (facts.checked = await checkCredentials(services, facts));
    if (!('refused' in checked)) userId = checked.user.id;
  }
  const counted = userId != null
    ? await services.rateLimits.consume('apiByUser', String(userId))
    : await services.rateLimits.consume('apiByIp', address);
  return counted?.refusal ?? null;
}

async function identify(services: Services, ctx: Koa.Context, access: Access): Promise<Admission> {
  const { maxBodyBytes, anonymousMaxBodyBytes } = services.config.limits;
  const facts = requestFacts(ctx);
  const anonymous: Admission = { facts, caller: null, bodyLimit: anonymousMaxBodyBytes };
  if (access === 'credentialFree') return anonymous;
  if (access === 'webhook' && !facts.authorization) {
    const apiKey = lastValue(ctx.query.api_key);
    if (apiKey === undefined) throw new MissingArgumentError('api_key');
    const checked = (facts.checked = await checkApiKey(services, facts, apiKey));
    if ('refused' in checked) throw checked.refused;
    return { facts, caller: checked, bodyLimit: maxBodyBytes };
  }
  if (!facts.authorization) {
    if (access === 'authenticated') throw new NotLoggedInError();
    return anonymous;
  }
  const checked = (facts.checked = await checkCredentials(services, facts));
  if ('refused' in checked) {
    if (access === 'graphql') return anonymous;
    throw checked.refused;
  }
  return { facts, caller: checked, bodyLimit: maxBodyBytes };
}

/** A query parameter's value; a repeated one's last, as Django reads it. */
function lastValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}
