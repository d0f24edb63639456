import { builder } from './builder.ts';

export interface ServerSettingsShape {
  zulipVersion: string;
  zulipMergeBase: string;
  zulipFeatureLevel: number;
  pushNotificationsEnabled: boolean;
  isIncompatible: boolean;
  emailAuthEnabled: boolean;
  requireEmailFormatUsernames: boolean;
  realmUrl: string;
  realmName: string;
  realmIcon: string;
  realmDescription: string;
  realmWebPublicAccessEnabled: boolean;
  authenticationMethods: { password: boolean; dev: boolean; email: boolean; ldap: boolean; remoteuser: boolean; github: boolean; azuread: boolean; gitlab: boolean; apple: boolean; google: boolean; saml: boolean; 'openid connect': boolean };
}

export const AuthenticationMethods = builder
  .objectRef<ServerSettingsShape['authenticationMethods']>('AuthenticationMethods')
  .implement({
    description: 'Which login methods this server accepts (Zulip\'s deprecated `authentication_methods` map).',
    fields: (t) => ({
      password: t.exposeBoolean('password'),
      dev: t.exposeBoolean('dev', { description: 'Development login by email alone; only when the server runs in development mode.' }),
      email: t.exposeBoolean('email'),
      ldap: t.exposeBoolean('ldap'),
      remoteuser: t.exposeBoolean('remoteuser'),
      github: t.exposeBoolean('github'),
      azuread: t.exposeBoolean('azuread'),
      gitlab: t.exposeBoolean('gitlab'),
      apple: t.exposeBoolean('apple'),
      google: t.exposeBoolean('google'),
      saml: t.exposeBoolean('saml'),
      openidConnect: t.boolean({ resolve: (m) => m['openid connect'] }),
    }),
  });

export const ServerSettings = builder.objectRef<ServerSettingsShape>('ServerSettings').implement({
  description: 'What a client needs before logging in: server version, feature level, the organization at this address and how to log in.',
  fields: (t) => ({
    zulipVersion: t.exposeString('zulipVersion'),
    zulipMergeBase: t.exposeString('zulipMergeBase'),
    zulipFeatureLevel: t.exposeInt('zulipFeatureLevel', { description: 'The API feature level whose behaviour this server implements; clients pick parameter names and formats by it.' }),
    pushNotificationsEnabled: t.exposeBoolean('pushNotificationsEnabled'),
    isIncompatible: t.exposeBoolean('isIncompatible'),
    emailAuthEnabled: t.exposeBoolean('emailAuthEnabled'),
    requireEmailFormatUsernames: t.exposeBoolean('requireEmailFormatUsernames'),
    realmUrl: t.exposeString('realmUrl'),
    realmName: t.exposeString('realmName'),
    realmIcon: t.exposeString('realmIcon'),
    realmDescription: t.exposeString('realmDescription', { description: 'Rendered HTML.' }),
    realmWebPublicAccessEnabled: t.exposeBoolean('realmWebPublicAccessEnabled'),
    authenticationMethods: t.field({ type: AuthenticationMethods, resolve: (s) => s.authenticationMethods }),
  }),
});
