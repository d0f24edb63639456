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

/** A user record on the wire: bots have no custom profile fields, and Zulip leaves the key out. */
function userWire(user: Record<string, unknown>): Record<string, unknown> {
  const { profile_data: profileData, ...rest } = snakeKeys<Record<string, unknown>>(user);
  return profileData === null || profileData === undefined ? rest : { ...rest, profile_data: profileData };
}

export const userRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me', field: 'me',
    select: `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot role timezone avatarUrl(clientGravatar: false) avatarVersion profileData`,
    alsoSelect: 'maxMessageId',
    shape: (me, _p, data) => ({ ...userWire(me), max_message_id: data.maxMessageId }),
  },
  {
    method: 'GET', path: '/users', field: 'users', params: DIRECTORY_PARAMS, select: DIRECTORY_SELECTION,
    shape: (users) => ({ members: users.map(userWire) }),
  },
  {
    method: 'GET', path: '/users/{user_id}', field: 'user', params: DIRECTORY_PARAMS, select: DIRECTORY_SELECTION,
    shape: (user) => ({ user: userWire(user) }),
  },
  {
    method: 'GET', path: '/users/{email}', field: 'userByEmail', params: DIRECTORY_PARAMS, select: DIRECTORY_SELECTION,
    shape: (user) => ({ user: userWire(user) }),
  },
  { method: 'POST', path: '/users', field: 'createUser', shape: (userId) => ({ user_id: userId }) },
  {
    method: 'POST', path: '/users/me/avatar', field: 'uploadAvatar',
    // Zulip reads every file of the request, whatever its field name.
    params: { files: { decode: 'file' } },
    shape: (url) => ({ avatar_url: url }),
  },
  { method: 'DELETE', path: '/users/me/avatar', field: 'deleteAvatar', shape: (url) => ({ avatar_url: url }) },
  { method: 'GET', path: '/users/me/alert_words', field: 'alertWords', shape: (words) => ({ alert_words: words }) },
  { method: 'POST', path: '/users/me/alert_words', field: 'addAlertWords', shape: (words) => ({ alert_words: words }) },
  { method: 'DELETE', path: '/users/me/alert_words', field: 'removeAlertWords', shape: (words) => ({ alert_words: words }) },
  { method: 'POST', path: '/users/me/muted_users/{muted_user_id}', field: 'muteUser' },
  { method: 'DELETE', path: '/users/me/muted_users/{muted_user_id}', field: 'unmuteUser' },
  { method: 'POST', path: '/users/me/onboarding_steps', field: 'markOnboardingStepRead', shape: () => ({}) },
  { method: 'POST', path: '/users/me/api_key/regenerate', field: 'regenerateApiKey', shape: (apiKey) => ({ api_key: apiKey }) },
];
