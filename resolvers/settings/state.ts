// Personal settings in the register response: `user_settings`, `realm_user_settings_defaults`, and
// for clients without the `user_settings_object` capability the legacy top-level fields of the
// `update_display_settings` and `update_global_notifications` fetch types (Zulip before feature
// level 89). The settings themselves are defined in catalog.ts.
import {
  AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES, LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS, effectiveSettings, realmUserDefaults,
} from './catalog.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import type { InitialState, Json } from '../events/initial-state/state.ts';

initialStatePart(['user_settings', 'update_display_settings', 'update_global_notifications', 'realm_user_settings_defaults'], async (s) => settingsState(s));


/** `user_settings`, `realm_user_settings_defaults` and the legacy forms. */
function settingsState(s: InitialState): Json {
  const state: Json = {};
  const settings: Json = { ...effectiveSettings(s.user, s.realm) };
  // Spectators see the defaults, with the Recent conversations view as home (as in Zulip).
  if (!s.user) settings.web_home_view = 'recent_topics';
  const timezone = s.user?.timezone ?? '';
  if (s.want('user_settings')) {
    state.user_settings = {
      ...settings, timezone, available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS, emojiset_choices: EMOJISET_CHOICES,
    };
  }
  if (!s.capability('user_settings_object')) {
    if (s.want('update_display_settings')) {
      for (const name of LEGACY_DISPLAY_SETTINGS) state[name] = settings[name];
      state.emojiset_choices = EMOJISET_CHOICES;
      state.timezone = timezone;
    }
    if (s.want('update_global_notifications')) {
      for (const name of LEGACY_NOTIFICATION_SETTINGS) state[name] = settings[name];
      state.available_notification_sounds = AVAILABLE_NOTIFICATION_SOUNDS;
    }
  }
  if (s.want('realm_user_settings_defaults')) {
    state.realm_user_settings_defaults = {
      ...realmUserDefaults(s.realm),
      available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
      emojiset_choices: EMOJISET_CHOICES,
    };
  }
  return state;
}
