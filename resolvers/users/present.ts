// How a user looks to a viewer: which email, which avatar URL. Shared by every area that embeds users.
import { createHash } from 'node:crypto';
import type { User } from '../../prisma/generated/client/client.ts';
import { isAdmin } from './roles.ts';

/** Zulip's email_address_visibility: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. */
export function canSeeDeliveryEmail(viewer: Pick<User, 'id' | 'role'> | null, user: Pick<User, 'id' | 'isBot' | 'settings'>): boolean {
  if (user.isBot) return true;
  if (!viewer) return false;
  if (viewer.id === user.id || isAdmin(viewer)) return true;
  const visibility = Number((user.settings as Record<string, unknown> | null)?.email_address_visibility ?? 1);
  if (visibility === 1) return true;
  if (visibility === 2) return viewer.role <= 400;
  if (visibility === 5) return viewer.role <= 300;
  return false;
}

export function gravatarUrl(email: string, version: number): string {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${version}`;
}

/**
 * The avatar URL, or null when the client computes gravatars itself (`client_gravatar`) and may see
 * the address the gravatar is computed from.
 */
export function avatarUrlFor(
  viewer: Pick<User, 'id' | 'role'> | null,
  user: Pick<User, 'id' | 'isBot' | 'settings' | 'deliveryEmail' | 'avatarSource' | 'avatarVersion' | 'realmId'>,
  clientGravatar: boolean,
): string | null {
  if (user.avatarSource === 'U') return `/user_avatars/${user.realmId}/${user.id}.png?version=${user.avatarVersion}`;
  if (clientGravatar && canSeeDeliveryEmail(viewer, user)) return null;
  return gravatarUrl(user.deliveryEmail, user.avatarVersion);
}
