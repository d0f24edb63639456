// RFC 4648 standard Base64, strictly: the standard alphabet, correct padding, and no stray bits in
// the last character (the encoding must be canonical), as Python's b64decode(validate=True) and
// the relay expect.
import { createHash } from 'node:crypto';

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes, or null unless `text` is non-empty canonical standard Base64. */
export function decodeStrictBase64(text: string): Buffer | null {
  if (text === '' || !STANDARD_BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** How E2EE clients name a provider token: Base64 of the first 8 bytes of its SHA-256. */
export function tokenIdOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest().subarray(0, 8).toString('base64');
}
