// User directory events: `realm_user`, `realm_bot` and `custom_profile_fields`.
type Json = Record<string, unknown>;

export type RealmUserEvent =
  | { type: 'realm_user'; op: 'add'; person: Json }
  | { type: 'realm_user'; op: 'remove'; person: { user_id: number; full_name: string } }
  | { type: 'realm_user'; op: 'update'; person: { user_id: number } & Json };

export type RealmBotEvent =
  | { type: 'realm_bot'; op: 'add'; bot: Json }
  | { type: 'realm_bot'; op: 'update'; bot: { user_id: number } & Json }
  | { type: 'realm_bot'; op: 'remove' | 'delete'; bot: { user_id: number } & Json };

export interface CustomProfileFieldsEvent {
  type: 'custom_profile_fields';
  fields: Json[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm_user: RealmUserEvent;
    realm_bot: RealmBotEvent;
    custom_profile_fields: CustomProfileFieldsEvent;
  }
}
