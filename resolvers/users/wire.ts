// A user's record on the wire (register's realm_users, realm_user add events), as a viewer sees it.
import type { User } from '../../prisma/generated/client/client.ts';
import { isAdmin, isGuest, isOwner } from './roles.ts';
import { canSeeDeliveryEmail } from './present.ts';
import { avatarUrlFor } from './avatars.ts';

export type Json = Record<string, unknown>;

export interface UserRecordOptions {
  /** The viewer; null for spectators, who learn less. */
  viewer: Pick<User, 'id' | 'role'> | null;
  clientGravatar: boolean;
  /** The server links Gravatar for default avatars (config.gravatarEnabled). */
  gravatar: boolean;
  /** Leave avatar_url out (clients with user_avatar_url_field_optional, for long-idle users). */
  omitAvatarUrl?: boolean;
  profileData?: Json;
}

/** The columns a user record is built from. */
export type UserRecordSource = Pick<User, 'id' | 'realmId' | 'email' | 'deliveryEmail' | 'fullName' | 'role' | 'isActive' | 'isBot' | 'botType'
  | 'botOwnerId' | 'timezone' | 'dateJoined' | 'avatarSource' | 'avatarVersion' | 'avatarKey' | 'settings'>;

export function userRecord(u: UserRecordSource, options: UserRecordOptions): Json {
  const { viewer } = options;
  const record: Json = {
    email: u.email,
    user_id: u.id,
    avatar_version: u.avatarVersion,
    is_admin: isAdmin(u),
    is_owner: isOwner(u),
    is_guest: isGuest(u),
    role: u.role,
    is_bot: u.isBot,
    full_name: u.fullName,
    // Zulip's format_user_row has it (register then drops it); zulip-flutter's decoder requires it
    // in realm_user add events.
    is_active: u.isActive,
    // Spectators learn only the day someone joined, and not their time zone.
    ...(viewer ? { timezone: u.timezone } : {}),
    date_joined: viewer ? u.dateJoined.toISOString() : u.dateJoined.toISOString().slice(0, 10),
    // Spectators never see real addresses; members per the user's email_address_visibility.
    delivery_email: viewer && canSeeDeliveryEmail(viewer, u) ? u.deliveryEmail : null,
  };
  if (!options.omitAvatarUrl) record.avatar_url = avatarUrlFor(viewer, u, options);
  if (u.isBot) {
    record.bot_type = u.botType;
    record.bot_owner_id = u.botOwnerId;
  } else if (viewer) {
    record.profile_data = options.profileData ?? {};
  }
  return record;
}
