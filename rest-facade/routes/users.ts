// Users: the directory and administration.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const USER_FIELDS = `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot botType botOwnerId role timezone avatarUrl(clientGravatar: $clientGravatar) avatarVersion`;

export const userRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me', params: {},
    document: `query($clientGravatar: Boolean = false) { me { userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot role timezone avatarUrl(clientGravatar: $clientGravatar) avatarVersion profileData } maxMessageId }`,
    shape: (d) => ({ ...snakeKeys(d.me), max_message_id: d.maxMessageId }),
  },
  {
    method: 'GET', path: '/users',
    params: { client_gravatar: { type: 'bool', default: true }, include_custom_profile_fields: { type: 'bool', default: false } },
    document: `query($clientGravatar: Boolean!, $includeCustomProfileFields: Boolean!) { users { ${USER_FIELDS} profileData @include(if: $includeCustomProfileFields) } }`,
    shape: (d) => ({ members: snakeKeys(d.users) }),
  },
  {
    method: 'GET', path: '/users/{user_id}',
    params: {
      user_id: { type: 'int', in: 'path', required: true },
      client_gravatar: { type: 'bool', default: true },
      include_custom_profile_fields: { type: 'bool', default: false },
    },
    document: `query($userId: Int!, $clientGravatar: Boolean!, $includeCustomProfileFields: Boolean!) { user(userId: $userId) { ${USER_FIELDS} profileData @include(if: $includeCustomProfileFields) } }`,
    shape: (d) => ({ user: snakeKeys(d.user) }),
  },
  {
    method: 'GET', path: '/users/{email}',
    params: {
      email: { type: 'string', in: 'path', required: true },
      client_gravatar: { type: 'bool', default: true },
      include_custom_profile_fields: { type: 'bool', default: false },
    },
    document: `query($email: String!, $clientGravatar: Boolean!, $includeCustomProfileFields: Boolean!) { userByEmail(email: $email) { ${USER_FIELDS} profileData @include(if: $includeCustomProfileFields) } }`,
    shape: (d) => ({ user: snakeKeys(d.userByEmail) }),
  },
  {
    method: 'POST', path: '/users',
    params: {
      email: { type: 'string', required: true },
      password: { type: 'string', required: true },
      full_name: { type: 'string', required: true },
    },
    document: `mutation($email: String!, $password: String!, $fullName: String!) { createUser(email: $email, password: $password, fullName: $fullName) }`,
    shape: (d) => ({ user_id: d.createUser }),
  },
];
