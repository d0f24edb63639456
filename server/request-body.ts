// Request bodies, read only once the caller is known (server/gate.ts sets the limit their
// credentials earn) and never beyond that limit; what is not read is thrown away as it arrives,
// never kept, so no body, however large, costs memory before it is accepted.
import type Koa from 'koa';
import { BadRequestError, BodyTooLargeError } from '../resolvers/errors.ts';

const MIB = 1024 * 1024;
/**
 * What a request does not need of its body is read into nothing, never kept: on a kept-alive
 * connection while the answer goes out (Node reads on for the next request), on a connection the
 * client closes after the answer before it goes out (Node would close it under a client still
 * writing, which then fails on the write instead of reading the answer). Past this much the
 * connection is closed instead.
 */
const MAX_DISCARDED = 64 * MIB;
/** A body this large that nothing has read yet, on a connection closing anyway, is not waited for. */
const MAX_WAITED_UNREAD = 1 * MIB;
/** Django's DATA_UPLOAD_MAX_NUMBER_FIELDS: more form fields than this is a malformed request. */
export const MAX_FORM_FIELDS = 1000;

/** The body's Content-Length, or null when it does not say (chunked) or says nonsense. */
export function declaredLength(ctx: Koa.Context): number | null {
  const header = ctx.get('content-length');
  if (!/^\d+$/.test(header)) return null;
  return Number(header);
}

/** Whether the request has a body at all (a Content-Length above 0, or chunked). */
export function hasBody(ctx: Koa.Context): boolean {
  const declared = declaredLength(ctx);
  return declared === null ? Boolean(ctx.get('transfer-encoding')) : declared > 0;
}

const discarding = new WeakMap<object, Promise<void>>();

/**
 * Throws away what is left of the body (see MAX_DISCARDED); resolves once the answer may go out.
 * Safe to call more than once, and on a request whose body was read or never sent.
 */
export function discardBody(ctx: Koa.Context): Promise<void> {
  const req = ctx.req;
  const started = discarding.get(req);
  if (started) return started;
  const declared = declaredLength(ctx);
  const untouched = req.readableFlowing === null;
  const closeNow = () => {
    ctx.set('Connection', 'close');
    lingerOnClose(ctx);
    return Promise.resolve();
  };
  let done: Promise<void>;
  if (req.complete || req.readableEnded || req.destroyed) done = Promise.resolve();
  // A client waiting for "100 Continue" sends no body unless told to; the connection is closed
  // rather than left for a body it might still send.
  else if (expectsContinue(ctx) && !ctx.res.headersSent) done = closeNow();
  else if (declared !== null && declared > MAX_DISCARDED) done = closeNow();
  else if (!keptAlive(ctx) && untouched && (declared === null || declared > MAX_WAITED_UNREAD)) done = closeNow();
  else {
    const drained = new Promise<void>((resolve) => {
      let discarded = 0;
      req.on('data', (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded > MAX_DISCARDED) {
          req.socket.destroy();
          resolve();
        }
      });
      req.on('end', () => resolve());
      req.on('close', () => resolve());
      req.on('error', () => resolve());
    });
    // Not at once: called from within a pipe's write (a multipart parser refusing a file), the
    // pipe would pause the request again right after.
    setImmediate(() => req.resume());
    done = keptAlive(ctx) ? Promise.resolve() : drained;
  }
  discarding.set(req, done);
  return done;
}

/**
 * How long a connection answered before its body arrived keeps reading (into nothing) after the
 * answer, before it is closed: closing a socket with unread data makes the kernel send a reset,
 * which can destroy the answer before the client reads it (nginx's lingering close).
 */
const LINGER_MS = 5000;

/**
 * Node closes a "Connection: close" socket as soon as the answer is written (`destroySoon`): this
 * one instead ends its side, reads on into nothing (Node dumps the unread request) until the client
 * closes, LINGER_MS pass or MAX_DISCARDED more bytes come, and only then closes.
 */
function lingerOnClose(ctx: Koa.Context): void {
  const socket = ctx.req.socket as import('node:net').Socket & { destroySoon?: () => void };
  if (typeof socket.destroySoon !== 'function') return;
  socket.destroySoon = () => {
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    let read = 0;
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > MAX_DISCARDED) close();
    });
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
    socket.end();
    socket.resume();
  };
}

/** Whether the connection stays open after the answer (HTTP/1.1 without "Connection: close"). */
function keptAlive(ctx: Koa.Context): boolean {
  return ctx.req.httpVersion === '1.1' && !/\bclose\b/i.test(ctx.get('connection'));
}

/** Whether the client waits for "100 Continue" before sending its body (curl does above 1 MiB). */
function expectsContinue(ctx: Koa.Context): boolean {
  return /^100-continue$/i.test(ctx.get('expect')) && !(ctx.req as { parleyContinued?: boolean }).parleyContinued;
}

/** Tells a client waiting for "100 Continue" to send its body, now that it will be read. */
export function continueBody(ctx: Koa.Context): void {
  if (expectsContinue(ctx) && !ctx.res.headersSent) {
    (ctx.req as { parleyContinued?: boolean }).parleyContinued = true;
    ctx.res.writeContinue();
  }
}

/**
 * The whole body, at most `limit` bytes: BodyTooLargeError before reading anything when its
 * Content-Length is over the limit, or as soon as the limit is passed.
 */
export function readBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const declared = declaredLength(ctx);
  if (declared !== null && declared > limit) {
    void discardBody(ctx);
    return Promise.reject(new BodyTooLargeError(limit));
  }
  const req = ctx.req;
  continueBody(ctx);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) {
        chunks.length = 0;
        void discardBody(ctx);
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(new BodyTooLargeError(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onError = () => finish(new BadRequestError('Malformed request body'));
    // The client went away before sending everything.
    const onClose = () => { if (!req.complete) finish(new BadRequestError('Malformed request body')); };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Form fields as Django's QueryDict holds them: repeated names keep every value, in order. */
export type FormFields = Record<string, string | string[]>;

export function addField(fields: FormFields, name: string, value: string): void {
  const existing = fields[name];
  fields[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/** An urlencoded body: names taken literally (no `a[b]` nesting, as in Django), at most MAX_FORM_FIELDS. */
export function parseUrlencoded(text: string): FormFields {
  const fields: FormFields = Object.create(null);
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > MAX_FORM_FIELDS) throw new BadRequestError(`Too many form fields (limit: ${MAX_FORM_FIELDS})`);
    addField(fields, name, value);
  }
  return fields;
}

/** A JSON or urlencoded body as parameters, or undefined for a body of any other type (thrown away unread). */
export async function readParamsBody(ctx: Koa.Context, limit: number): Promise<{ body: unknown; json: boolean }> {
  if (!hasBody(ctx)) return { body: undefined, json: false };
  if (ctx.is('json')) {
    const text = (await readBody(ctx, limit)).toString('utf8');
    if (text.trim() === '') return { body: undefined, json: true };
    try {
      // JSON.parse is iterative in V8; nesting is checked with the parameters (collectRawParams).
      return { body: JSON.parse(text), json: true };
    } catch {
      throw new BadRequestError('Malformed request body');
    }
  }
  if (ctx.is('urlencoded')) {
    return { body: parseUrlencoded((await readBody(ctx, limit)).toString('utf8')), json: false };
  }
  void discardBody(ctx);
  return { body: undefined, json: false };
}
