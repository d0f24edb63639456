// User status.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

/** Zulip lists only the parts of a status that are set. */
function compact(status: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(snakeKeys<Record<string, unknown>>(status)).filter(([, v]) => v !== null));
}

export const statusRoutes: Route[] = [
  { method: 'POST', path: '/users/me/status', field: 'updateStatus' },
  { method: 'POST', path: '/users/{user_id}/status', field: 'updateUserStatus' },
  {
    method: 'GET', path: '/users/{user_id}/status', field: 'userStatus',
    select: 'away statusText emojiName emojiCode reactionType',
    shape: (status) => ({ status: compact(status) }),
  },
];
