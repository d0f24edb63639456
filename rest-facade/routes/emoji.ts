// Custom emoji.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const emojiRoutes: Route[] = [
  {
    method: 'GET', path: '/realm/emoji', field: 'customEmoji',
    select: 'id name sourceUrl stillUrl deactivated authorId',
    shape: (emoji) => ({ emoji: Object.fromEntries(emoji.map((e: { id: string }) => [e.id, snakeKeys(e)])) }),
  },
  {
    method: 'POST', path: '/realm/emoji/{emoji_name}', field: 'addCustomEmoji', select: 'id',
    // Zulip reads every file of the request, whatever its field name.
    params: { emoji_name: { arg: 'name' }, files: { decode: 'file' } },
  },
  { method: 'DELETE', path: '/realm/emoji/{emoji_name}', field: 'deactivateCustomEmoji', params: { emoji_name: { arg: 'name' } } },
];
