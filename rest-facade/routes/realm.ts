// Organization settings (Zulip's PATCH /realm): every setting a flat parameter, as Zulip takes them.
import type { Route } from '../route.ts';
import { REALM_SETTINGS } from '../../resolvers/realm/settings.ts';

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

// Values of several types (a number or "unlimited") are JSON in Zulip's API; a bare word is taken too.
const jsonOrWord = Object.fromEntries(Object.entries(REALM_SETTINGS)
  .filter(([name, spec]) => spec.kind === 'json' || name === 'jitsi_server_url')
  .map(([name]) => [name, { arg: `settings.${camelCase(name)}`, decode: 'jsonOrString' as const }]));

export const realmRoutes: Route[] = [
  { method: 'PATCH', path: '/realm', field: 'updateRealm', params: { settings: { flatten: true }, ...jsonOrWord }, shape: (changed) => changed },
  // The icon and logos: Zulip reads every file of the request, whatever its field name.
  { method: 'POST', path: '/realm/icon', field: 'uploadRealmIcon', params: { files: { decode: 'file' } }, shape: (url) => ({ icon_url: url }) },
  { method: 'DELETE', path: '/realm/icon', field: 'deleteRealmIcon', shape: (url) => ({ icon_url: url }) },
  { method: 'POST', path: '/realm/logo', field: 'uploadRealmLogo', params: { files: { decode: 'file' } } },
  { method: 'DELETE', path: '/realm/logo', field: 'deleteRealmLogo' },
];
