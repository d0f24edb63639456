// Zulip's role codes. Lower is more privileged.
export const ROLE_OWNER = 100;
export const ROLE_ADMINISTRATOR = 200;
export const ROLE_MODERATOR = 300;
export const ROLE_MEMBER = 400;
export const ROLE_GUEST = 600;

export const ROLES = [ROLE_OWNER, ROLE_ADMINISTRATOR, ROLE_MODERATOR, ROLE_MEMBER, ROLE_GUEST] as const;

export const isOwner = (u: { role: number }) => u.role === ROLE_OWNER;
export const isAdmin = (u: { role: number }) => u.role <= ROLE_ADMINISTRATOR;
export const isModerator = (u: { role: number }) => u.role <= ROLE_MODERATOR;
export const isGuest = (u: { role: number }) => u.role === ROLE_GUEST;
