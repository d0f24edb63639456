// The provider's OAuth flow (Zulip's /calls/zoom/register and /calls/zoom/complete): the user is
// sent to the provider with a one-time state; the provider sends the browser back to the complete
// endpoint with a code, which is exchanged at the token URL and stored as the user's token.
// The state names the user and a random nonce kept in VideoProviderToken, so the callback needs no
// session and works on whichever server process receives it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { isDbId } from '../rows.ts';
import {
  STATE_PREFIX, announceTokenState, configuredProvider, redirectUri, requestToken, type ProviderName,
} from './provider.ts';

const STATE_TTL_MS = 10 * 60 * 1000;
const INVALID_STATE = 'Invalid Zoom session identifier';

export async function startAuthorization(ctx: Context, user: User, name: ProviderName): Promise<string> {
  const provider = configuredProvider(ctx, name);
  const nonce = randomBytes(24).toString('base64url');
  const key = { userId_provider: { userId: user.id, provider: STATE_PREFIX + name } };
  await ctx.db.$transaction((tx) => tx.videoProviderToken.upsert({
    where: key,
    create: { userId: user.id, provider: STATE_PREFIX + name, token: nonce },
    update: { token: nonce, createdAt: new Date() },
  }));
  const url = new URL(provider.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', redirectUri(ctx, name));
  url.searchParams.set('state', `${user.id}.${nonce}`);
  return url.toString();
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function completeAuthorization(ctx: Context, name: ProviderName, input: { code: string; state: string }): Promise<void> {
  const provider = configuredProvider(ctx, name);
  const match = /^(\d+)\.([A-Za-z0-9_-]{16,})$/.exec(input.state);
  const userId = match ? Number(match[1]) : NaN;
  if (!match || !isDbId(userId)) throw new BadRequestError(INVALID_STATE);
  // The state is spent whether or not the exchange then succeeds: it can never be replayed.
  const user = await ctx.db.$transaction(async (tx) => {
    const row = await tx.videoProviderToken.findUnique({ where: { userId_provider: { userId, provider: STATE_PREFIX + name } } });
    if (!row || !sameSecret(row.token, match[2]!)) throw new BadRequestError(INVALID_STATE);
    await tx.videoProviderToken.delete({ where: { id: row.id } });
    if (Date.now() - row.createdAt.getTime() > STATE_TTL_MS) return null;
    return tx.user.findUnique({ where: { id: userId } });
  });
  if (!user || !user.isActive) throw new BadRequestError(INVALID_STATE);
  if (input.code === '') throw new BadRequestError('Invalid Zoom credentials');
  const token = await requestToken(provider, { grant_type: 'authorization_code', code: input.code, redirect_uri: redirectUri(ctx, name) });
  if (!token) throw new BadRequestError('Invalid Zoom credentials');
  await storeToken(ctx, user, name, JSON.stringify(token));
  announceTokenState(ctx, user, true);
}

export async function storeToken(ctx: Context, user: User, name: ProviderName, token: string): Promise<void> {
  await ctx.db.$transaction((tx) => tx.videoProviderToken.upsert({
    where: { userId_provider: { userId: user.id, provider: name } },
    create: { userId: user.id, provider: name, token },
    update: { token },
  }));
}

/** Forgets the user's token; returns whether there was one (and then tells the user's clients). */
export async function revokeToken(ctx: Context, user: User, name: ProviderName): Promise<boolean> {
  const removed = await ctx.db.$transaction((tx) => tx.videoProviderToken.deleteMany({ where: { userId: user.id, provider: name } }));
  if (removed.count > 0) announceTokenState(ctx, user, false);
  return removed.count > 0;
}
