// Server settings and logging in.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const serverRoutes: Route[] = [
  {
    method: 'GET', path: '/server_settings', public: true, field: 'serverSettings',
    shape: (settings) => {
      const { authenticationMethods, ...rest } = settings;
      const { openidConnect, ...methods } = authenticationMethods;
      return {
        ...snakeKeys(rest),
        realm_uri: rest.realmUrl,
        authentication_methods: { ...methods, 'openid connect': openidConnect },
        external_authentication_methods: [],
      };
    },
  },
  { method: 'POST', path: '/fetch_api_key', public: true, field: 'fetchApiKey', shape: (key) => snakeKeys(key) },
  { method: 'POST', path: '/dev_fetch_api_key', public: true, field: 'devFetchApiKey', shape: (key) => snakeKeys(key) },
];
