// The shape of one entry in the route table (rest-facade/routes.ts), after Zulip's `rest_path` +
// `typed_endpoint`: a parameter is declared once, as an argument of the GraphQL field the endpoint
// runs. The route adds only what the wire needs beyond that (other names, deprecated spellings,
// decoding quirks, legacy forms); the operation document and its variables are generated from the
// field's arguments at start-up (rest-facade/compile.ts), so a parameter cannot be lost on the way.
import type { ParamType } from './params.ts';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** What the wire knows about a parameter that the GraphQL argument does not. */
export interface WireParam {
  /**
   * The argument it fills: a field argument, or `argument.field` of an input-object argument.
   * Default: the camelCase of the wire name.
   */
  arg?: string;
  /** How the form value is decoded; by default from the argument's GraphQL type. */
  decode?: ParamType;
  /** Other wire names accepted for it (deprecated spellings). */
  aliases?: string[];
  /** Turns the decoded value into the argument's value (a legacy form into the current one). */
  convert?: (value: any) => unknown;
  /**
   * Not an argument of the field but a variable of the selection (`@include(if: $x)`, a nested
   * field's argument): its GraphQL type. The variable is named after the wire name, camelCased.
   */
  variable?: string;
  /**
   * Several selection variables set from one parameter: their GraphQL types by name; `convert`
   * returns their values as an object.
   */
  variables?: Record<string, string>;
  /** Only changes how the response is shaped (`shape` reads it); no argument receives it. */
  shapeOnly?: boolean;
  /** The value when absent, for `variable` and `shapeOnly` parameters (arguments take their GraphQL default). */
  default?: unknown;
  /** Required although the argument is not (`variable` and `shapeOnly` parameters, legacy endpoints). */
  required?: boolean;
  /**
   * Accept an argument of an input-object type as top-level parameters, one per input field under
   * its snake_case name (Zulip's flat form fields for what GraphQL groups in an object).
   */
  flatten?: boolean;
}

export interface Route {
  method: Method;
  /** Path under /api/v1 with `{name}` segments, as in Zulip's documentation; `{name:path}` takes the rest of the path. */
  path: string;
  /** Served without credentials (credentials, when sent, are still checked). */
  public?: boolean;
  /**
   * An incoming webhook (`/external/...`): the third party's request goes whole to the field's
   * `request` argument (the body as text, the headers, every query parameter and form field), and
   * the `api_key` query parameter alone is credentials enough.
   */
  webhook?: boolean;
  /** The Query or Mutation field this endpoint runs. */
  field: string;
  /**
   * Wire facts beyond the field's arguments, by wire name. Every argument not named here is a
   * parameter under its snake_case name; path segments are parameters by their `{name}`.
   */
  params?: Record<string, WireParam>;
  /** Arguments this endpoint sets itself (the provider of `/calls/zoom/...`). */
  fixed?: Record<string, unknown>;
  /** Arguments the REST endpoint does not offer (GraphQL-only refinements). */
  hidden?: string[];
  /** The selection on the field's result; default: every field of its type, recursively. */
  select?: string;
  /** More root fields selected beside the field (their data reaches `shape` as its third argument). */
  alsoSelect?: string;
  /**
   * For endpoints taking files: the largest file accepted, in MiB, given the caller's organization
   * (default: its max_file_upload_size_mib). Larger files are refused while reading (413).
   */
  maxUploadMib?: (realm: UploadRealm) => number;
  /** Zulip's success fields from the field's result and the decoded parameters (by wire name). */
  shape?: (result: any, params: Record<string, any>, data: Record<string, any>) => Record<string, unknown>;
  /** Another body for the errors of the field (not for refused credentials or parameters), from Zulip's and the parameters. */
  errorShape?: (body: Record<string, unknown>, params: Record<string, any>) => Record<string, unknown>;
}

/** What the facade knows of the caller's organization before it reads an upload. */
export interface UploadRealm {
  maxFileUploadSizeMib: number;
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
