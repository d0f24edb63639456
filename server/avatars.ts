// Serves avatars and the organization's icon and logos, as Zulip's local storage does, without
// credentials (clients show them in <img> elements and notifications):
//   /user_avatars/{realm_id}/{key}[-medium].png            an uploaded avatar (key: random, unguessable)
//   /user_avatars/{realm_id}/default/{user_id}[-medium].png a generated default avatar
//   /user_avatars/{realm_id}/realm/{icon,logo,night_logo}.png  uploaded icon and logos
//   /user_avatars/{realm_id}/realm/default-icon.png          the generated default icon
//   /user_avatars/exports/{realm_id}/{random}/parley-export-...tar.gz  an organization export's archive
//   /static/images/logo/default-org-logo.svg, /static/images/unknown-user-avatar.png
// Only the organization the host names answers for its own files. Custom emoji images, also under
// /user_avatars/, are served by server/emoji-images.ts.
import type Koa from 'koa';
import sharp from 'sharp';
import type { Services } from './context.ts';
import { realmForHost } from '../resolvers/auth/authenticate.ts';
import { defaultAvatarPng } from '../resolvers/users/avatars.ts';
import { DEFAULT_LOGO_PATH, defaultRealmIconPng } from '../resolvers/realm/branding.ts';
import { INACCESSIBLE_USER_AVATAR_URL } from '../resolvers/limits.ts';
import { sendStoredFile } from './files.ts';
import { respondWithError } from '../rest-facade/errors.ts';
import { NotFoundError } from '../resolvers/errors.ts';

const AVATAR_PATH = /^\/user_avatars\/(\d+)\/(?:(default)\/(\d+)(-medium)?\.png|([0-9a-f]{40}(?:-medium)?\.png)|realm\/(icon|logo|night_logo|default-icon)\.png)$/;

/** An organization export's archive (resolvers/exports/exports.ts): public, unguessable, as Zulip serves them. */
const EXPORT_PATH = /^\/user_avatars\/(exports\/(\d+)\/[A-Za-z0-9_-]{24}\/parley-export-[a-z0-9-]+-\d+\.tar\.gz)$/;

export function isAvatarPath(path: string): boolean {
  return AVATAR_PATH.test(path) || EXPORT_PATH.test(path) || path === DEFAULT_LOGO_PATH || path === INACCESSIBLE_USER_AVATAR_URL;
}

/** Every URL carries its version: what it names never changes, so it may be kept for long. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The server's logo for organizations without their own: a speech bubble, drawn without text. */
const DEFAULT_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100" viewBox="0 0 400 100">
<rect x="8" y="12" width="84" height="62" rx="16" fill="#4a7bd0"/><path d="M30 72 L26 94 L52 72 Z" fill="#4a7bd0"/>
<circle cx="32" cy="43" r="7" fill="#fff"/><circle cx="50" cy="43" r="7" fill="#fff"/><circle cx="68" cy="43" r="7" fill="#fff"/>
<rect x="112" y="30" width="200" height="14" rx="7" fill="#4a7bd0"/><rect x="112" y="54" width="140" height="14" rx="7" fill="#9db6e6"/>
</svg>`;

/** The avatar shown for users a guest may not see: a grey silhouette. */
const UNKNOWN_USER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<rect width="100" height="100" fill="#d9d9d9"/><circle cx="50" cy="38" r="18" fill="#8c8c8c"/><path d="M18 92 C18 66 82 66 82 92 Z" fill="#8c8c8c"/>
</svg>`;
let unknownUserPng: Promise<Buffer> | null = null;

function image(ctx: Koa.Context, type: string, body: Buffer | string, cache = IMMUTABLE): void {
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Cache-Control', cache);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = ctx.method === 'HEAD' ? null : body;
}

export async function serveAvatar(ctx: Koa.Context, services: Services): Promise<void> {
  const notFound = () => {
    respondWithError(ctx, new NotFoundError('Not found'));
  };
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return notFound();
  if (ctx.path === DEFAULT_LOGO_PATH) {
    // Never shown as a page: nothing in it may run.
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return image(ctx, 'image/svg+xml', DEFAULT_LOGO_SVG, 'public, max-age=86400');
  }
  if (ctx.path === INACCESSIBLE_USER_AVATAR_URL) {
    unknownUserPng ??= sharp(Buffer.from(UNKNOWN_USER_SVG)).png().toBuffer();
    return image(ctx, 'image/png', await unknownUserPng, 'public, max-age=86400');
  }
  const exported = EXPORT_PATH.exec(ctx.path);
  if (exported) {
    const realm = await realmForHost(services.db, ctx.get('host') || undefined, services.config).catch(() => null);
    if (!realm || realm.id !== Number(exported[2])) return notFound();
    const file = await services.files.get(exported[1]!);
    if (!file) return notFound();
    return sendStoredFile(ctx, file, exported[1]!.split('/').pop()!, { download: true, cache: 'private, no-store' });
  }
  const match = AVATAR_PATH.exec(ctx.path);
  if (!match) return notFound();
  const realmId = Number(match[1]);
  const realm = await realmForHost(services.db, ctx.get('host') || undefined, services.config).catch(() => null);
  if (!realm || realm.id !== realmId) return notFound();
  const [, , isDefault, userId, medium, uploaded, realmImage] = match;
  if (isDefault) return image(ctx, 'image/png', defaultAvatarPng(realmId, Number(userId), Boolean(medium)));
  if (realmImage === 'default-icon') return image(ctx, 'image/png', defaultRealmIconPng(realmId));
  const key = uploaded ? `avatars/${realmId}/${uploaded}` : `avatars/${realmId}/realm/${realmImage}.png`;
  const file = await services.files.get(key);
  if (!file) return notFound();
  // The icon and logos keep their file name across uploads; the URL's version tells them apart.
  await sendStoredFile(ctx, file, key.split('/').pop()!, { cache: uploaded ? IMMUTABLE : 'public, max-age=86400' });
}
