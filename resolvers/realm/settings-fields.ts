// GraphQL for organization settings (PATCH /realm): one input with every setting of the catalog
// (resolvers/realm/settings.ts), permission settings included, and the `updateRealm` mutation.
import { builder } from '../../schema/builder.ts';
import { forUser } from '../../schema/fields.ts';
import { REALM_GROUP_SETTINGS, REALM_SETTINGS } from './settings.ts';
import { updateRealm } from './update.ts';

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

const RealmSettingsInput = builder.inputType('RealmSettingsInput', {
  description: 'Organization settings to change; absent fields keep their value. Permission settings take Zulip\'s '
    + '`{new, old?}` objects, whose values are a group ID or `{direct_members, direct_subgroups}`; `old`, when given, must match the current value.',
  fields: (t) => ({
    ...Object.fromEntries(Object.entries(REALM_SETTINGS).map(([name, spec]) => {
      const options = { description: spec.description };
      const field = spec.kind === 'bool' ? t.boolean(options) : spec.kind === 'int' ? t.int(options)
        : spec.kind === 'string' ? t.string(options) : t.field({ type: 'JSON', ...options });
      return [camelCase(name), field];
    })),
    ...Object.fromEntries(Object.keys(REALM_GROUP_SETTINGS).map((name) => [
      camelCase(name),
      t.field({ type: 'JSON', description: `Who holds the \`${name}\` permission${name === 'create_multiuse_invite_group' || name === 'can_create_groups' || name === 'can_invite_users_group' || name === 'can_manage_all_groups' ? ' (owners only)' : ''}: \`{new, old?}\`.` }),
    ])),
  }),
});

builder.mutationFields((t) => ({
  updateRealm: t.field({
    type: 'JSON',
    description: 'Changes organization settings (administrators; some settings owners only). Returns the requested settings that changed, '
      + 'by their Zulip wire names, with their new values ("updated" for text). Each change is announced by a `realm` event.',
    args: { settings: t.arg({ type: RealmSettingsInput, required: true, description: 'The settings to change.' }) },
    resolve: forUser((ctx, user, { settings }) => {
      const input = settings as Record<string, unknown>;
      const pick = (names: string[]) => Object.fromEntries(names.map((n) => [n, input[camelCase(n)]]));
      return updateRealm(ctx, user, {
        settings: pick(Object.keys(REALM_SETTINGS)),
        groupSettings: pick(Object.keys(REALM_GROUP_SETTINGS)),
      });
    }),
  }),
}));
