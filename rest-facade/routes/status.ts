// User status.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

const STATUS_PARAMS = {
  status_text: { type: 'string' },
  emoji_name: { type: 'string' },
  emoji_code: { type: 'string' },
  reaction_type: { type: 'string' },
} as const;

/** Zulip lists only the parts of a status that are set. */
function compact(status: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(snakeKeys<Record<string, unknown>>(status)).filter(([, v]) => v !== null));
}

export const statusRoutes: Route[] = [
  {
    method: 'POST', path: '/users/me/status',
    params: { ...STATUS_PARAMS, away: { type: 'bool' } },
    document: `mutation($statusText: String, $emojiName: String, $emojiCode: String, $reactionType: String, $away: Boolean) {
      updateStatus(statusText: $statusText, emojiName: $emojiName, emojiCode: $emojiCode, reactionType: $reactionType, away: $away) }`,
  },
  {
    method: 'POST', path: '/users/{user_id}/status',
    params: { user_id: { type: 'int', in: 'path', required: true }, ...STATUS_PARAMS },
    document: `mutation($userId: Int!, $statusText: String, $emojiName: String, $emojiCode: String, $reactionType: String) {
      updateUserStatus(userId: $userId, statusText: $statusText, emojiName: $emojiName, emojiCode: $emojiCode, reactionType: $reactionType) }`,
  },
  {
    method: 'GET', path: '/users/{user_id}/status',
    params: { user_id: { type: 'int', in: 'path', required: true } },
    document: `query($userId: Int!) { userStatus(userId: $userId) { away statusText emojiName emojiCode reactionType } }`,
    shape: (d) => ({ status: compact(d.userStatus) }),
  },
];
