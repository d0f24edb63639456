// Request bodies (server/gate.ts, server/request-body.ts): credentials are checked from the headers
// before any of the body is read; a refused caller is answered without its body being taken in; a
// body over the caller's limit is a 413 with Zulip's error envelope, however it is sent.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/client.ts';
import { useTestServer } from '../support/fixtures.ts';

const KIB = 1024;
const MIB = 1024 * KIB;
// Small limits, so that bodies over them are quick to send.
const MAX_BODY = 1 * MIB;
const ANONYMOUS_MAX_BODY = 16 * KIB;

let auth: string;
const t = useTestServer({ limits: { maxBodyBytes: MAX_BODY, anonymousMaxBodyBytes: ANONYMOUS_MAX_BODY } });

beforeAll(async () => {
  auth = 'Basic ' + Buffer.from(`${t.owner.email}:${t.owner.apiKey}`).toString('base64');
});

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: any; continued: boolean }

/**
 * Sends the headers (announcing `declared` bytes) and then nothing: the answer must come without
 * the body. `keepAlive` picks the kind of connection (Node's agent: false asks for "Connection: close").
 */
function withoutBody(method: string, path: string, headers: Record<string, string>, keepAlive: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const agent = keepAlive ? new http.Agent({ keepAlive: true }) : false;
    const req = http.request(`${t.baseUrl}${path}`, { method, agent, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        req.destroy();
        if (agent) agent.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text), continued });
      });
    });
    req.on('continue', () => { continued = true; });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    req.flushHeaders();
    setTimeout(() => reject(new Error('no answer without the body')), 5000).unref();
  });
}

/** Sends `size` bytes in chunks (no Content-Length), as fast as the server takes them. */
function chunked(path: string, headers: Record<string, string>, size: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.baseUrl}${path}`, { method: 'POST', agent: false, headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text), continued: false }));
    });
    req.on('error', (error) => (['EPIPE', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code!) ? undefined : reject(error)));
    let sent = 0;
    const pump = () => {
      if (sent >= size || req.destroyed) return req.end();
      sent += 64 * KIB;
      req.write(Buffer.alloc(64 * KIB, 'a'), () => setImmediate(pump));
    };
    pump();
  });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const tooLarge = (limit: string) => ({ result: 'error', code: 'BAD_REQUEST', msg: `Request body is larger than the allowed limit of ${limit}` });

describe('credentials are checked before the body is read', () => {
  for (const keepAlive of [true, false]) {
    const connection = keepAlive ? 'kept-alive' : 'closing';
    it(`no credentials on an endpoint that needs them: Zulip's 401 at once (${connection} connection)`, async () => {
      const res = await withoutBody('POST', '/api/v1/messages', { ...FORM, 'content-length': String(19 * MIB) }, keepAlive);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED', msg: 'Not logged in: API authentication or user session required' });
      expect(res.headers['www-authenticate']).toBe('Basic realm="zulip"');
    });

    it(`refused credentials: 401 UNAUTHORIZED naming why, at once (${connection} connection)`, async () => {
      const wrong = 'Basic ' + Buffer.from(`${t.owner.email}:${'x'.repeat(32)}`).toString('base64');
      const res = await withoutBody('POST', '/api/v1/messages', { ...FORM, authorization: wrong, 'content-length': String(19 * MIB) }, keepAlive);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    });
  }

  it('a client waiting for "100 Continue" is refused without being asked for its body', async () => {
    const res = await withoutBody('POST', '/api/v1/messages', { ...FORM, expect: '100-continue', 'content-length': String(19 * MIB) }, true);
    expect(res.status).toBe(401);
    expect(res.continued).toBe(false);
    expect(res.headers.connection).toBe('close');
  });

  it('an accepted caller waiting for "100 Continue" is asked for its body and answered', async () => {
    const body = new URLSearchParams({ type: 'stream', to: 'general', topic: 'continue', content: 'sent after 100 Continue' }).toString();
    const res = await new Promise<Answer>((resolve, reject) => {
      let continued = false;
      const req = http.request(`${t.baseUrl}/api/v1/messages`, {
        method: 'POST', agent: false, headers: { ...FORM, authorization: auth, expect: '100-continue', 'content-length': String(Buffer.byteLength(body)) },
      }, (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body: JSON.parse(text), continued }));
      });
      req.on('continue', () => { continued = true; req.end(body); });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(res.continued).toBe(true);
    expect(res.status).toBe(200);
    expect(res.body.id).toEqual(expect.any(Number));
  });

  it('/graphql without accepted credentials gets the small body limit, answered at once', async () => {
    for (const authorization of [undefined, 'Basic ' + Buffer.from(`${t.owner.email}:nope`).toString('base64')]) {
      const res = await withoutBody('POST', '/graphql', { ...JSON_TYPE, ...(authorization ? { authorization } : {}), 'content-length': String(19 * MIB) }, true);
      expect(res.status).toBe(413);
      expect(res.body.errors[0]).toMatchObject({ message: 'Request body is larger than the allowed limit of 16 KiB', extensions: { code: 'BAD_REQUEST' } });
    }
  });
});

