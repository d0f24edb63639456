// Where domain errors become GraphQL errors: the one mapping both GraphQL clients and the REST
// facade read. `extensions.code` is Zulip's error code; `extensions.zulip` carries Zulip's extra
// fields (for example `stream` on STREAM_DOES_NOT_EXIST); `extensions.httpStatus` is the status the
// REST API answers with.
import { GraphQLError } from 'graphql';
import { ParleyError, BadRequestError } from '../resolvers/errors.ts';

/** PostgreSQL's refusals of a value (SQLSTATE, as the driver adapter's message carries it). */
const REFUSED_INPUT: [string, string][] = [
  ['22021', 'Text must not contain NULL (0x00) characters.'], // character_not_in_repertoire
  ['22P05', 'Text must be valid Unicode.'], // untranslatable_character (a lone surrogate in jsonb)
  ['54000', 'A value is too long.'], // program_limit_exceeded (an index entry over its size limit)
];

/** Turns anything a resolver threw into a ParleyError, or null for an unexpected failure (a bug). */
export function asParleyError(error: unknown): ParleyError | null {
  let current: unknown = error;
  for (let i = 0; i < 5 && current; i++) {
    if (current instanceof ParleyError) return current;
    const prismaCode = (current as { code?: unknown }).code;
    // A unique-constraint race (two requests creating the same thing) is the caller's conflict.
    if (prismaCode === 'P2002') return new BadRequestError('That already exists.');
    if (prismaCode === 'P2025') return new BadRequestError('That no longer exists.');
    // Input the database cannot store. Requests are checked before (server/input-limits.ts and the
    // domain's length limits); this is the backstop that keeps a missed case a 400, not a 500.
    const text = (current as { message?: unknown }).message;
    if (typeof text === 'string') {
      for (const [sqlState, message] of REFUSED_INPUT) if (text.includes(sqlState)) return new BadRequestError(message);
    }
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * `withHttpStatus`: the error happened before execution (resolving the realm or the credentials),
 * so the whole HTTP response carries its status, as the REST API's would.
 */
export function toGraphQLError(error: ParleyError, path?: readonly (string | number)[], withHttpStatus = false): GraphQLError {
  return new GraphQLError(error.message, {
    path,
    originalError: error,
    extensions: {
      code: error.code,
      httpStatus: error.httpStatus,
      ...(Object.keys(error.extra).length ? { zulip: error.extra } : {}),
      // Only authentication failures change the HTTP status of a GraphQL response (so GraphiQL
      // and browsers can prompt for credentials); other errors are ordinary GraphQL errors.
      ...(error.httpStatus === 401
        ? { http: { status: 401, headers: { 'WWW-Authenticate': 'Basic realm="parley"' } } }
        : withHttpStatus ? { http: { status: error.httpStatus } } : {}),
    },
  });
}

/** yoga's `maskError`: domain errors pass through with their codes, anything else is masked. */
export function maskError(error: unknown, message: string): Error {
  const graphQLError = error as GraphQLError;
  // Already mapped while building the context, with the HTTP status it must keep.
  if (error instanceof GraphQLError && error.extensions?.http && asParleyError(error)) return error;
  const parley = asParleyError(error);
  if (parley) return toGraphQLError(parley, graphQLError.path);
  if (error instanceof GraphQLError && !error.originalError) return error; // parse/validation errors
  // A variable's value its type refuses (coercion wraps the scalar's own GraphQLError): the
  // request's fault, reported as such rather than masked as an internal error.
  if (error instanceof GraphQLError && !error.path && error.originalError instanceof GraphQLError) {
    return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_REQUEST', httpStatus: 400 } });
  }
  console.error(error);
  return new GraphQLError(message, { path: graphQLError?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}
