// Serves uploaded files over HTTP, outside /api/v1 as Zulip does (zerver/views/upload.py):
//   /user_uploads/{realm_id}/{path}            the file, to a user who may read it (Basic auth)
//   /user_uploads/download/{realm_id}/{path}   the same, always as a download
//   /user_uploads/temporary/{token}/{filename} the file, to anyone holding a fresh signed token
//   /user_uploads/thumbnail/{realm_id}/{path}/{format}  an image's thumbnail, to who may read the image
// Who may read what is decided by the domain (resolvers/uploads/attachments.ts); this only speaks HTTP.
import type Koa from 'koa';
import { createContext, type Services } from './context.ts';
import { canReadUpload, uploadKey } from '../resolvers/uploads/attachments.ts';
import { pathIdFromToken } from '../resolvers/uploads/temporary.ts';
import { THUMBNAIL_FORMATS, thumbnailKey } from '../resolvers/uploads/images.ts';
import { MethodNotAllowedError, ParleyError } from '../resolvers/errors.ts';
import type { StoredFile } from '../resolvers/files/storage.ts';
import { respondWithError } from '../rest-facade/errors.ts';

export function isFilePath(path: string): boolean {
  return path.startsWith('/user_uploads/');
}

/**
 * Zulip's INLINE_MIME_TYPES: shown in the browser; anything else is a download. Never HTML, SVG or
 * XML inline: they could run script as the organization's site.
 */
const INLINE_TYPES = new Set([
  'application/pdf', 'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp', 'text/plain', 'video/mp4', 'video/webm',
]);

function text(ctx: Koa.Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

const notFound = (ctx: Koa.Context) => text(ctx, 404, '<p>File not found.</p>');

/** RFC 6266 / 8187 Content-Disposition, as Zulip's patch_disposition_header writes it. */
export function contentDisposition(fileName: string, attachment: boolean): string {
  const kind = attachment ? 'attachment' : 'inline';
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(fileName)) return `${kind}; filename="${fileName.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(fileName)}`;
}

/** Files up to this size are answered from memory; larger ones are streamed. */
const STREAM_ABOVE = 1024 * 1024;

async function bytesOf(file: StoredFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function sendStoredFile(ctx: Koa.Context, file: StoredFile, fileName: string, options: { download?: boolean; cache?: string } = {}): Promise<void> {
  const type = file.contentType.split(';')[0]!.trim().toLowerCase();
  ctx.status = 200;
  ctx.type = file.contentType;
  ctx.length = file.size;
  ctx.set('Content-Disposition', contentDisposition(fileName, Boolean(options.download) || !INLINE_TYPES.has(type)));
  ctx.set('Cache-Control', options.cache ?? 'private, max-age=31536000, immutable');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'");
  if (ctx.method === 'HEAD') return;
  ctx.body = file.size > STREAM_ABOVE ? file.stream() : await bytesOf(file);
}

function pathSegments(path: string): string[] | null {
  try {
    return path.split('/').slice(1).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

export async function serveFiles(ctx: Koa.Context, services: Services): Promise<void> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    respondWithError(ctx, new MethodNotAllowedError());
    return;
  }
  // ['user_uploads', ...rest]
  const segments = pathSegments(ctx.path);
  if (!segments || segments.some((s) => s === '' || s === '.' || s === '..')) return notFound(ctx);
  const rest = segments.slice(1);

  if (rest[0] === 'temporary') {
    if (rest.length !== 3) return notFound(ctx);
    let pathId: string;
    try {
      pathId = await pathIdFromToken(services.db, rest[1]!, rest[2]!);
    } catch (error) {
      if (!(error instanceof ParleyError)) throw error;
      respondWithError(ctx, error);
      return;
    }
    const file = await services.files.get(uploadKey(pathId));
    if (!file) return notFound(ctx);
    return await sendStoredFile(ctx, file, rest[2]!);
  }

  const download = rest[0] === 'download';
  const thumbnail = rest[0] === 'thumbnail' ? rest[rest.length - 1]! : null;
  if (thumbnail !== null && !THUMBNAIL_FORMATS.some((f) => f.name === thumbnail)) return notFound(ctx);
  const path = download ? rest.slice(1) : thumbnail !== null ? rest.slice(1, -1) : rest;
  if (path.length < 2 || !/^\d+$/.test(path[0]!)) return notFound(ctx);
  const pathId = path.join('/');

  const context = await createContext(services, { host: ctx.get('host'), authorization: ctx.get('authorization') || null, userAgent: ctx.get('user-agent') });
  if (context.refusedCredentials) {
    respondWithError(ctx, context.refusedCredentials);
    return;
  }
  const spectatorsAllowed = context.realm.enableSpectatorAccess && services.config.webPublicStreamsEnabled;
  const allowed = context.user || spectatorsAllowed ? await canReadUpload(services.db, context.user, context.realm, pathId) : null;
  if (allowed === null && context.user) return notFound(ctx);
  if (!allowed) {
    if (!context.user) {
      // Anyone else must say who they are first.
      ctx.set('WWW-Authenticate', 'Basic realm="zulip"');
      return text(ctx, 401, '<p>You must log in to view this file.</p>');
    }
    return text(ctx, 403, '<p>You are not authorized to view this file.</p>');
  }
  if (thumbnail !== null) {
    // Not made yet (or not an image): nothing to show.
    const made = await services.files.get(thumbnailKey(pathId, thumbnail));
    if (!made) return notFound(ctx);
    return sendStoredFile(ctx, made, thumbnail);
  }
  const file = await services.files.get(uploadKey(pathId));
  if (!file) return notFound(ctx);
  await sendStoredFile(ctx, file, path[path.length - 1]!, { download });
}
