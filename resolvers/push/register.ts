// E2EE push registration (Zulip's POST /mobile_push/register, feature levels 406/432/468). A device
// is registered with its push key and its (encrypted) provider token together; afterwards either
// half can be rotated alone. The server keeps the key for encrypting notifications and the opaque
// registration for the push relay, which alone can decrypt it.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { PushDeviceShape } from '../../schema/push.ts';
import { BadRequestError, InvalidArgumentError, MissingArgumentError, PushServiceNotConfiguredError } from '../errors.ts';
import { toUnixSeconds } from '../time.ts';
import { decodeStrictBase64 } from './encoding.ts';
import { legacyKindFor, removeMatchingLegacyTokens } from './legacy.ts';
import { requireHuman } from './human.ts';

/** libsodium secretbox: the only cryptosystem clients may choose. */
const CRYPTOSYSTEM_SECRETBOX = 0x31;
const SECRETBOX_KEY_BYTES = 32;
const TOKEN_ID_BYTES = 8;
const UINT32_MAX = 4_294_967_295n;
const INT64_MAX = 9_223_372_036_854_775_807n;

/** The spec's provider kinds, and Zulip's names for them (`fcm`, `apns`), which clients also send. */
const TOKEN_KINDS: Record<string, string> = { android_push: 'android_push', ios_push: 'ios_push', fcm: 'android_push', apns: 'ios_push' };

export interface PushRegistrationInput {
  deviceId: string;
  pushKeyId?: string | null;
  pushKey?: string | null;
  tokenKind?: string | null;
  tokenId?: string | null;
  bouncerPublicKey?: string | null;
  encryptedPushRegistration?: string | null;
}

function parseInteger(name: string, value: string, max: bigint): bigint {
  const text = value.trim();
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError(name, `Invalid ${name}`);
  const n = BigInt(text);
  if (n > max) throw new InvalidArgumentError(name, `Invalid ${name}`);
  return n;
}

function present(value: string | null | undefined): value is string {
  return value !== null && value !== undefined;
}

/** Both fields of a group, or neither: a half group names the missing field. */
function group(fields: Record<string, string | null | undefined>): boolean {
  const given = Object.entries(fields).filter(([, v]) => present(v));
  if (given.length === 0) return false;
  const missing = Object.keys(fields).find((k) => !present(fields[k]));
  if (missing) throw new MissingArgumentError(missing);
  return true;
}

interface PushKey { pushKeyId: bigint; pushKey: Buffer }
interface Token { tokenKind: string; tokenId: string; bouncerPublicKey: string; encryptedPushRegistration: string }

function parsePushKey(input: PushRegistrationInput): PushKey | null {
  if (!group({ push_key_id: input.pushKeyId, push_key: input.pushKey })) return null;
  const pushKeyId = parseInteger('push_key_id', input.pushKeyId!, UINT32_MAX);
  const pushKey = decodeStrictBase64(input.pushKey!);
  if (!pushKey || pushKey.length !== 1 + SECRETBOX_KEY_BYTES || pushKey[0] !== CRYPTOSYSTEM_SECRETBOX) {
    throw new InvalidArgumentError('push_key', 'Invalid push_key');
  }
  return { pushKeyId, pushKey };
}

function parseToken(ctx: Context, input: PushRegistrationInput): Token | null {
  if (!group({
    token_kind: input.tokenKind,
    token_id: input.tokenId,
    bouncer_public_key: input.bouncerPublicKey,
    encrypted_push_registration: input.encryptedPushRegistration,
  })) return null;
  const tokenKind = TOKEN_KINDS[input.tokenKind!];
  if (!tokenKind) throw new InvalidArgumentError('token_kind', 'Invalid token_kind');
  if (decodeStrictBase64(input.tokenId!)?.length !== TOKEN_ID_BYTES) throw new InvalidArgumentError('token_id', 'Invalid token_id');
  if (!decodeStrictBase64(input.bouncerPublicKey!) || !ctx.config.pushBouncerPublicKeys.includes(input.bouncerPublicKey!)) {
    throw new InvalidArgumentError('bouncer_public_key', 'Invalid bouncer_public_key');
  }
  if (!decodeStrictBase64(input.encryptedPushRegistration!)) {
    throw new InvalidArgumentError('encrypted_push_registration', 'Invalid encrypted_push_registration');
  }
  return { tokenKind, tokenId: input.tokenId!, bouncerPublicKey: input.bouncerPublicKey!, encryptedPushRegistration: input.encryptedPushRegistration! };
}

export async function registerPushDevice(ctx: Context, user: User, input: PushRegistrationInput): Promise<void> {
  requireHuman(user);
  if (!ctx.config.pushNotificationsEnabled) throw new PushServiceNotConfiguredError();
  const deviceId = parseInteger('device_id', input.deviceId, INT64_MAX);
  const key = parsePushKey(input);
  const token = parseToken(ctx, input);
  if (!key && !token) throw new BadRequestError('Push key fields or token fields are required.');

  await ctx.db.$transaction(async (tx) => {
    const device = await tx.pushDevice.findUnique({ where: { userId_deviceId: { userId: user.id, deviceId } } });
    if (!device && !(key && token)) {
      throw new BadRequestError('No push registration for this device_id; an initial registration needs both the push key and the token fields.');
    }
    const data = {
      ...(key ? { pushKeyId: key.pushKeyId, pushKey: new Uint8Array(key.pushKey) } : {}),
      ...(token ?? {}),
      lastUpdated: new Date(),
    };
    if (device) await tx.pushDevice.update({ where: { id: device.id }, data });
    else await tx.pushDevice.create({ data: { userId: user.id, deviceId, ...data } });
    // The device now gets E2EE notifications: its pre-E2EE registration would only duplicate them.
    if (token) await removeMatchingLegacyTokens(tx, user.id, legacyKindFor(token.tokenKind), token.tokenId);
  });
}

export async function listPushDevices(ctx: Context, user: User): Promise<PushDeviceShape[]> {
  const rows = await ctx.db.pushDevice.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
  return rows.map((r) => ({
    deviceId: r.deviceId.toString(),
    pushKeyId: r.pushKeyId === null ? null : r.pushKeyId.toString(),
    tokenKind: r.tokenKind,
    tokenId: r.tokenId,
    lastUpdated: toUnixSeconds(r.lastUpdated),
  }));
}
