// Pre-E2EE device tokens (Zulip's POST/DELETE /users/me/apns_device_token, spelled
// /users/me/ios_push_device_token by the spec, and /users/me/android_gcm_reg_id). Deprecated, but
// existing clients still send them.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { BadRequestError, InvalidArgumentError, InvalidPushDeviceTokenError, NoActivePushDeviceError, PushServiceNotConfiguredError } from '../errors.ts';
import { decodeStrictBase64, tokenIdOf } from './encoding.ts';
import { requireHuman } from './human.ts';

export type LegacyKind = 'apns' | 'fcm';
const MAX_TOKEN_LENGTH = 4096;

export function legacyKindFor(tokenKind: string): LegacyKind {
  return tokenKind === 'ios_push' ? 'apns' : 'fcm';
}

function validateToken(token: string, kind: LegacyKind): void {
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw new BadRequestError('Empty or invalid length token');
  // APNs tokens are bytes: clients send them hex-encoded (or Base64, which Zulip also decodes).
  if (kind === 'apns' && !/^(?:[0-9a-fA-F]{2})+$/.test(token) && !decodeStrictBase64(token)) {
    throw new BadRequestError('Invalid APNS token');
  }
}

function validateAppId(appId: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(appId) || appId.length > 255) {
    throw new InvalidArgumentError('appid', 'appid has invalid format');
  }
}

export async function addLegacyPushToken(
  ctx: Context, user: User, input: { kind: LegacyKind; token: string; appId?: string | null },
): Promise<void> {
  requireHuman(user);
  validateToken(input.token, input.kind);
  if (input.kind === 'apns') {
    if (input.appId == null) throw new BadRequestError("Missing 'appid' argument");
    validateAppId(input.appId);
  }
  const appId = input.kind === 'apns' ? input.appId! : null;
  await ctx.db.$transaction(async (tx) => {
    // Re-registering a known token refreshes its app ID (Zulip updates in place).
    await tx.legacyPushToken.upsert({
      where: { userId_kind_token: { userId: user.id, kind: input.kind, token: input.token } },
      create: { userId: user.id, kind: input.kind, token: input.token, appId },
      update: { appId },
    });
  });
}

export async function removeLegacyPushToken(ctx: Context, user: User, input: { kind: LegacyKind; token: string }): Promise<void> {
  requireHuman(user);
  validateToken(input.token, input.kind);
  await ctx.db.$transaction(async (tx) => {
    const removed = await tx.legacyPushToken.deleteMany({ where: { userId: user.id, kind: input.kind, token: input.token } });
    if (removed.count === 0) throw new BadRequestError('Token does not exist');
  });
}

/** Removes the user's legacy tokens of this kind whose E2EE token ID is `tokenId`. */
export async function removeMatchingLegacyTokens(tx: Prisma.TransactionClient, userId: number, kind: LegacyKind, tokenId: string): Promise<void> {
  const tokens = await tx.legacyPushToken.findMany({ where: { userId, kind }, select: { id: true, token: true } });
  const matching = tokens.filter((t) => tokenIdOf(t.token) === tokenId).map((t) => t.id);
  if (matching.length) await tx.legacyPushToken.deleteMany({ where: { id: { in: matching } } });
}

/**
 * POST /mobile_push/test_notification, with Zulip's checks in order: the token, when given, must be
 * one of the user's; push must be on; the user must have a device. Parley delivers no push
 * notifications yet (README, Not built), so a test that passes the checks answers as a server
 * without a push service does.
 */
export async function sendTestPushNotification(ctx: Context, user: User, token: string | null | undefined): Promise<never> {
  requireHuman(user);
  if (token != null) {
    const found = await ctx.db.legacyPushToken.findFirst({ where: { userId: user.id, token }, select: { id: true } });
    if (!found) throw new InvalidPushDeviceTokenError();
  }
  if (!ctx.config.pushNotificationsEnabled) throw new PushServiceNotConfiguredError();
  if (!(await ctx.db.legacyPushToken.count({ where: { userId: user.id } }))) throw new NoActivePushDeviceError();
  throw new PushServiceNotConfiguredError();
}
