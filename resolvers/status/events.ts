// `user_status` events.
export interface UserStatusEvent {
  type: 'user_status';
  user_id: number;
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    user_status: UserStatusEvent;
  }
}
