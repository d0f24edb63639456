import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { RealmDomainType } from '../../schema/domains.ts';
import { addRealmDomain, changeRealmDomain, listRealmDomains, removeRealmDomain } from './actions.ts';

builder.queryFields((t) => ({
  realmDomains: t.field({
    type: [RealmDomainType],
    description: 'The email domains new users may sign up with. Any member may read them.',
    resolve: forUser((ctx) => listRealmDomains(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  addRealmDomain: t.field({
    type: RealmDomainType,
    description: 'Allows an email domain (trimmed, lowercased, checked like Zulip\'s validate_domain). Owners only.',
    args: {
      domain: t.arg.string({ required: true, description: 'The domain, such as `example.com`.' }),
      allowSubdomains: t.arg.boolean({ required: true, description: 'Whether subdomains of the domain are allowed too.' }),
    },
    resolve: forUser((ctx, user, args) => addRealmDomain(ctx, user, args.domain, args.allowSubdomains)),
  }),
  changeRealmDomain: t.boolean({
    description: 'Changes whether subdomains of an allowed domain are allowed. Owners only.',
    args: {
      domain: t.arg.string({ required: true, description: 'An allowed domain.' }),
      allowSubdomains: t.arg.boolean({ required: true, description: 'Whether subdomains of the domain are allowed too.' }),
    },
    resolve: userAction((ctx, user, args) => changeRealmDomain(ctx, user, args.domain, args.allowSubdomains)),
  }),
  removeRealmDomain: t.boolean({
    description: 'Removes an allowed domain; removing the last one lifts the sign-up restriction. Owners only.',
    args: { domain: t.arg.string({ required: true, description: 'An allowed domain.' }) },
    resolve: userAction((ctx, user, args) => removeRealmDomain(ctx, user, args.domain)),
  }),
}));
