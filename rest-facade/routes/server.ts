// Server settings and logging in.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const serverRoutes: Route[] = [
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
];
