// GraphQL for personal settings: the `UserSettings` type and its input, both generated from the
// catalog (so a setting added there is readable, changeable and documented everywhere), the
// `mySettings` query, the `updateSettings` mutation (PATCH /settings) and `confirmEmailChange`.
import { builder } from '../../schema/builder.ts';
import { forUser } from '../../schema/fields.ts';
import {
  REALM_DEFAULT_SETTING_NAMES, USER_SETTINGS, USER_SETTING_NAMES, effectiveSettings, realmUserDefaults, type SettingSpec, type UserSettings,
} from './catalog.ts';
import { updateOwnSettings } from './update.ts';
import { confirmEmailChange } from './email-change.ts';
import { updateRealmUserDefaults } from './realm-defaults.ts';
import './state.ts';
import './events.ts';

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

type SettingsView = UserSettings & { timezone: string };

const spec = (name: string): SettingSpec => (USER_SETTINGS as Record<string, SettingSpec>)[name]!;

const describe = (s: SettingSpec): string =>
  s.choices && s.kind === 'string' ? `${s.description} One of ${s.choices.map((c) => JSON.stringify(c)).join(', ')}.` : s.description;

export const UserSettingsType = builder.objectRef<SettingsView>('UserSettings').implement({
  description: 'A user\'s personal settings (Zulip\'s `user_settings`), each with its effective value.',
  fields: (t) => ({
    timezone: t.exposeString('timezone', { description: 'The IANA name of the user\'s profile time zone; "" when unset.' }),
    ...Object.fromEntries(USER_SETTING_NAMES.map((name) => {
      const s = spec(name);
      const options = { description: describe(s), resolve: (v: SettingsView) => v[name] as never };
      const field = s.kind === 'bool' ? t.boolean(options) : s.kind === 'int' ? t.int(options) : t.string(options);
      return [camelCase(name), field];
    })),
  }),
});

/** Every setting as an optional input field: what PATCH /settings and PATCH /realm/user_settings_defaults take. */
function settingsInput(typeName: string, description: string, names: readonly string[]) {
  return builder.inputType(typeName, {
    description,
    fields: (t) => Object.fromEntries(names.map((name) => {
      const s = spec(name);
      const options = { description: describe(s) };
      return [camelCase(name), s.kind === 'bool' ? t.boolean(options) : s.kind === 'int' ? t.int(options) : t.string(options)];
    })),
  });
}

const UserSettingsChanges = settingsInput('UserSettingsChanges', 'Personal settings to change; absent fields keep their value.', USER_SETTING_NAMES);
const RealmUserSettingsDefaultsChanges = settingsInput(
  'RealmUserSettingsDefaultsChanges', 'Defaults for new users to change; absent fields keep their value.', REALM_DEFAULT_SETTING_NAMES,
);

const RealmUserSettingsDefaultsType = builder.objectRef<UserSettings>('RealmUserSettingsDefaults').implement({
  description: 'The personal settings new users of the organization start with (Zulip\'s `realm_user_settings_defaults`).',
  fields: (t) => Object.fromEntries(REALM_DEFAULT_SETTING_NAMES.map((name) => {
    const s = spec(name);
    const options = { description: describe(s), resolve: (v: UserSettings) => v[name] as never };
    return [camelCase(name), s.kind === 'bool' ? t.boolean(options) : s.kind === 'int' ? t.int(options) : t.string(options)];
  })),
});

/** Input fields (camelCase) back to setting names. */
function settingsFromInput(input: Record<string, unknown> | null | undefined, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = input?.[camelCase(name)];
    if (value != null) out[name] = value;
  }
  return out;
}

builder.queryFields((t) => ({
  realmUserSettingsDefaults: t.field({
    type: RealmUserSettingsDefaultsType,
    description: 'The personal settings new users of the viewer\'s organization start with.',
    resolve: forUser((ctx) => realmUserDefaults(ctx.realm)),
  }),
  mySettings: t.field({
    type: UserSettingsType,
    description: 'The viewer\'s personal settings.',
    resolve: forUser((ctx, user) => ({ ...effectiveSettings(user, ctx.realm), timezone: user.timezone })),
  }),
}));

interface EmailChangeShape { oldEmail: string; newEmail: string }

const EmailChangeType = builder.objectRef<EmailChangeShape>('EmailChange').implement({
  description: 'An account\'s e-mail address change, made by following the link mailed to the new address.',
  fields: (t) => ({
    oldEmail: t.exposeString('oldEmail', { description: 'The address before the change (it is told of the change).' }),
    newEmail: t.exposeString('newEmail', { description: 'The address now.' }),
  }),
});

builder.mutationFields((t) => ({
  confirmEmailChange: t.field({
    type: EmailChangeType,
    description: 'Changes an account\'s e-mail address with the token of the link mailed to the new address by updateSettings(email) '
      + '(valid a day, once; the organization\'s rules are checked again). Needs no credentials: the token is the proof.',
    args: { token: t.arg.string({ required: true, description: 'The token of the link, `/accounts/confirm_new_email/<token>/`.' }) },
    resolve: async (_root, args, ctx) => {
      const { oldEmail, newEmail } = await confirmEmailChange(ctx, args.token);
      return { oldEmail, newEmail };
    },
  }),
  updateRealmUserSettingsDefaults: t.field({
    type: RealmUserSettingsDefaultsType,
    description: 'Changes the personal settings new users of the organization start with (administrators; Zulip\'s '
      + 'PATCH /realm/user_settings_defaults). Existing users keep theirs. Each change is announced by a `realm_user_settings_defaults` event. Returns the defaults after the change.',
    args: { settings: t.arg({ type: RealmUserSettingsDefaultsChanges, required: true, description: 'The defaults to change.' }) },
    resolve: forUser(async (ctx, user, args) => {
      await updateRealmUserDefaults(ctx, user, settingsFromInput(args.settings as Record<string, unknown>, REALM_DEFAULT_SETTING_NAMES));
      return realmUserDefaults(await ctx.db.realm.findUniqueOrThrow({ where: { id: ctx.realm.id } }));
    }),
  }),
  updateSettings: t.field({
    type: UserSettingsType,
    description: 'Changes the viewer\'s own name, password, time zone and personal settings (Zulip\'s PATCH /settings); '
      + 'not for bots. Only what is given changes; each changed setting is announced by a `user_settings` event. Returns the settings after the change.',
    args: {
      fullName: t.arg.string({ description: 'A new display name (ignored when the organization disables name changes, except for administrators).' }),
      email: t.arg.string({ description: 'A new e-mail address: checked as Zulip checks it, then sent a confirmation link (valid a day); the address changes when the link is followed (confirmEmailChange).' }),
      oldPassword: t.arg.string({ description: 'The current password; required with newPassword.' }),
      newPassword: t.arg.string({ description: 'A new password: at least 6 characters and hard enough to guess (zxcvbn).' }),
      timezone: t.arg.string({ description: 'The IANA name of the profile time zone (others see it), or "" for none.' }),
      settings: t.arg({ type: UserSettingsChanges, description: 'The personal settings to change.' }),
    },
    resolve: forUser(async (ctx, user, args) => {
      await updateOwnSettings(ctx, user, { ...args, settings: settingsFromInput(args.settings as Record<string, unknown> | null, USER_SETTING_NAMES) });
      const fresh = await ctx.db.user.findUniqueOrThrow({ where: { id: user.id } });
      return { ...effectiveSettings(fresh, ctx.realm), timezone: fresh.timezone };
    }),
  }),
}));
