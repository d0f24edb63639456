// `user_status` events, and `user_settings` (the settings area will own it once it exists; the
// deprecated `away` status changes `presence_enabled`).
export interface UserStatusEvent {
  type: 'user_status';
  user_id: number;
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface UserSettingsEvent {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: unknown;
  language_name?: string;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    user_status: UserStatusEvent;
    user_settings: UserSettingsEvent;
  }
}
