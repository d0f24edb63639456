// Reading a third party's JSON without trusting it: Zulip's WildValue. Every access names the path
// it took, so a payload of the wrong shape is refused with Zulip's sentence (`payload["a"]["b"] is
// missing`, `... is not a string`) and a 400, never a TypeError and a 500.
import { BadRequestError } from '../errors.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class WildValue {
  constructor(readonly varName: string, readonly value: unknown) {}

  /** The member `key` of an object; refused when this is not an object or `key` is absent. */
  get(key: string): WildValue {
    const object = this.object();
    if (!Object.hasOwn(object, key)) throw new BadRequestError(`${this.varName}["${key}"] is missing`);
    return new WildValue(`${this.varName}["${key}"]`, object[key]);
  }

  /** The member `key` when present (null counts as present), else a value reading as absent. */
  opt(key: string): WildValue {
    const object = this.object();
    return new WildValue(`${this.varName}["${key}"]`, Object.hasOwn(object, key) ? object[key] : undefined);
  }

  has(key: string): boolean {
    return isObject(this.value) && Object.hasOwn(this.value, key);
  }

  /** Absent or JSON null. */
  isNull(): boolean {
    return this.value === null || this.value === undefined;
  }

  /**
   * Python's truth value (absent, null, false, 0, "", [] and {} are false): Zulip's integrations
   * decide with it whether a part of a message is written.
   */
  truthy(): boolean {
    const v = this.value;
    if (Array.isArray(v)) return v.length > 0;
    if (typeof v === 'object' && v !== null) return Object.keys(v).length > 0;
    return Boolean(v);
  }

  str(): string {
    if (typeof this.value !== 'string') throw this.notA('a string');
    return this.value;
  }

  /** The string, or null when absent or null. */
  optStr(): string | null {
    return this.isNull() ? null : this.str();
  }

  int(): number {
    if (typeof this.value !== 'number' || !Number.isInteger(this.value)) throw this.notA('an integer');
    return this.value;
  }

  optInt(): number | null {
    return this.isNull() ? null : this.int();
  }

  number(): number {
    if (typeof this.value !== 'number' || !Number.isFinite(this.value)) throw this.notA('a number');
    return this.value;
  }

  bool(): boolean {
    if (typeof this.value !== 'boolean') throw this.notA('a boolean');
    return this.value;
  }

  optBool(): boolean | null {
    return this.isNull() ? null : this.bool();
  }

  /** The elements of a list, each with its path. */
  list(): WildValue[] {
    if (!Array.isArray(this.value)) throw this.notA('a list');
    return this.value.map((v, i) => new WildValue(`${this.varName}[${i}]`, v));
  }

  /** The members of an object, in order, each with its path. */
  entries(): [string, WildValue][] {
    return Object.entries(this.object()).map(([k, v]) => [k, new WildValue(`${this.varName}["${k}"]`, v)]);
  }

  /** The value as it came (for integrations that print it). */
  raw(): Json {
    return this.value as Json;
  }

  private object(): Record<string, unknown> {
    if (!isObject(this.value)) throw this.notA('a dict');
    return this.value;
  }

  private notA(what: string): BadRequestError {
    if (this.value === undefined) return new BadRequestError(`${this.varName} is missing`);
    return new BadRequestError(`${this.varName} is not ${what}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
