// Multipart bodies (form fields and uploaded files), read by the facade itself once the request is
// authenticated and its route known (rest-facade/app.ts), so that the caller's body limit and the
// route's file size limit apply while reading. Files are kept in memory, never in a temporary file:
// nothing is left behind, whatever happens to the request. A body announcing more than the limit is
// refused before any of it is read; what is not read is thrown away (server/request-body.ts).
import busboy from 'busboy';
import type Koa from 'koa';
import { BadRequestError, BodyTooLargeError, FileTooLargeError } from '../resolvers/errors.ts';
import type { RawUpload } from './params.ts';
import { addField, continueBody, declaredLength, discardBody, MAX_FORM_FIELDS, type FormFields } from '../server/request-body.ts';

const MIB = 1024 * 1024;
/** Room for the other parts and the multipart framing beside the file(s) in a Content-Length. */
const FRAMING_ALLOWANCE = 1 * MIB;

export interface MultipartLimits {
  /** The largest file the route takes, in MiB; 0 when it takes none (files are then ignored unread). */
  fileMib: number;
  /** The whole body's limit for this caller (server/gate.ts); a route taking files allows one file beside it. */
  bodyBytes: number;
}

export interface MultipartBody {
  fields: FormFields;
  files: RawUpload[];
}

/**
 * Reads a multipart/form-data body. Throws FileTooLargeError (413) for a file over the limit,
 * BadRequestError for a malformed body.
 */
export async function readMultipart(ctx: Koa.Context, limits: MultipartLimits): Promise<MultipartBody> {
  const maxFileBytes = limits.fileMib * MIB;
  const maxBytes = Math.max(limits.bodyBytes, limits.fileMib > 0 ? maxFileBytes + FRAMING_ALLOWANCE : 0);
  const tooLargeBody = () => (limits.fileMib > 0 ? new FileTooLargeError(limits.fileMib) : new BodyTooLargeError(maxBytes));
  const declared = declaredLength(ctx);
  if (declared !== null && declared > maxBytes) {
    void discardBody(ctx);
    throw tooLargeBody();
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      // busboy stops at exactly `fileSize` bytes: a file of exactly the limit must still pass.
      limits: { fileSize: maxFileBytes + 1, fieldSize: maxBytes, fields: MAX_FORM_FIELDS, ...(limits.fileMib > 0 ? {} : { files: 0 }) },
      defParamCharset: 'utf8',
    });
  } catch {
    throw new BadRequestError('Malformed request body');
  }
  return new Promise<MultipartBody>((resolve, reject) => {
    const fields: FormFields = Object.create(null);
    const files: RawUpload[] = [];
    let tooLarge = false;
    let failed = false;
    let received = 0;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe(parser);
      ctx.req.off('data', count);
      void discardBody(ctx);
      reject(error);
    };
    // A chunked body says nothing of its length: the whole body is counted as it arrives.
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(tooLargeBody());
    };
    ctx.req.on('data', count);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new BadRequestError('Malformed request body'));
      addField(fields, name, value);
    });
    parser.on('fieldsLimit', () => fail(new BadRequestError(`Too many form fields (limit: ${MAX_FORM_FIELDS})`)));
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => { if (!tooLarge) chunks.push(chunk); });
      stream.on('limit', () => {
        tooLarge = true;
        chunks.length = 0;
        fail(new FileTooLargeError(limits.fileMib));
      });
      stream.on('close', () => {
        if (tooLarge || limits.fileMib === 0) return;
        // A part without a Content-Type is still a file (the Python client's uploads, as Django
        // takes them); busboy calls it application/octet-stream and the domain guesses further.
        files.push({ fileName: info.filename ?? 'upload', contentType: info.mimeType || null, bytes: Buffer.concat(chunks) });
      });
    });
    parser.on('error', () => fail(new BadRequestError('Malformed request body')));
    parser.on('close', () => {
      if (!failed) resolve({ fields, files });
    });
    ctx.req.on('error', () => fail(new BadRequestError('Malformed request body')));
    continueBody(ctx);
    ctx.req.pipe(parser);
  });
}
