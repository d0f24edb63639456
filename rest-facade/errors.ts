// Zulip's response envelope, in one place.
import type { GraphQLError } from 'graphql';
import { asParleyError } from '../schema/errors.ts';
import { BadRequestError, type ParleyError } from '../resolvers/errors.ts';

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
  return envelope;
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

export function envelopeForGraphQLErrors(errors: readonly GraphQLError[]): Envelope {
  const [first] = errors;
  // Variable coercion and validation errors come with no original error: the request was malformed.
  if (first && !asParleyError(first) && !first.originalError && !first.path) {
    return errorEnvelope(new BadRequestError(first.message));
  }
  return envelopeForError(first);
}