describe('a body over the limit is a 413 with a Zulip error, however it is sent', () => {
  const big = 'x'.repeat(MAX_BODY + 1);

  it('urlencoded, JSON and multipart, from an authenticated caller', async () => {
    const form = await rawRequest('POST', `${t.baseUrl}/api/v1/messages`, { ...FORM, authorization: auth }, new URLSearchParams({ type: 'stream', to: 'general', topic: 't', content: big }).toString());
    expect(form.status).toBe(413);
    expect(form.body).toEqual(tooLarge('1 MiB'));
    const json = await rawRequest('POST', `${t.baseUrl}/api/v1/messages`, { ...JSON_TYPE, authorization: auth }, JSON.stringify({ type: 'stream', to: 'general', topic: 't', content: big }));
    expect(json.status).toBe(413);
    expect(json.body).toEqual(tooLarge('1 MiB'));
    const boundary = 'parleybodies';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\n${big}\r\n--${boundary}--\r\n`;
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/messages`, { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: auth }, multipart);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge('1 MiB'));
  });

  it('chunked, without a Content-Length: refused once the limit is passed, not "Missing argument"', async () => {
    const res = await chunked('/api/v1/messages', { ...FORM, authorization: auth }, 4 * MIB);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge('1 MiB'));
  });

  it('an endpoint served without credentials takes only the small limit (fetch_api_key)', async () => {
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/fetch_api_key`, FORM, new URLSearchParams({ username: t.owner.email, password: 'p'.repeat(ANONYMOUS_MAX_BODY) }).toString());
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge('16 KiB'));
    const small = await rawRequest('POST', `${t.baseUrl}/api/v1/fetch_api_key`, FORM, new URLSearchParams({ username: t.owner.email, password: 'wrong' }).toString());
    expect(small.status).toBe(401);
  });

  it('the sign-up and password-reset pages take the small limit too', async () => {
    const res = await rawRequest('POST', `${t.baseUrl}/accounts/password/reset/`, FORM, new URLSearchParams({ email: 'e'.repeat(ANONYMOUS_MAX_BODY) }).toString());
    expect(res.status).toBe(413);
    expect(String(res.body)).toContain('Request body is larger than the allowed limit of 16 KiB');
  });

  it('GraphQL over the authenticated limit: the general one, or the base64 of the largest upload', async () => {
    const body = (padding: number) => JSON.stringify({ query: '{ serverSettings { realmName } }', variables: { pad: 'x'.repeat(padding) } });
    const realm = t.db.realm;
    // Written directly: the upload limit is the server's (Zulip sets it by plan and settings.py, not through the API).
    await realm.updateMany({ data: { maxFileUploadSizeMib: 1 } });
    try {
      // 1 MiB of file is 1.33 MiB of base64, plus 1 MiB for the rest of the operation.
      expect((await rawRequest('POST', `${t.baseUrl}/graphql`, { ...JSON_TYPE, authorization: auth }, body(2 * MIB))).status).toBe(200);
      const res = await rawRequest('POST', `${t.baseUrl}/graphql`, { ...JSON_TYPE, authorization: auth }, body(3 * MIB));
      expect(res.status).toBe(413);
      expect(res.body.errors[0]).toMatchObject({ message: 'Request body is larger than the allowed limit of 2389 KiB', extensions: { code: 'BAD_REQUEST' } });
    } finally {
      await realm.updateMany({ data: { maxFileUploadSizeMib: 25 } });
    }
  });

  it('the connection serves the next request after a refused body (kept alive)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (body: string) => new Promise<number>((resolve, reject) => {
      const req = http.request(`${t.baseUrl}/api/v1/messages`, { method: 'POST', agent, headers: { ...FORM, authorization: auth } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(await send(new URLSearchParams({ type: 'stream', to: 'general', topic: 't', content: big }).toString())).toBe(413);
    expect(await send(new URLSearchParams({ type: 'stream', to: 'general', topic: 'after', content: 'fine' }).toString())).toBe(200);
    agent.destroy();
  });
});

describe('form fields', () => {
  it('more than 1,000 fields is a 400, as in Django', async () => {
    const fields = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/messages`, { ...FORM, authorization: auth }, fields);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Too many form fields (limit: 1000)' });
  });

  it('names are taken literally, as Django takes them (no a[b] nesting)', async () => {
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/messages`, { ...FORM, authorization: auth },
      'type=stream&to=general&topic=literal&content=hi&extra[a]=1');
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['extra[a]']);
  });
});
