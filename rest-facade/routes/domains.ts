// Allowed email domains for new users.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const domainRoutes: Route[] = [
  { method: 'GET', path: '/realm/domains', field: 'realmDomains', select: 'domain allowSubdomains', shape: (domains) => ({ domains: snakeKeys(domains) }) },
  {
    method: 'POST', path: '/realm/domains', field: 'addRealmDomain', select: 'id domain',
    shape: (added) => ({ new_domain: [added.id, added.domain] }),
  },
  { method: 'PATCH', path: '/realm/domains/{domain}', field: 'changeRealmDomain' },
  { method: 'DELETE', path: '/realm/domains/{domain}', field: 'removeRealmDomain' },
];
