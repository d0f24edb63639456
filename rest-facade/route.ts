// The shape of one entry in the route table (rest-facade/routes.ts).
import type { ParamSpec } from './params.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

export interface RouteContext {
  /** Decoded parameters by wire name. */
  params: Record<string, any>;
}

export interface Route {
  method: Method;
  /** Path under /api/v1 with `{name}` segments, as in Zulip's documentation. */
  path: string;
  /** Served without credentials (credentials, when sent, are still checked). */
  public?: boolean;
  params: Record<string, ParamSpec>;
  /** The GraphQL operation this endpoint runs. */
  document: string;
  /** GraphQL variables from the decoded parameters; by default each parameter, camelCased. */
  variables?: (params: Record<string, any>) => Record<string, unknown>;
  /** The endpoint-specific fields of Zulip's success response. */
  shape?: (data: any, params: Record<string, any>) => Record<string, unknown>;
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** GraphQL's camelCase field names → Zulip's snake_case wire names, recursively. */
export function snakeKeys<T = any>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v)) as T;
  // GraphQL results are null-prototype objects; anything else (Date, Buffer) is left alone.
  const proto = value && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === null || proto === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[snakeCase(key)] = snakeKeys(v);
    return out as T;
  }
  return value as T;
}

export function defaultVariables(params: Record<string, unknown>): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) vars[camelCase(key)] = value;
  return vars;
}
