import type { Context } from '../../schema/context.ts';
import type { ServerSettingsShape } from '../../schema/realm.ts';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from './version.ts';
import { realmUrl } from './urls.ts';
import { realmIconUrl } from './branding.ts';
import { escapeHtml } from '../text.ts';

export function serverSettings(ctx: Context): ServerSettingsShape {
  const { realm, config } = ctx;
  return {
    zulipVersion: ZULIP_VERSION,
    zulipMergeBase: ZULIP_MERGE_BASE,
    zulipFeatureLevel: ZULIP_FEATURE_LEVEL,
    pushNotificationsEnabled: config.pushNotificationsEnabled,
    isIncompatible: false,
    emailAuthEnabled: true,
    requireEmailFormatUsernames: true,
    realmUrl: realmUrl(realm, config),
    realmName: realm.name,
    realmIcon: new URL(realmIconUrl(realm, config.gravatarEnabled), realmUrl(realm, config)).toString(),
    realmDescription: realm.description ? `<p>${escapeHtml(realm.description)}</p>` : '',
    realmWebPublicAccessEnabled: config.webPublicStreamsEnabled && realm.enableSpectatorAccess,
    authenticationMethods: {
      password: true, dev: config.devMode, email: true, ldap: false, remoteuser: false, github: false,
      azuread: false, gitlab: false, apple: false, google: false, saml: false, 'openid connect': false,
    },
  };
}
