// How a user looks to a viewer: which email (avatars: avatars.ts). Shared by every area that embeds users.
import type { User } from '../../prisma/generated/client/client.ts';
import { isAdmin, isModerator, ROLE_GUEST } from './roles.ts';

export const EMAIL_VISIBLE_TO_EVERYONE = 1;

/** A user's `email_address_visibility` setting (bots always show their address). */
export function emailVisibilityOf(user: Pick<User, 'isBot' | 'settings'>): number {
  if (user.isBot) return EMAIL_VISIBLE_TO_EVERYONE;
  const value = (user.settings as Record<string, unknown> | null)?.email_address_visibility;
  return typeof value === 'number' ? value : EMAIL_VISIBLE_TO_EVERYONE;
}

/**
 * Zulip's can_access_delivery_email, by email_address_visibility: 1 everyone, 2 members (not
 * guests), 3 administrators, 4 nobody (administrators included), 5 moderators; always oneself.
 */
export function canSeeDeliveryEmailWith(viewer: Pick<User, 'id' | 'role'> | null, userId: number, visibility: number): boolean {
  if (!viewer) return false;
  if (viewer.id === userId || visibility === EMAIL_VISIBLE_TO_EVERYONE) return true;
  if (visibility === 2) return viewer.role < ROLE_GUEST;
  if (visibility === 3) return isAdmin(viewer);
  if (visibility === 5) return isModerator(viewer);
  return false;
}

export function canSeeDeliveryEmail(viewer: Pick<User, 'id' | 'role'> | null, user: Pick<User, 'id' | 'isBot' | 'settings'>): boolean {
  return canSeeDeliveryEmailWith(viewer, user.id, emailVisibilityOf(user));
}

/**
 * The user's API e-mail (Zulip's get_display_email_address): the real address when everyone may see
 * it, else `user<ID>@<organization host>`, which reveals nothing.
 */
export function apiEmailFor(user: Pick<User, 'id' | 'deliveryEmail'>, visibility: number, realmHost: string): string {
  return visibility === EMAIL_VISIBLE_TO_EVERYONE ? user.deliveryEmail : `user${user.id}@${realmHost}`;
}
