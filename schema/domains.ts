// Allowed email domains for new users.
import { builder } from './builder.ts';

export const RealmDomainType = builder.prismaObject('RealmDomain', {
  description: 'An email domain new users of the organization may sign up with (when sign-ups are restricted to domains).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The entry\'s ID.' }),
    domain: t.exposeString('domain', { description: 'The domain, lowercase.' }),
    allowSubdomains: t.exposeBoolean('allowSubdomains', { description: 'Whether addresses at subdomains of the domain are allowed too.' }),
  }),
});
