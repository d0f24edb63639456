// Creating a meeting (Zulip's make_zoom_video_call): with the user's OAuth token, refreshed when
// it has expired; a token the provider refuses is forgotten, so clients offer OAuth again.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, InvalidVideoProviderTokenError } from '../errors.ts';
import { configuredProvider, providerPost, requestToken, type ProviderName, type StoredToken } from './provider.ts';
import { revokeToken, storeToken } from './oauth.ts';

function parseToken(text: string): StoredToken | null {
  try {
    const value = JSON.parse(text) as StoredToken;
    return value && typeof value.access_token === 'string' ? value : null;
  } catch {
    return null;
  }
}

async function invalidToken(ctx: Context, user: User, name: ProviderName): Promise<never> {
  await revokeToken(ctx, user, name);
  throw new InvalidVideoProviderTokenError();
}

export async function createVideoCall(ctx: Context, user: User, name: ProviderName, isVideoCall: boolean): Promise<string> {
  const provider = configuredProvider(ctx, name);
  const row = await ctx.db.videoProviderToken.findUnique({ where: { userId_provider: { userId: user.id, provider: name } } });
  if (!row) throw new InvalidVideoProviderTokenError();
  let token = parseToken(row.token);
  if (!token) return invalidToken(ctx, user, name);

  if (token.expires_at !== undefined && token.expires_at <= Math.floor(Date.now() / 1000)) {
    const refreshed = token.refresh_token ? await requestToken(provider, { grant_type: 'refresh_token', refresh_token: token.refresh_token }) : null;
    if (!refreshed) return invalidToken(ctx, user, name);
    token = { refresh_token: token.refresh_token, ...refreshed };
    await storeToken(ctx, user, name, JSON.stringify(token));
  }

  const res = await providerPost(`${provider.apiUrl}/users/me/meetings`, {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
    // The host's and participants' video default follows the call type; a default password keeps
    // organizations that require meeting authentication from forcing a waiting room.
    body: JSON.stringify({ settings: { host_video: isVideoCall, participant_video: isVideoCall }, default_password: true }),
  });
  if (res?.status === 401) return invalidToken(ctx, user, name);
  const body = res?.ok ? ((await res.json().catch(() => null)) as Record<string, unknown> | null) : null;
  if (!body || typeof body.join_url !== 'string') throw new BadRequestError('Failed to create Zoom call');
  return body.join_url;
}
