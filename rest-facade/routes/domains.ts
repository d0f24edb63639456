// Allowed email domains for new users.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const domainRoutes: Route[] = [
  {
    method: 'GET', path: '/realm/domains', params: {},
    document: `query { realmDomains { domain allowSubdomains } }`,
    shape: (d) => ({ domains: snakeKeys(d.realmDomains) }),
  },
  {
    method: 'POST', path: '/realm/domains',
    params: { domain: { type: 'string', required: true }, allow_subdomains: { type: 'bool', required: true } },
    document: `mutation($domain: String!, $allowSubdomains: Boolean!) { addRealmDomain(domain: $domain, allowSubdomains: $allowSubdomains) { id domain } }`,
    shape: (d) => ({ new_domain: [d.addRealmDomain.id, d.addRealmDomain.domain] }),
  },
  {
    method: 'PATCH', path: '/realm/domains/{domain}',
    params: { domain: { type: 'string', in: 'path', required: true }, allow_subdomains: { type: 'bool', required: true } },
    document: `mutation($domain: String!, $allowSubdomains: Boolean!) { changeRealmDomain(domain: $domain, allowSubdomains: $allowSubdomains) }`,
  },
  {
    method: 'DELETE', path: '/realm/domains/{domain}',
    params: { domain: { type: 'string', in: 'path', required: true } },
    document: `mutation($domain: String!) { removeRealmDomain(domain: $domain) }`,
  },
];
