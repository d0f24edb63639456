// Users: the directory and administration.
import type { Route, WireParam } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const USER_FIELDS = `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot botType botOwnerId role timezone avatarUrl(clientGravatar: $clientGravatar) avatarVersion`;

/** The directory's options: Zulip computes gravatars client-side by default and lists custom profile fields on request. */
const DIRECTORY_PARAMS: Record<string, WireParam> = {
  client_gravatar: { variable: 'Boolean!', default: true },
  include_custom_profile_fields: { variable: 'Boolean!', default: false },
};
const DIRECTORY_SELECTION = `${USER_FIELDS} profileData @include(if: $includeCustomProfileFields)`;

export const userRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me', field: 'me',
    select: `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot role timezone avatarUrl(clientGravatar: false) avatarVersion profileData`,
    alsoSelect: 'maxMessageId',
    shape: (me, _p, data) => ({ ...snakeKeys(me), max_message_id: data.maxMessageId }),
  },
  {
    method: 'GET', path: '/users', field: 'users', params: DIRECTORY_PARAMS, select: DIRECTORY_SELECTION,
    shape: (users) => ({ members: snakeKeys(users) }),
  },
  {
    method: 'GET', path: '/users/{user_id}', field: 'user', params: DIRECTORY_PARAMS, select: DIRECTORY_SELECTION,
    shape: (user) => ({ user: snakeKeys(user) }),
  },
  {
    method: 'GET', path: '/users/{email}', field: 'userByEmail', params: DIRECTORY_PARAMS, select: DIRECTORY_SELECTION,
    shape: (user) => ({ user: snakeKeys(user) }),
  },
  { method: 'POST', path: '/users', field: 'createUser', shape: (userId) => ({ user_id: userId }) },
  { method: 'GET', path: '/users/me/alert_words', field: 'alertWords', shape: (words) => ({ alert_words: words }) },
  { method: 'POST', path: '/users/me/alert_words', field: 'addAlertWords', shape: (words) => ({ alert_words: words }) },
  { method: 'DELETE', path: '/users/me/alert_words', field: 'removeAlertWords', shape: (words) => ({ alert_words: words }) },
];
