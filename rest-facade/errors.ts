// Zulip's response envelope, in one place.
import type Koa from 'koa';
import { getNamedType, isListType, isNonNullType, type GraphQLError } from 'graphql';
import type { WireVariable } from './compile.ts';
import { asParleyError } from '../schema/errors.ts';
import {
  BadRequestError, InvalidApiKeyError, InvalidArgumentError, RateLimitedError, RealmDeactivatedError, UserDeactivatedError, type ParleyError,
} from '../resolvers/errors.ts';

export interface Envelope {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function successEnvelope(fields: Record<string, unknown>, ignored: string[]): Envelope {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...fields };
  if (ignored.length) body.ignored_parameters_unsupported = ignored;
  return { status: 200, body };
}

export function errorEnvelope(error: ParleyError): Envelope {
  const envelope: Envelope = {
    status: error.httpStatus,
    body: { result: 'error', msg: error.message, code: error.code, ...error.extra },
  };
  if (error.httpStatus === 401) envelope.headers = { 'WWW-Authenticate': 'Basic realm="zulip"' };
  // Zulip's RateLimitedError.extra_headers.
  if (error instanceof RateLimitedError) envelope.headers = { 'Retry-After': String(error.secsToFreedom) };
  return envelope;
}

/** Answers a Koa request outside the route table (files, avatars, assets) with the error's envelope. */
export function respondWithError(ctx: Koa.Context, error: ParleyError): void {
  const envelope = errorEnvelope(error);
  ctx.status = envelope.status;
  for (const [name, value] of Object.entries(envelope.headers ?? {})) ctx.set(name, value);
  ctx.body = envelope.body;
}

export function internalErrorEnvelope(): Envelope {
  return { status: 500, body: { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' } };
}

/** The envelope for an error thrown while handling a request, or for a GraphQL result's errors. */
export function envelopeForError(error: unknown): Envelope {
  const parley = asParleyError(error);
  if (parley) return errorEnvelope(parley);
  console.error('Unexpected error in REST request:', error);
  return internalErrorEnvelope();
}

/**
 * A GraphQL result's errors as Zulip's envelope. Variable coercion errors (a value the argument's
 * type refuses) name the wire parameter behind the variable, as Zulip names the parameter.
 */
export function envelopeForGraphQLErrors(errors: readonly GraphQLError[], wireOfVariable?: ReadonlyMap<string, WireVariable>): Envelope {
  const [first] = errors;
  // Variable coercion and validation errors come with no original error: the request was malformed.
  if (first && !asParleyError(first) && !first.path && (!first.originalError || first.extensions?.code === 'BAD_REQUEST')) {
    const variable = /^Variable "\$(\w+)" got invalid value/.exec(first.message)?.[1];
    if (variable && wireOfVariable) {
      const at = /at "\w+\.(\w+)/.exec(first.message)?.[1];
      const param = (at && wireOfVariable.get(`${variable}.${at}`)) || wireOfVariable.get(variable);
      if (param) return errorEnvelope(invalidValue(param));
    }
    return errorEnvelope(new BadRequestError(first.message));
  }
  if (first && !first.path) {
    const refusal = envelopeForRefusal(first);
    if (refusal) return refusal;
  }
  return envelopeForError(first);
}

/**
 * The envelope for refused credentials (the gate's, before the body is read, or the operation's
 * before it runs), or null for any other error. Zulip's REST views answer any refusal of
 * Basic-auth credentials as UNAUTHORIZED, keeping the reason in `msg` (authenticated_rest_api_view:
 * `json_unauthorized(e.msg)`); GraphQL keeps the specific code.
 */
export function envelopeForRefusal(error: unknown): Envelope | null {
  const parley = asParleyError(error);
  if (!parley || !REFUSED_CREDENTIALS.some((refusal) => parley instanceof refusal)) return null;
  const envelope = errorEnvelope(parley);
  return { ...envelope, body: { ...envelope.body, code: 'UNAUTHORIZED' } };
}

/** The errors that refuse a request's credentials before anything else happens. */
const REFUSED_CREDENTIALS = [InvalidApiKeyError, UserDeactivatedError, RealmDeactivatedError];

/** Zulip's wording for a value of the wrong type (typed_endpoint's validators). */
function invalidValue({ wire, type }: WireVariable): InvalidArgumentError {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return new InvalidArgumentError(wire, `${wire} is not a list`);
  switch (getNamedType(inner).name) {
    case 'Int': return new InvalidArgumentError(wire, `${wire} is not an integer`);
    case 'Float': return new InvalidArgumentError(wire, `${wire} is not a number`);
    case 'Boolean': return new InvalidArgumentError(wire, `${wire} is not a boolean`);
    case 'String': return new InvalidArgumentError(wire, `${wire} is not a string`);
    default: return new InvalidArgumentError(wire, `Invalid ${wire}`);
  }
}
