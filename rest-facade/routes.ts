// The route table: every /api/v1 endpoint as method + path + parameters + the GraphQL operation it
// runs + how Zulip shapes the result. No rules live here: only decoding and shaping.
import type { Route } from './route.ts';
import { snakeKeys } from './route.ts';

const USER_FIELDS = `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot botType botOwnerId role timezone avatarUrl(clientGravatar: $clientGravatar) avatarVersion`;

export const routes: Route[] = [
  // --- Server and authentication ---
  {
    method: 'GET', path: '/server_settings', public: true, params: {},
    document: `query { serverSettings { zulipVersion zulipMergeBase zulipFeatureLevel pushNotificationsEnabled isIncompatible emailAuthEnabled requireEmailFormatUsernames realmUrl realmName realmIcon realmDescription realmWebPublicAccessEnabled authenticationMethods { password dev email ldap remoteuser github azuread gitlab apple google saml openidConnect } } }`,
    shape: (d) => {
      const { authenticationMethods, ...rest } = d.serverSettings;
      const { openidConnect, ...methods } = authenticationMethods;
      return {
        ...snakeKeys(rest),
        realm_uri: rest.realmUrl,
        authentication_methods: { ...methods, 'openid connect': openidConnect },
        external_authentication_methods: [],
      };
    },
  },
  {
    method: 'POST', path: '/fetch_api_key', public: true,
    params: { username: { type: 'string', required: true }, password: { type: 'string', required: true } },
    document: `mutation($username: String!, $password: String!) { fetchApiKey(username: $username, password: $password) { apiKey email userId } }`,
    shape: (d) => snakeKeys(d.fetchApiKey),
  },
  {
    method: 'POST', path: '/dev_fetch_api_key', public: true,
    params: { username: { type: 'string', required: true } },
    document: `mutation($username: String!) { devFetchApiKey(username: $username) { apiKey email userId } }`,
    shape: (d) => snakeKeys(d.devFetchApiKey),
  },

  // --- Users ---
  {
    method: 'GET', path: '/users/me', params: {},
    document: `query($clientGravatar: Boolean = false) { me { ${USER_FIELDS} profileData } maxMessageId }`,
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
