// Links e-mailed to prove control of an address (password reset, a new e-mail address): a token
// signed with a server secret of its own kind over the account, an expiry, an optional payload and
// the account's state the link was made for. No table: a link dies when it expires, and is spent
// by the change it confirms, which changes that state (the password hash, the address).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../prisma/database.ts';
import { BadRequestError } from '../errors.ts';
import { serverSecret } from './secrets.ts';

export interface LinkKind {
  /** Names the signing secret: links of one kind are never valid as another. */
  secret: string;
  /** How long a link works. */
  hours: number;
  /** Zulip's wording for a link that does not work (forged, expired or spent alike). */
  invalid: string;
}

export interface LinkToken {
  userId: number;
  expires: number;
  payload: string;
  signature: string;
}

// `<user>-<expiry>-<signature>`, or `<user>-<expiry>-<payload>-<signature>` with a base64url payload.
const TOKEN = /^(\d{1,10})-(\d{1,12})-(?:([A-Za-z0-9_-]{1,1400})-)?([A-Za-z0-9_-]{43})$/;

async function sign(db: Db, kind: LinkKind, userId: number, expires: number, payload: string, state: string): Promise<string> {
  const secret = await serverSecret(db, kind.secret);
  // Neither an address nor a password hash has a newline, so the payload cannot blur into the state.
  return createHmac('sha256', secret).update(`${userId}.${expires}.${state}${payload ? `\n${payload}` : ''}`).digest('base64url');
}

/** A token for the account in its current `state`, carrying `payload`. */
export async function makeLinkToken(db: Db, kind: LinkKind, userId: number, state: string, payload = '', now = Date.now()): Promise<string> {
  const expires = Math.floor(now / 1000) + kind.hours * 3600;
  const encoded = payload ? `${Buffer.from(payload, 'utf8').toString('base64url')}-` : '';
  return `${userId}-${expires}-${encoded}${await sign(db, kind, userId, expires, payload, state)}`;
}

/** The parts of a well-formed, unexpired token (whose signature is still to be checked). */
export function readLinkToken(kind: LinkKind, token: string, now = Date.now()): LinkToken {
  const match = TOKEN.exec(token);
  if (!match) throw new BadRequestError(kind.invalid);
  const expires = Number(match[2]);
  if (expires * 1000 < now) throw new BadRequestError(kind.invalid);
  return { userId: Number(match[1]), expires, payload: match[3] ? Buffer.from(match[3], 'base64url').toString('utf8') : '', signature: match[4]! };
}

/** Refuses a token not signed for the account in `state` (forged, or spent by a change of it). */
export async function checkLinkToken(db: Db, kind: LinkKind, token: LinkToken, state: string): Promise<void> {
  const expected = Buffer.from(await sign(db, kind, token.userId, token.expires, token.payload, state));
  const given = Buffer.from(token.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new BadRequestError(kind.invalid);
}
