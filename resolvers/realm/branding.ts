// The organization's icon and logos (day and night), after Zulip's zerver/views/realm_icon.py,
// realm_logo.py, zerver/lib/realm_icon.py and realm_logo.py: administrators upload or remove them;
// everyone hears of it (`realm` update_dict events). Uploaded images are kept as
// `avatars/<realm>/realm/{icon,logo,night_logo}.png` and served, like avatars, at
// `/user_avatars/<realm>/realm/...` (server/avatars.ts); the version in each URL changes with
// every change. Without an upload the icon is Gravatar's (PARLEY_GRAVATAR) or an identicon the
// server draws, and the logo the server's own.
import { createHash } from 'node:crypto';
import * as jdenticon from 'jdenticon';
import type { Realm, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { MAX_ICON_FILE_SIZE_MIB, MAX_LOGO_FILE_SIZE_MIB } from '../limits.ts';
import { inTransaction } from '../transaction.ts';
import type { UploadedFile } from '../emoji/custom.ts';
import { DEFAULT_AVATAR_SIZE, resizeAvatar, resizeLogo } from '../uploads/images.ts';
import { activeUserIds } from '../users/audience.ts';
import { isAdmin } from '../users/roles.ts';

type Branding = Pick<Realm, 'id' | 'stringId' | 'iconSource' | 'iconVersion' | 'logoSource' | 'logoVersion' | 'nightLogoSource' | 'nightLogoVersion'>;

const MIB = 1024 * 1024;
/** Zulip's Realm.ICON_UPLOADED / LOGO_UPLOADED, ICON_FROM_GRAVATAR, LOGO_DEFAULT. */
const UPLOADED = 'U';
const ICON_DEFAULT = 'G';
const LOGO_DEFAULT = 'D';

/** The logo of organizations that uploaded none (Zulip shows its own). */
export const DEFAULT_LOGO_PATH = '/static/images/logo/default-org-logo.svg';

export type RealmImage = 'icon' | 'logo' | 'night_logo';

export function realmImageKey(realmId: number, image: RealmImage): string {
  return `avatars/${realmId}/realm/${image}.png`;
}

/** Zulip's realm_icon_url (relative, as register gives it). */
export function realmIconUrl(realm: Branding, gravatar: boolean): string {
  if (realm.iconSource === UPLOADED) return `/user_avatars/${realm.id}/realm/icon.png?version=${realm.iconVersion}`;
  if (gravatar) return `https://secure.gravatar.com/avatar/${createHash('md5').update(realm.stringId).digest('hex')}?d=identicon`;
  return `/user_avatars/${realm.id}/realm/default-icon.png?version=0`;
}

/** Zulip's get_realm_logo_url. */
function realmLogoUrl(realm: Branding, night: boolean): string {
  const [source, version] = night ? [realm.nightLogoSource, realm.nightLogoVersion] : [realm.logoSource, realm.logoVersion];
  if (source === UPLOADED) return `/user_avatars/${realm.id}/realm/${night ? 'night_logo' : 'logo'}.png?version=${version}`;
  return `${DEFAULT_LOGO_PATH}?version=0`;
}

/** Register's realm_icon_* and realm_*logo_* fields. */
export function brandingState(realm: Branding, gravatar: boolean) {
  return {
    realm_icon_url: realmIconUrl(realm, gravatar),
    realm_icon_source: realm.iconSource,
    realm_logo_url: realmLogoUrl(realm, false),
    realm_logo_source: realm.logoSource,
    realm_night_logo_url: realmLogoUrl(realm, true),
    realm_night_logo_source: realm.nightLogoSource,
  };
}

/** The icon of organizations that uploaded none: an identicon of the organization, 100 pixels. */
export function defaultRealmIconPng(realmId: number): Buffer {
  return jdenticon.toPng(`realm:${realmId}`, DEFAULT_AVATAR_SIZE, { padding: 0.08, backColor: '#ffffff' });
}

/** The one image of an upload of the icon or a logo, within the size limit. */
function oneImage(files: UploadedFile[], what: 'icon' | 'logo', limitMib: number): Buffer {
  if (files.length !== 1) throw new BadRequestError(`You must upload exactly one ${what}.`);
  const bytes = Buffer.from(files[0]!.base64, 'base64');
  if (bytes.length > limitMib * MIB) throw new BadRequestError(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`);
  return bytes;
}

function requireAdmin(actor: User): void {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
}

/** Zulip's do_change_icon_source: source and version, then a `realm` update_dict event to everyone. */
async function changeIcon(ctx: Context, source: string): Promise<string> {
  const gravatar = ctx.config.gravatarEnabled;
  return inTransaction(ctx, async (tx) => {
    const realm = await tx.db.realm.update({ where: { id: ctx.realm.id }, data: { iconSource: source, iconVersion: { increment: 1 } } });
    const url = realmIconUrl(realm, gravatar);
    tx.events.publish(realm.id, await activeUserIds(tx.db, realm.id), {
      type: 'realm', op: 'update_dict', property: 'icon', data: { icon_source: realm.iconSource, icon_url: url },
    });
    return url;
  });
}

/** Zulip's do_change_logo_source, for the day or the night logo. */
async function changeLogo(ctx: Context, source: string, night: boolean): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const realm = await tx.db.realm.update({
      where: { id: ctx.realm.id },
      data: night ? { nightLogoSource: source, nightLogoVersion: { increment: 1 } } : { logoSource: source, logoVersion: { increment: 1 } },
    });
    const data = night
      ? { night_logo_url: realmLogoUrl(realm, true), night_logo_source: realm.nightLogoSource }
      : { logo_url: realmLogoUrl(realm, false), logo_source: realm.logoSource };
    tx.events.publish(realm.id, await activeUserIds(tx.db, realm.id), { type: 'realm', op: 'update_dict', property: night ? 'night_logo' : 'logo', data });
  });
}

/** POST /realm/icon: a square 100-pixel PNG of the image; answers the icon's URL. */
export async function uploadRealmIcon(ctx: Context, actor: User, files: UploadedFile[]): Promise<string> {
  requireAdmin(actor);
  const bytes = oneImage(files, 'icon', MAX_ICON_FILE_SIZE_MIB);
  await ctx.files.put(realmImageKey(ctx.realm.id, 'icon'), await resizeAvatar(bytes, DEFAULT_AVATAR_SIZE), 'image/png');
  return changeIcon(ctx, UPLOADED);
}

/**
 * DELETE /realm/icon: back to the default icon. The uploaded file stays, as in Zulip: a cached
 * page may still name it, and the next upload replaces it.
 */
export async function deleteRealmIcon(ctx: Context, actor: User): Promise<string> {
  requireAdmin(actor);
  return changeIcon(ctx, ICON_DEFAULT);
}

/** POST /realm/logo: the image shrunk to fit 800×100, as the day or the night logo. */
export async function uploadRealmLogo(ctx: Context, actor: User, files: UploadedFile[], night: boolean): Promise<void> {
  requireAdmin(actor);
  const bytes = oneImage(files, 'logo', MAX_LOGO_FILE_SIZE_MIB);
  await ctx.files.put(realmImageKey(ctx.realm.id, night ? 'night_logo' : 'logo'), await resizeLogo(bytes), 'image/png');
  await changeLogo(ctx, UPLOADED, night);
}

/** DELETE /realm/logo: back to the default logo (the file stays, as for the icon). */
export async function deleteRealmLogo(ctx: Context, actor: User, night: boolean): Promise<void> {
  requireAdmin(actor);
  await changeLogo(ctx, LOGO_DEFAULT, night);
}
