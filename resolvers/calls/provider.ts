// Which video-call provider a request means, and whether the operator configured it
// (server/config.ts: PARLEY_ZOOM_*). The spec's `/calls/provider/...` names the one OAuth provider
// the server supports, Zoom, whose Zulip endpoints are `/calls/zoom/...`.
import type { User } from '../../prisma/generated/client/client.ts';
import type { OAuthVideoProvider } from '../../server/config.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

export const PROVIDERS = ['zoom'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** VideoProviderToken rows under this prefix hold a pending OAuth state, not a token. */
export const STATE_PREFIX = 'oauth-state:';

export function providerName(name: string | null | undefined): ProviderName {
  if (name == null || name === 'provider' || name === 'zoom') return 'zoom';
  throw new BadRequestError(`Unknown video call provider: ${name}`);
}

export function configuredProvider(ctx: Context, name: ProviderName): OAuthVideoProvider {
  const provider = ctx.config.videoCalls[name];
  if (!provider) throw new BadRequestError('Zoom credentials have not been configured');
  return provider;
}

export function redirectUri(ctx: Context, name: ProviderName): string {
  return `${ctx.config.externalUrl.replace(/\/+$/, '')}/api/v1/calls/${name}/complete`;
}

/** Tells the user's clients whether calls can be created without OAuth first (both names: see the report). */
export function announceTokenState(ctx: Context, user: User, value: boolean): void {
  ctx.events.publish(user.realmId, [user.id], { type: 'has_zoom_token', value });
  ctx.events.publish(user.realmId, [user.id], { type: 'has_provider_token', value });
}

export interface StoredToken {
  access_token: string;
  refresh_token?: string;
  /** Unix seconds. */
  expires_at?: number;
}

const PROVIDER_TIMEOUT_MS = 5000;

/** POSTs to the provider; network failures and timeouts come back as null. */
export async function providerPost(url: string, init: { headers: Record<string, string>; body: string }): Promise<Response | null> {
  try {
    return await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    return null;
  }
}

/** Exchanges a code or a refresh token at the token URL; null when refused. */
export async function requestToken(provider: OAuthVideoProvider, form: Record<string, string>): Promise<StoredToken | null> {
  const basic = Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64');
  const res = await providerPost(provider.tokenUrl, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}`, accept: 'application/json' },
    body: new URLSearchParams({ ...form, client_id: provider.clientId, client_secret: provider.clientSecret }).toString(),
  });
  if (!res?.ok) return null;
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || typeof body.access_token !== 'string' || body.access_token === '') return null;
  const token: StoredToken = { access_token: body.access_token };
  if (typeof body.refresh_token === 'string') token.refresh_token = body.refresh_token;
  if (typeof body.expires_in === 'number') token.expires_at = Math.floor(Date.now() / 1000) + body.expires_in;
  return token;
}

// Register: whether the viewer has authorized a video-call provider.
initialStatePart(['video_calls', 'has_provider_token'], async (s) => {
  const rows = s.user ? await s.db.videoProviderToken.findMany({ where: { userId: s.user.id }, select: { provider: true } }) : [];
  // Rows under this prefix are OAuth flows in progress, not tokens.
  const tokens = rows.filter((t) => !t.provider.startsWith(STATE_PREFIX));
  // has_zoom_token is the older name, specific to Zoom.
  return { has_provider_token: tokens.length > 0, ...(s.want('video_calls') ? { has_zoom_token: tokens.some((t) => t.provider === 'zoom') } : {}) };
});
