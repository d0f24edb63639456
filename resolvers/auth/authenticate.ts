// Resolves who is calling: the realm from the request's host, the user from HTTP Basic credentials
// (`email:api_key`). Shared by GraphQL over HTTP, GraphQL over WebSocket and the REST facade.
import type { Db } from '../../prisma/database.ts';
import type { Realm, User } from '../../prisma/generated/client/client.ts';
import type { Config } from '../../server/config.ts';
import { reviveTimestamps } from '../rows.ts';
import type { RowCache } from '../row-cache.ts';
import {
  InvalidApiKeyError, RealmDeactivatedError, RealmNotFoundError, UserDeactivatedError, BadRequestError,
} from '../errors.ts';

/** The realm's string ID for a host: "" for the root domain (or a bare IP), else the subdomain. */
export function subdomainForHost(host: string | undefined, config: Config): string {
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  const root = config.rootDomain;
  if (!name || name === root || /^[\d.]+$/.test(name) || name.includes(':')) return '';
  if (name.endsWith(`.${root}`)) return name.slice(0, -(root.length + 1));
  // Hosts outside the configured domain (a proxy's name, 127.0.0.1 aliases) serve the root realm.
  return '';
}

export async function realmForHost(db: Db, host: string | undefined, config: Config): Promise<Realm> {
  const realm = await db.realm.findUnique({ where: { stringId: subdomainForHost(host, config) } });
  if (!realm) throw new RealmNotFoundError();
  return realm;
}

export interface BasicCredentials {
  email: string;
  apiKey: string;
}

export function parseBasicAuth(header: string | null | undefined): BasicCredentials | null {
  if (!header) return null;
  const match = /^Basic\s+(.+)$/i.exec(header.trim());
  if (!match) return null;
  let decoded: string;
  try {
    decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

export interface Authenticated {
  user: User;
  realm: Realm;
}

/** Who each API key belongs to, between requests. */
export type CredentialCache = RowCache<Authenticated>;

/** The user an API key belongs to, with their realm, or null. */
async function userByApiKey(db: Db, apiKey: string): Promise<Authenticated | null> {
  // Every request passes here: one raw join is a fraction of the client-side cost of a model query.
  const [row] = await db.$queryRaw<{ user: User; realm: Realm }[]>`
    SELECT to_jsonb(u) AS user, to_jsonb(r) AS realm FROM "User" u JOIN "Realm" r ON r.id = u."realmId"
    WHERE u."apiKey" = ${apiKey}`;
  if (!row) return null;
  return { user: reviveTimestamps(row.user, ['dateJoined', 'lastActivity']), realm: reviveTimestamps(row.realm, ['dateCreated']) };
}

/**
 * The user the credentials name, and their realm, which must be the one the host names. One indexed
 * lookup by API key (with the realm joined), remembered in `cache` when given; the email must match
 * too, so a leaked key alone is not enough.
 */
export async function authenticate(db: Db, subdomain: string, credentials: BasicCredentials, cache?: CredentialCache): Promise<Authenticated> {
  const found = await (cache ? cache.get(credentials.apiKey, () => userByApiKey(db, credentials.apiKey)) : userByApiKey(db, credentials.apiKey));
  // Zulip checks the real address; the API address (user<ID>@host when the real one is hidden) is
  // accepted too, since the user's own clients may know only that one.
  const email = credentials.email.toLowerCase();
  if (!found || (found.user.deliveryEmail.toLowerCase() !== email && found.user.email.toLowerCase() !== email)) throw new InvalidApiKeyError();
  return checkAccount(found, subdomain);
}

/**
 * The user an API key alone names: how third parties call incoming webhooks (`?api_key=`, Zulip's
 * webhook_view), where a URL has no room for an email address.
 */
export async function authenticateByApiKey(db: Db, subdomain: string, apiKey: string, cache?: CredentialCache): Promise<Authenticated> {
  const found = await (cache ? cache.get(apiKey, () => userByApiKey(db, apiKey)) : userByApiKey(db, apiKey));
  if (!found) throw new InvalidApiKeyError();
  return checkAccount(found, subdomain);
}

function checkAccount({ user, realm }: Authenticated, subdomain: string): Authenticated {
  if (realm.stringId !== subdomain) throw new BadRequestError('Account is not associated with this subdomain');
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.isActive) throw new UserDeactivatedError();
  return { user, realm };
}

/** Zulip reports the sending client from the User-Agent's product name (e.g. "ZulipMobile"). */
export function clientNameFromUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return 'API';
  const product = /^([A-Za-z][\w.-]*)/.exec(userAgent)?.[1];
  return product ? product.slice(0, 30) : 'API';
}
