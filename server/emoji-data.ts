// Serves Zulip's emoji_api.json at register's `server_emoji_data_url`: the Unicode emoji names the
// server accepts, which zulip-flutter downloads (without credentials) for its emoji picker.
import type Koa from 'koa';
import { serverEmojiData, SERVER_EMOJI_DATA_PATH } from '../resolvers/emoji/unicode.ts';
import { respondWithError } from '../rest-facade/errors.ts';
import { MethodNotAllowedError } from '../resolvers/errors.ts';

export { SERVER_EMOJI_DATA_PATH };

let body: string | undefined;

export function serveServerEmojiData(ctx: Koa.Context): void {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    respondWithError(ctx, new MethodNotAllowedError());
    return;
  }
  body ??= JSON.stringify(serverEmojiData());
  ctx.type = 'application/json';
  // The table changes only with a Parley release.
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.body = body;
}
