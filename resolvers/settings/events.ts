// Personal settings events: `user_settings` (one per changed setting, to the user's own queues) and
// Zulip's legacy forms, `update_display_settings` and `update_global_notifications`, which Zulip
// sends beside it and drops for queues registered with the `user_settings_object` capability.
import { tailorEvents, type WireEvent } from '../events/kinds.ts';

export interface UserSettingsEvent {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: unknown;
  /** With `default_language`: the language's name in English. */
  language_name?: string;
}

export interface UpdateDisplaySettingsEvent {
  type: 'update_display_settings';
  /** The user's API e-mail. */
  user: string;
  setting_name: string;
  setting: boolean | number | string;
  language_name?: string;
}

export interface UpdateGlobalNotificationsEvent {
  type: 'update_global_notifications';
  user: string;
  notification_name: string;
  setting: boolean | number | string;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    user_settings: UserSettingsEvent;
    update_display_settings: UpdateDisplaySettingsEvent;
    update_global_notifications: UpdateGlobalNotificationsEvent;
  }
}

const legacy = (event: UpdateDisplaySettingsEvent | UpdateGlobalNotificationsEvent, queue: { options: { capabilities: Record<string, boolean> } }): WireEvent[] =>
  (queue.options.capabilities.user_settings_object ? [] : [event as unknown as WireEvent]);
tailorEvents('update_display_settings', legacy);
tailorEvents('update_global_notifications', legacy);
