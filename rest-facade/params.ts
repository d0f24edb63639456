// Parameter decoding for the REST facade, after Zulip's typed_endpoint: each route declares its
// parameters once; values arrive as strings (query string, urlencoded or multipart body) or as JSON
// values (JSON body), lists and objects JSON-encoded; every failure gets Zulip's wording.
import { InvalidArgumentError, MissingArgumentError, BadRequestError } from '../resolvers/errors.ts';
import type { CompiledParam } from './compile.ts';
import { checkInput, decodeJson } from '../server/input-limits.ts';

export type ParamType =
  | 'int'
  /** a JSON number (IDs and timestamps beyond 32 bits) */
  | 'float'
  | 'bool'
  | 'string'
  | 'intList'
  | 'stringList'
  /** integer list or string list (principals, `to`): user IDs or emails */
  | 'intOrStringList'
  /** an int, or a JSON list of ints (`to` for channel or direct) */
  | 'intOrIntList'
  /** a string that may also be sent as a bare integer (anchor) */
  | 'stringOrInt'
  /** any JSON value, passed through */
  | 'json'
  /** JSON when it parses, else the raw string (POST /messages `to`: a bare channel name) */
  | 'jsonOrString'
  /**
   * Every file of a multipart upload, whatever its field name (Zulip reads `request.FILES`), as a
   * list of `{fileName, contentType, base64}`: the GraphQL `FileUpload` input (schema/emoji.ts).
   */
  | 'file';

/** A file of a multipart upload, read by the facade (rest-facade/app.ts). */
export interface RawUpload {
  fileName: string;
  contentType: string | null;
  bytes: Buffer;
}

export type RawParams = Record<string, unknown>;

function parseJson(name: string, value: unknown): unknown {
  return typeof value === 'string' ? decodeJson(name, value) : value;
}

// GraphQL's Int (and every ID column) is 32-bit signed.
const INT32_MAX = 2_147_483_647;

function toInt(name: string, value: unknown, label = name): number {
  let n: number | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) n = value;
  else if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) && Number.isSafeInteger(Number(value))) n = Number(value);
  if (n === undefined) throw new InvalidArgumentError(name, `${label} is not an integer`);
  if (Math.abs(n) > INT32_MAX) throw new InvalidArgumentError(name, `${label} is too large`);
  return n;
}

function toBool(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  throw new InvalidArgumentError(name, `${name} is not a boolean`);
}

function decodeValue(name: string, type: ParamType, value: unknown): unknown {
  // A value that arrived already decoded (a JSON body) is checked like one decoded here.
  checkInput(name, value);
  const decoded = decodeRaw(name, type, value);
  checkInput(name, decoded);
  return decoded;
}

