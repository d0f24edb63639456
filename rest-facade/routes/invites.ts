// Invitations: e-mail invitations and reusable links.
import type { Route, WireParam } from '../route.ts';

/** JSON `null` means "never expires"; absent means Zulip's default. */
const EXPIRY: WireParam = { decode: 'json', convert: (v: unknown) => v };

export const inviteRoutes: Route[] = [
  {
    method: 'GET', path: '/invites', field: 'invitations',
    select: 'id invitedByUserId invited expiryDate invitedAs email notifyReferrerOnJoin isMultiuse linkUrl',
    // Zulip leaves the address out of links and the link out of e-mail invitations.
    shape: (invites: Record<string, any>[]) => ({
      invites: invites.map((i) => ({
        id: i.id, invited_by_user_id: i.invitedByUserId, invited: i.invited, expiry_date: i.expiryDate, invited_as: i.invitedAs,
        notify_referrer_on_join: i.notifyReferrerOnJoin, is_multiuse: i.isMultiuse,
        ...(i.isMultiuse ? { link_url: i.linkUrl } : { email: i.email }),
      })),
    }),
  },
  { method: 'POST', path: '/invites', field: 'sendInvitations', params: { invite_expires_in_minutes: EXPIRY } },
  { method: 'POST', path: '/invites/multiuse', field: 'createInviteLink', params: { invite_expires_in_minutes: EXPIRY }, shape: (link) => ({ invite_link: link }) },
  { method: 'DELETE', path: '/invites/{invite_id}', field: 'revokeInvitation' },
  { method: 'DELETE', path: '/invites/multiuse/{invite_id}', field: 'revokeInviteLink' },
  { method: 'POST', path: '/invites/{invite_id}/resend', field: 'resendInvitation' },
];
