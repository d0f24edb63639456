// Custom emoji.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const emojiRoutes: Route[] = [
  {
    method: 'GET', path: '/realm/emoji', params: {},
    document: `query { customEmoji { id name sourceUrl stillUrl deactivated authorId } }`,
    shape: (d) => ({ emoji: Object.fromEntries(d.customEmoji.map((e: { id: string }) => [e.id, snakeKeys(e)])) }),
  },
  {
    method: 'POST', path: '/realm/emoji/{emoji_name}',
    params: { emoji_name: { type: 'string', in: 'path', required: true }, files: { type: 'file' } },
    document: `mutation($name: String!, $files: [FileUpload!]!) { addCustomEmoji(name: $name, files: $files) { id } }`,
    variables: (p) => ({ name: p.emoji_name, files: p.files }),
  },
  {
    method: 'DELETE', path: '/realm/emoji/{emoji_name}',
    params: { emoji_name: { type: 'string', in: 'path', required: true } },
    document: `mutation($name: String!) { deactivateCustomEmoji(name: $name) }`,
    variables: (p) => ({ name: p.emoji_name }),
  },
];
