// A small HTTP client that talks to Parley the way Zulip clients do: Basic auth, form bodies
// (urlencoded or multipart), JSON-encoded lists, and a Host header to pick the realm.
// Every REST response is checked against Zulip's OpenAPI description.
import http from 'node:http';
import { validateResponse } from './openapi.ts';

export interface Credentials {
  email: string;
  apiKey: string;
  userId: number;
}

export interface ApiResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export type Encoding = 'urlencoded' | 'multipart' | 'query' | 'json';

type Params = Record<string, unknown>;

/** Zulip clients send lists and objects as JSON strings, everything else as text. */
export function formValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly credentials?: Credentials,
    readonly host?: string,
    /** Turns off OpenAPI checking for tests that send deliberately odd requests at raw paths. */
    readonly validate = true,
  ) {}

  as(credentials?: Credentials): ApiClient {
    return new ApiClient(this.baseUrl, credentials, this.host, this.validate);
  }

  get(path: string, params: Params = {}) {
    return this.request('GET', path, params, 'query');
  }
  post(path: string, params: Params = {}, encoding: Encoding = 'urlencoded') {
    return this.request('POST', path, params, encoding);
  }
  patch(path: string, params: Params = {}, encoding: Encoding = 'urlencoded') {
    return this.request('PATCH', path, params, encoding);
  }
  delete(path: string, params: Params = {}, encoding: Encoding = 'urlencoded') {
    return this.request('DELETE', path, params, encoding);
  }

  async request(method: string, path: string, params: Params = {}, encoding: Encoding = 'urlencoded', extraHeaders: Record<string, string> = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { 'user-agent': 'ParleyTests/1.0', ...extraHeaders };
    if (this.host) headers.host = this.host;
    if (this.credentials) {
      headers.authorization = 'Basic ' + Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString('base64');
    }
    let url = `${this.baseUrl}/api/v1${path}`;
    let body: Buffer | undefined;
    const entries = Object.entries(params).filter(([, v]) => v !== undefined);
    if (encoding === 'query') {
      const qs = new URLSearchParams(entries.map(([k, v]) => [k, formValue(v)])).toString();
      if (qs) url += (url.includes('?') ? '&' : '?') + qs;
    } else if (encoding === 'urlencoded') {
      body = Buffer.from(new URLSearchParams(entries.map(([k, v]) => [k, formValue(v)])).toString());
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (encoding === 'json') {
      body = Buffer.from(JSON.stringify(Object.fromEntries(entries)));
      headers['content-type'] = 'application/json';
    } else {
      const boundary = '----parley' + Math.random().toString(16).slice(2);
      const parts = entries.map(([k, v]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${formValue(v)}\r\n`);
      body = Buffer.from(parts.join('') + `--${boundary}--\r\n`);
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    }
    if (body) headers['content-length'] = String(body.length);
    const response = await rawRequest(method, url, headers, body);
    if (this.validate) {
      validateResponse(method, path.split('?')[0]!, response.status, response.body);
    }
    return response;
  }
}

export function rawRequest(method: string, url: string, headers: Record<string, string>, body?: Buffer | string): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    // No connection reuse: a kept-alive socket the server has just closed fails the next request
    // with ECONNRESET, which a busy machine makes likely.
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: leave as text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** Runs a GraphQL operation over HTTP as `credentials`. */
export async function graphql(baseUrl: string, query: string, variables: Record<string, unknown> = {}, credentials?: Credentials, host?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (host) headers.host = host;
  if (credentials) headers.authorization = 'Basic ' + Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString('base64');
  const response = await rawRequest('POST', `${baseUrl}/graphql`, headers, JSON.stringify({ query, variables }));
  return response as ApiResponse & { body: { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] } };
}
