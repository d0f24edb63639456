// Avatars, after Zulip's zerver/lib/avatar.py, upload_avatar_image and do_change_avatar_fields.
// A user's avatar is one they uploaded (source "U"), else the default (source "G"): Gravatar's
// when the operator enabled it (PARLEY_GRAVATAR=1, an outside service), otherwise an identicon
// the server draws itself (jdenticon, as Zulip draws its generated avatars), so that every avatar
// shows on a closed network. Every URL carries the avatar's version, raised on each change.
//
// Files: an uploaded avatar is kept as `avatars/<realm>/<key>.png` (100 px) and `<key>-medium.png`
// (500 px), `key` random so that avatars cannot be listed by guessing; they are served, like
// Zulip's, without credentials at `/user_avatars/<realm>/<key>[-medium].png` (server/avatars.ts).
import { createHash, randomBytes } from 'node:crypto';
import * as jdenticon from 'jdenticon';
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { MAX_AVATAR_FILE_SIZE_MIB } from '../limits.ts';
import { inTransaction } from '../transaction.ts';
import type { UploadedFile } from '../emoji/custom.ts';
import { DEFAULT_AVATAR_SIZE, MEDIUM_AVATAR_SIZE, resizeAvatar } from '../uploads/images.ts';
import { canSeeDeliveryEmail } from './present.ts';
import { botAdministrators, usersWhoCanAccess } from './audience.ts';
import { isAdmin } from './roles.ts';

/** The columns an avatar URL is made from. */
export type AvatarUser = Pick<User, 'id' | 'realmId' | 'deliveryEmail' | 'avatarSource' | 'avatarVersion' | 'avatarKey'>;

export interface AvatarOptions {
  /** The server links Gravatar for default avatars (PARLEY_GRAVATAR). */
  gravatar: boolean;
  /** The 500-pixel avatar rather than the 100-pixel one. */
  medium?: boolean;
}

const MIB = 1024 * 1024;

