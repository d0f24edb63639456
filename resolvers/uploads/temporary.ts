// Temporary URLs for uploads (Zulip's generate_unauthed_file_access_url): a signed token naming the
// file, valid for a minute, so that a client can hand a download to something that cannot send its
// credentials (a browser, a media player). `/user_uploads/temporary/{token}/{filename}`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../prisma/database.ts';
import { serverSecret } from '../auth/secrets.ts';
import { BadRequestError } from '../errors.ts';

/** Zulip signs for 60 seconds. */
export const TEMPORARY_URL_LIFETIME_SECS = 60;

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

export async function temporaryUploadUrl(db: Db, pathId: string, now = Date.now()): Promise<string> {
  const payload = `${pathId}:${Math.floor(now / 1000) + TEMPORARY_URL_LIFETIME_SECS}`;
  const signature = sign(await serverSecret(db, 'temporary-upload-urls'), payload).toString('base64url');
  // Hex, as Zulip's base16 tokens: nothing in it needs escaping in a path.
  const token = Buffer.from(`${payload}:${signature}`).toString('hex').toUpperCase();
  return `/user_uploads/temporary/${token}/${encodeURIComponent(pathId.split('/').pop()!)}`;
}

/** The path ID a token names, if it is genuine, unexpired and for this file name. */
export async function pathIdFromToken(db: Db, token: string, fileName: string, now = Date.now()): Promise<string> {
  const text = /^[0-9A-Fa-f]+$/.test(token) && token.length % 2 === 0 ? Buffer.from(token, 'hex').toString() : '';
  const match = /^(.+):(\d+):([A-Za-z0-9_-]+)$/.exec(text);
  if (!match) throw new BadRequestError('Invalid token');
  const [, pathId, expires, signature] = match;
  // Compared as text: decoding base64 ignores a last character's spare bits, which would let
  // several spellings of one signature pass.
  const expected = Buffer.from(sign(await serverSecret(db, 'temporary-upload-urls'), `${pathId}:${expires}`).toString('base64url'));
  const given = Buffer.from(signature!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || Number(expires) * 1000 < now) {
    throw new BadRequestError('Invalid token');
  }
  if (pathId!.split('/').pop() !== fileName) throw new BadRequestError('Invalid filename');
  return pathId!;
}
