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
      password: t.exposeBoolean('password', { description: 'Email and password login.' }),
      dev: t.exposeBoolean('dev', { description: 'Development login by email alone; only when the server runs in development mode.' }),
      email: t.exposeBoolean('email', { description: 'Email-based login (same as password).' }),
      ldap: t.exposeBoolean('ldap', { description: 'LDAP (not offered).' }),
      remoteuser: t.exposeBoolean('remoteuser', { description: 'Single sign-on through the web server (not offered).' }),
      github: t.exposeBoolean('github', { description: 'GitHub (not offered).' }),
      azuread: t.exposeBoolean('azuread', { description: 'Microsoft Entra ID (not offered).' }),
      gitlab: t.exposeBoolean('gitlab', { description: 'GitLab (not offered).' }),
      apple: t.exposeBoolean('apple', { description: 'Apple (not offered).' }),
      google: t.exposeBoolean('google', { description: 'Google (not offered).' }),
      saml: t.exposeBoolean('saml', { description: 'SAML (not offered).' }),
      openidConnect: t.boolean({ description: 'OpenID Connect (`openid connect` in the REST API; not offered).', resolve: (m) => m['openid connect'] }),
    }),
  });

export const ServerSettings = builder.objectRef<ServerSettingsShape>('ServerSettings').implement({
  description: 'What a client needs before logging in: server version, feature level, the organization at this address and how to log in.',
  fields: (t) => ({
    zulipVersion: t.exposeString('zulipVersion', { description: 'The server version, Zulip-style (`12.0-dev+parley-…`).' }),
    zulipMergeBase: t.exposeString('zulipMergeBase', { description: 'The Zulip version whose API this release tracks.' }),
    zulipFeatureLevel: t.exposeInt('zulipFeatureLevel', { description: 'The API feature level whose behaviour this server implements; clients pick parameter names and formats by it.' }),
    pushNotificationsEnabled: t.exposeBoolean('pushNotificationsEnabled', { description: 'Whether mobile push notifications are configured.' }),
    isIncompatible: t.exposeBoolean('isIncompatible', { description: 'True when the requesting client is too old for this server.' }),
    emailAuthEnabled: t.exposeBoolean('emailAuthEnabled', { description: 'Whether email/password login is enabled.' }),
    requireEmailFormatUsernames: t.exposeBoolean('requireEmailFormatUsernames', { description: 'Whether user names must be email addresses.' }),
    realmUrl: t.exposeString('realmUrl', { description: 'The organization’s base URL.' }),
    realmName: t.exposeString('realmName', { description: 'The organization’s name.' }),
    realmIcon: t.exposeString('realmIcon', { description: 'URL of the organization’s icon.' }),
    realmDescription: t.exposeString('realmDescription', { description: 'Rendered HTML.' }),
    realmWebPublicAccessEnabled: t.exposeBoolean('realmWebPublicAccessEnabled', { description: 'Whether visitors without an account may read web-public channels.' }),
    authenticationMethods: t.field({ type: AuthenticationMethods, description: 'Which login methods are enabled.', resolve: (s) => s.authenticationMethods }),
  }),
});