function gravatarUrl(email: string, version: number, medium = false): string {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? `&s=${MEDIUM_AVATAR_SIZE}` : ''}&version=${version}`;
}

/** Where an uploaded avatar's files are kept. */
export function avatarFileKey(realmId: number, key: string, medium = false): string {
  return `avatars/${realmId}/${key}${medium ? '-medium' : ''}.png`;
}

/** Zulip's avatar_url: the user's avatar, always as a URL. */
export function avatarUrl(user: AvatarUser, options: AvatarOptions): string {
  const suffix = options.medium ? '-medium' : '';
  if (user.avatarSource === 'U' && user.avatarKey) return `/user_avatars/${user.realmId}/${user.avatarKey}${suffix}.png?version=${user.avatarVersion}`;
  if (options.gravatar) return gravatarUrl(user.deliveryEmail, user.avatarVersion, options.medium);
  return `/user_avatars/${user.realmId}/default/${user.id}${suffix}.png?version=${user.avatarVersion}`;
}

/**
 * The avatar URL a viewer gets, or null when the client computes gravatars itself
 * (`client_gravatar`), Gravatar is in use, and the viewer may see the address it is computed from.
 */
export function avatarUrlFor(
  viewer: Pick<User, 'id' | 'role'> | null,
  user: AvatarUser & Pick<User, 'isBot' | 'settings'>,
  options: { clientGravatar: boolean; gravatar: boolean },
): string | null {
  if (options.clientGravatar && options.gravatar && user.avatarSource === 'G' && canSeeDeliveryEmail(viewer, user)) return null;
  return avatarUrl(user, { gravatar: options.gravatar });
}

/** Generated avatars are drawn on request; the last few are kept. */
const drawn = new Map<string, Buffer>();
const DRAWN_KEPT = 512;

/**
 * The default avatar of a user who uploaded none: Zulip's jdenticon identicon (same lightness
 * ranges, no padding), keyed by organization and user so that it differs between servers' users.
 */
export function defaultAvatarPng(realmId: number, userId: number, medium: boolean): Buffer {
  const key = `${realmId}:${userId}:${medium ? 'm' : 's'}`;
  let png = drawn.get(key);
  if (!png) {
    png = jdenticon.toPng(`${realmId}:${userId}`, medium ? MEDIUM_AVATAR_SIZE : DEFAULT_AVATAR_SIZE, {
      padding: 0,
      lightness: { color: [0.3, 0.7], grayscale: [0.3, 0.7] },
    });
    if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
    drawn.set(key, png);
  }
  return png;
}

/** `avatar_source`, `avatar_url`, `avatar_url_medium` and `avatar_version`, as register and events give them. */
export function avatarFields(user: AvatarUser, gravatar: boolean) {
  return {
    avatar_source: user.avatarSource,
    avatar_url: avatarUrl(user, { gravatar }),
    avatar_url_medium: avatarUrl(user, { gravatar, medium: true }),
    avatar_version: user.avatarVersion,
  };
}

/** Zulip's notify_avatar_url_change: everyone who may see the user, and a bot's administrators. */
async function announceAvatar(ctx: Context, user: User): Promise<void> {
  const gravatar = ctx.config.gravatarEnabled;
  const audience = await usersWhoCanAccess(ctx.db, ctx.realm, user);
  if (user.isBot) {
    ctx.events.publish(ctx.realm.id, await botAdministrators(ctx.db, ctx.realm.id, user), {
      type: 'realm_bot', op: 'update', bot: { user_id: user.id, avatar_url: avatarUrl(user, { gravatar }) },
    });
  }
  // Even clients using client_gravatar get the URL: they are sent it anyway.
  ctx.events.publish(ctx.realm.id, audience, { type: 'realm_user', op: 'update', person: { user_id: user.id, ...avatarFields(user, gravatar) } });
}

/**
 * Sets the user's avatar source, raises its version and announces it, in one transaction; the files
 * of the avatar it replaces are deleted once it is committed.
 */
async function changeAvatar(ctx: Context, userId: number, source: 'G' | 'U', key: string | null): Promise<User> {
  const { user, previousKey } = await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.$queryRaw<{ avatarKey: string | null }[]>`SELECT "avatarKey" FROM "User" WHERE id = ${userId} FOR UPDATE`;
    const user = await tx.db.user.update({ where: { id: userId }, data: { avatarSource: source, avatarKey: key, avatarVersion: { increment: 1 } } });
    await announceAvatar(tx, user);
    return { user, previousKey: row?.avatarKey ?? null };
  });
  if (previousKey && previousKey !== key) {
    await ctx.files.delete([avatarFileKey(user.realmId, previousKey), avatarFileKey(user.realmId, previousKey, true)]).catch(() => {});
  }
  return user;
}

/** Zulip's avatar_changes_disabled: the organization manages avatars elsewhere (LDAP); administrators still may. */
function checkAvatarChangesAllowed(ctx: Context, actor: User): void {
  if (ctx.realm.avatarChangesDisabled && !isAdmin(actor)) throw new BadRequestError('Avatar changes are disabled in this organization.');
}

/** An avatar's two files, made before anything is written: an image that cannot be read changes nothing. */
export interface PreparedAvatar {
  small: Buffer;
  medium: Buffer;
}

export async function prepareAvatar(file: UploadedFile): Promise<PreparedAvatar> {
  const bytes = Buffer.from(file.base64, 'base64');
  if (bytes.length > MAX_AVATAR_FILE_SIZE_MIB * MIB) {
    throw new BadRequestError(`Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`);
  }
  const [small, medium] = await Promise.all([resizeAvatar(bytes, DEFAULT_AVATAR_SIZE), resizeAvatar(bytes, MEDIUM_AVATAR_SIZE)]);
  return { small, medium };
}

/** Makes a prepared image the user's avatar (Zulip's upload_avatar_image + do_change_avatar_fields). */
export async function storeAvatar(ctx: Context, user: Pick<User, 'id' | 'realmId'>, avatar: PreparedAvatar): Promise<User> {
  const key = randomBytes(20).toString('hex');
  const keys = [avatarFileKey(user.realmId, key), avatarFileKey(user.realmId, key, true)];
  // Stored before the row names them: a user never points at files that are not there.
  await ctx.files.put(keys[0]!, avatar.small, 'image/png');
  await ctx.files.put(keys[1]!, avatar.medium, 'image/png');
  try {
    return await changeAvatar(ctx, user.id, 'U', key);
  } catch (error) {
    await ctx.files.delete(keys).catch(() => {});
    throw error;
  }
}

/** POST /users/me/avatar: one image, stored at 100 and 500 pixels; answers the new avatar URL. */
export async function uploadAvatar(ctx: Context, actor: User, files: UploadedFile[]): Promise<string> {
  if (files.length !== 1) throw new BadRequestError('You must upload exactly one avatar.');
  checkAvatarChangesAllowed(ctx, actor);
  const user = await storeAvatar(ctx, actor, await prepareAvatar(files[0]!));
  return avatarUrl(user, { gravatar: ctx.config.gravatarEnabled });
}

/** DELETE /users/me/avatar: back to the default avatar; answers its URL. */
export async function deleteAvatar(ctx: Context, actor: User): Promise<string> {
  checkAvatarChangesAllowed(ctx, actor);
  const gravatar = ctx.config.gravatarEnabled;
  // Only an uploaded avatar changes anything (Zulip leaves the version alone otherwise).
  if (actor.avatarSource !== 'U') return avatarUrl(actor, { gravatar });
  return avatarUrl(await changeAvatar(ctx, actor.id, 'G', null), { gravatar });
}
