// The third party's request as integrations read it (integration.ts WebhookRequest): built from what
// the transport received, the same for REST and GraphQL.
import { InvalidArgumentError, InvalidJsonError, MissingArgumentError, MissingHttpEventHeaderError } from '../errors.ts';
import type { WebhookRequest } from './integration.ts';
import { WildValue } from './payload.ts';

export interface WebhookRequestParts {
  body: string;
  /** Header names in any case. */
  headers?: Record<string, string>;
  /** Query parameters and form fields. */
  params?: Record<string, string>;
}

export class IncomingWebhookRequest implements WebhookRequest {
  readonly body: string;
  private readonly headers: Map<string, string>;
  private readonly params: Record<string, string>;
  private parsed: WildValue | undefined;

  constructor(parts: WebhookRequestParts) {
    this.body = parts.body;
    this.headers = new Map(Object.entries(parts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    this.params = parts.params ?? {};
  }

  payload(): WildValue {
    if (!this.parsed) {
      let value: unknown;
      try {
        value = JSON.parse(this.body);
      } catch {
        throw new InvalidJsonError();
      }
      this.parsed = new WildValue('payload', value);
    }
    return this.parsed;
  }

  header(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }

  eventHeader(name: string): string {
    const value = this.header(name);
    if (value === undefined) throw new MissingHttpEventHeaderError(name);
    return value;
  }

  param(name: string): string | undefined {
    return Object.hasOwn(this.params, name) ? this.params[name] : undefined;
  }

  requiredParam(name: string): string {
    const value = this.param(name);
    if (value === undefined) throw new MissingArgumentError(name);
    return value;
  }

  jsonParam(name: string): WildValue {
    const text = this.param(name);
    if (text === undefined) throw new MissingArgumentError(name);
    try {
      return new WildValue(name, JSON.parse(text));
    } catch {
      throw new InvalidArgumentError(name, `${name} is not valid JSON`);
    }
  }

  boolParam(name: string, fallback: boolean): boolean {
    const text = this.param(name);
    if (text === undefined) return fallback;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new InvalidArgumentError(name, `${name} is not valid JSON`);
    }
    if (typeof value !== 'boolean') throw new InvalidArgumentError(name, `${name} is not a boolean`);
    return value;
  }
}
