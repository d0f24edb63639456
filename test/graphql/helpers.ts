// Helpers for the GraphQL-side tests: run an operation against a test server's /graphql and
// assert either success (returning `data`) or a domain error (returning the first GraphQL error).
import { expect } from 'vitest';
import { graphql, type Credentials } from '../support/client.ts';
import type { TestServer } from '../support/server.ts';

export type GraphQLResponse = Awaited<ReturnType<typeof graphql>>;

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; httpStatus?: number; zulip?: Record<string, unknown>; [key: string]: unknown };
}

/** Runs an operation and expects it to succeed with HTTP 200 and no errors; returns `data`. */
export async function ok(
  t: TestServer, query: string, variables: Record<string, unknown> = {}, credentials?: Credentials, host?: string,
): Promise<any> {
  const res = await graphql(t.baseUrl, query, variables, credentials, host);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Runs an operation and expects a GraphQL error; returns the first error and the raw response. */
export async function fails(
  t: TestServer, query: string, variables: Record<string, unknown> = {}, credentials?: Credentials, host?: string,
): Promise<{ error: GraphQLErrorBody; res: GraphQLResponse }> {
  const res = await graphql(t.baseUrl, query, variables, credentials, host);
  expect(res.body.errors, `expected an error, got ${JSON.stringify(res.body)}`).toBeDefined();
  expect(res.body.errors!.length).toBeGreaterThan(0);
  return { error: res.body.errors![0] as GraphQLErrorBody, res };
}

/** Logs in through the `fetchApiKey` mutation and returns credentials for Basic authentication. */
export async function login(t: TestServer, username: string, password: string, host?: string): Promise<Credentials> {
  const data = await ok(
    t,
    'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey email userId } }',
    { u: username, p: password },
    undefined,
    host,
  );
  return { email: data.fetchApiKey.email, apiKey: data.fetchApiKey.apiKey, userId: data.fetchApiKey.userId };
}
