// Serves custom emoji images at their `source_url`, `/user_avatars/{realm_id}/emoji/images/{id}.{ext}`,
// and animated ones' first frame at `still_url`, `.../emoji/images/still/{id}.png`.
// Like Zulip's local upload storage these are public URLs, but only the realm the host names
// answers for its own emoji.
import type Koa from 'koa';
import type { Db } from '../prisma/database.ts';
import type { Config } from './config.ts';
import { realmForHost } from '../resolvers/auth/authenticate.ts';
import { isDbId } from '../resolvers/rows.ts';
import { gifStill } from '../resolvers/emoji/gif.ts';
import { respondWithError } from '../rest-facade/errors.ts';
import { NotFoundError } from '../resolvers/errors.ts';

export const EMOJI_IMAGE_PATH = /^\/user_avatars\/(\d+)\/emoji\/images\/(still\/)?(\d+)\.[a-z]+$/;

export async function serveEmojiImage(ctx: Koa.Context, db: Db, config: Config): Promise<void> {
  const match = EMOJI_IMAGE_PATH.exec(ctx.path);
  const realmId = Number(match?.[1]);
  const still = Boolean(match?.[2]);
  const id = Number(match?.[3]);
  const notFound = () => {
    respondWithError(ctx, new NotFoundError('Not found'));
  };
  if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !isDbId(realmId) || !isDbId(id)) return notFound();
  const realm = await realmForHost(db, ctx.get('host') || undefined, config).catch(() => null);
  if (!realm || realm.id !== realmId) return notFound();
  const emoji = await db.customEmoji.findFirst({ where: { id, realmId }, select: { content: true, contentType: true, isAnimated: true } });
  if (!emoji || (still && !emoji.isAnimated)) return notFound();
  ctx.status = 200;
  ctx.type = emoji.contentType;
  // An emoji's image never changes under its ID; deactivated ones still show in old messages.
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.set('X-Content-Type-Options', 'nosniff');
  const content = Buffer.from(emoji.content);
  // The still of an animated emoji is its first frame.
  ctx.body = still && emoji.contentType === 'image/gif' ? gifStill(content) : content;
}
