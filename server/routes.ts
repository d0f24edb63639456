// Everything outside /api/v1 and /graphql: server-rendered pages, files, avatars, emoji data and
// images, GraphiQL's assets, the front page and the health check.
import type Koa from 'koa';
import type { Services } from './context.ts';
import { NotFoundError } from '../resolvers/errors.ts';
import { respondWithError } from '../rest-facade/errors.ts';
import { frontPage, isGraphiQLAsset, serveGraphiQLAsset } from './graphiql.ts';
import { subdomainForHost } from '../resolvers/auth/authenticate.ts';
import { EMOJI_IMAGE_PATH, serveEmojiImage } from './emoji-images.ts';
import { SERVER_EMOJI_DATA_PATH, serveServerEmojiData } from './emoji-data.ts';
import { isFilePath, serveFiles } from './files.ts';
import { isAvatarPath, serveAvatar } from './avatars.ts';
import { isPagePath, servePage } from './pages.ts';

export async function serveOther(ctx: Koa.Context, services: Services): Promise<void> {
  const { config, db } = services;
  if (isPagePath(ctx.path)) {
    await servePage(ctx, services);
    return;
  }
  if (isFilePath(ctx.path)) {
    await serveFiles(ctx, services);
    return;
  }
  if (isAvatarPath(ctx.path)) {
    await serveAvatar(ctx, services);
    return;
  }
  if (ctx.path === SERVER_EMOJI_DATA_PATH) {
    serveServerEmojiData(ctx);
    return;
  }
  if (EMOJI_IMAGE_PATH.test(ctx.path)) {
    await serveEmojiImage(ctx, db, config);
    return;
  }
  if (isGraphiQLAsset(ctx.path)) {
    await serveGraphiQLAsset(ctx);
    return;
  }
  if (ctx.path === '/' && ctx.method === 'GET' && ctx.accepts('json', 'html') === 'html') {
    const realm = await db.realm.findUnique({ where: { stringId: subdomainForHost(ctx.host, config) }, select: { name: true } });
    ctx.type = 'html';
    ctx.body = frontPage(config, realm?.name ?? 'Parley');
    return;
  }
  if (ctx.path === '/' || ctx.path === '/health') {
    ctx.body = { result: 'success', msg: '', server: 'parley', graphql: '/graphql', api: '/api/v1' };
    return;
  }
  respondWithError(ctx, new NotFoundError('Not found'));
}