function decodeRaw(name: string, type: ParamType, value: unknown): unknown {
  switch (type) {
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw new InvalidArgumentError(name, `${name} is not a string`);
    case 'int':
      return toInt(name, value);
    case 'float': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw new InvalidArgumentError(name, `${name} is not a number`);
      return n;
    }
    case 'bool':
      return toBool(name, value);
    case 'stringOrInt':
      if (typeof value === 'number') return String(value);
      if (typeof value === 'string') return value;
      throw new InvalidArgumentError(name, `${name} is not a string`);
    case 'json':
      return parseJson(name, value);
    case 'jsonOrString':
      if (typeof value !== 'string') return value;
      // Something that looks like a JSON list or object must be one.
      if (/^\s*[[{]/.test(value)) return parseJson(name, value);
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    case 'intList': {
      const list = parseJson(name, value);
      // A JSON null list is an absent one (Zulip's `Json[list[...]] | None = None`), as zulip-js
      // sends it for a list it was not given (FormData turns null into "null").
      if (list === null) return null;
      if (!Array.isArray(list)) throw new InvalidArgumentError(name, `${name} is not a list`);
      return list.map((item, i) => toInt(name, item, `${name}[${i}]`));
    }
    case 'stringList': {
      const list = parseJson(name, value);
      if (list === null) return null;
      if (!Array.isArray(list)) throw new InvalidArgumentError(name, `${name} is not a list`);
      return list.map((item, i) => {
        if (typeof item !== 'string') throw new InvalidArgumentError(name, `${name}[${i}] is not a string`);
        return item;
      });
    }
    case 'intOrStringList': {
      // Zulip accepts a JSON list of IDs or emails, and a bare comma-separated email list.
      let list: unknown;
      if (typeof value === 'string' && !/^\s*[[\d"]/.test(value)) list = value.split(',').map((s) => s.trim()).filter(Boolean);
      else list = parseJson(name, value);
      if (typeof list === 'number' || typeof list === 'string') list = [list];
      if (!Array.isArray(list)) throw new InvalidArgumentError(name, `${name} is not a list`);
      const allInts = list.every((x) => typeof x === 'number' && Number.isSafeInteger(x));
      const allStrings = list.every((x) => typeof x === 'string');
      if (!allInts && !allStrings) throw new InvalidArgumentError(name, `Invalid ${name}`);
      return list;
    }
    case 'file':
      return (value as RawUpload[]).map((f) => ({ fileName: f.fileName, contentType: f.contentType, base64: f.bytes.toString('base64') }));
    case 'intOrIntList': {
      const parsed = typeof value === 'string' && /^\s*\[/.test(value) ? parseJson(name, value) : value;
      if (Array.isArray(parsed)) return parsed.map((item, i) => toInt(name, item, `${name}[${i}]`));
      return toInt(name, parsed);
    }
  }
}

/** Decoders that read a JSON null as an absent list. */
const LIST_DECODERS = new Set<unknown>(['intList', 'stringList']);

/**
 * Decodes an endpoint's parameters; returns the values (by wire name) and the names the endpoint
 * does not support (Zulip's `ignored_parameters_unsupported`).
 */
export function decodeParams(
  params: readonly CompiledParam[],
  raw: RawParams,
  pathParams: Record<string, string>,
  files: RawUpload[] = [],
): { values: Record<string, unknown>; ignored: string[] } {
  const values: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const param of params) {
    const name = param.wire;
    let value: unknown;
    if (param.inPath) {
      value = pathParams[name];
    } else if (param.decode === 'file') {
      value = files;
    } else {
      for (const key of [name, ...param.aliases]) {
        if (raw[key] !== undefined) {
          value = raw[key];
          used.add(key);
          break;
        }
      }
    }
    if (Array.isArray(value) && param.decode !== 'file') {
      // A repeated form field: Zulip reads the last one.
      value = value[value.length - 1];
    }
    if (value === undefined) {
      if (param.required) throw new MissingArgumentError(name);
      if (param.default !== undefined) values[name] = param.default;
      continue;
    }
    const decoded = decodeValue(name, param.decode, value);
    // A JSON null stands for an absent optional list; a required one must be a list.
    if (decoded === null && param.required && LIST_DECODERS.has(param.decode)) {
      throw new InvalidArgumentError(name, `${name} is not a list`);
    }
    values[name] = decoded;
  }
  const ignored = Object.keys(raw).filter((key) => !used.has(key));
  return { values, ignored };
}

/** Merges query-string and body parameters; the body wins, as in Zulip. */
export function collectRawParams(query: Record<string, unknown>, body: unknown, bodyIsJson = false): RawParams {
  const merged: RawParams = { ...query };
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body as RawParams)) {
      // A list in a JSON body is the value itself, not a repeated form field: keep it whole by
      // re-encoding it the way form clients send lists (once checked: JSON.stringify recurses).
      if (bodyIsJson) checkInput(key, value);
      merged[key] = bodyIsJson && Array.isArray(value) ? JSON.stringify(value) : value;
    }
  }
  else if (body !== undefined && body !== null && typeof body !== 'object') {
    throw new BadRequestError('Malformed request body');
  }
  return merged;
}
