// Personal settings (Zulip's PATCH /settings, and its deprecated aliases for display and
// notification settings, which take the same parameters since feature level 80), and the
// organization's defaults for new users.
import type { Route } from '../route.ts';

const updateSettings = (path: string): Route => ({
  method: 'PATCH', path, field: 'updateSettings', params: { settings: { flatten: true } }, select: 'timezone', shape: () => ({}),
});

export const settingsRoutes: Route[] = [
  updateSettings('/settings'),
  updateSettings('/settings/display'),
  updateSettings('/settings/notifications'),
  {
    method: 'PATCH', path: '/realm/user_settings_defaults', field: 'updateRealmUserSettingsDefaults',
    params: { settings: { flatten: true } }, select: 'enterSends', shape: () => ({}),
  },
];
