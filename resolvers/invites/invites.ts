// Invitations: to e-mail addresses (POST /invites) and reusable links (POST /invites/multiuse);
// listing, resending and revoking them; redeeming one at the sign-up page (server/pages.ts). Rules
// and wording follow Zulip's zerver/views/invite.py and zerver/actions/invites.py. Both kinds live in
// one table (their IDs never collide); administrators and the inviter hear `invites_changed`.
import { randomBytes } from 'node:crypto';
import type { Channel, Invitation, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, ParleyError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { accessChannelById } from '../channels/access.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { accessGroupForUpdate, holdsGroupPermission } from '../groups/access.ts';
import { SUPPORTED_PERMISSION_SETTINGS } from '../groups/permission-settings.ts';
import { realmUrl } from '../realm/urls.ts';
import { exactInsensitive, isDbId } from '../rows.ts';
import { validateEmail } from '../users/create.ts';
import { emailRefusalForRealm } from '../domains/allowed.ts';
import { isAdmin, isGuest, isOwner, ROLE_ADMINISTRATOR, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER, ROLES } from '../users/roles.ts';
import { toUnixSeconds } from '../time.ts';

type Json = Record<string, unknown>;

/** Zulip's INVITATION_LINK_VALIDITY_MINUTES: ten days. */
export const DEFAULT_INVITE_MINUTES = 10 * 24 * 60;
const ACTIVE = 'active';
const USED = 'used';
const REVOKED = 'revoked';
/** An address given at a reusable link, waiting for its owner to follow the e-mailed link (not listed or managed). */
const CONFIRMING = 'confirming';
/** How long such a confirmation link works (Zulip's registration confirmations: a day). */
const CONFIRMATION_MINUTES = 24 * 60;

export interface InviteOptions {
  inviteExpiresInMinutes?: number | null;
  /** Absent: Zulip's default (ten days); null: never expires. */
  expiresGiven?: boolean;
  inviteAs?: number | null;
  streamIds: number[];
  groupIds?: number[] | null;
  includeRealmDefaultSubscriptions?: boolean | null;
  notifyReferrerOnJoin?: boolean | null;
}

/** Zulip's InvitationError: some addresses were refused (INVITATION_FAILED, with each reason). */
class InvitationFailedError extends ParleyError {
  override readonly code = 'INVITATION_FAILED';
  constructor(message: string, errors: [string, string, boolean][], sentInvitations: boolean) {
    super(message, { errors, sent_invitations: sentInvitations, license_limit_reached: false, daily_limit_reached: false });
  }
}

/** Zulip's require_member_or_admin. */
function requireMember(actor: User): void {
  if (actor.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  if (isGuest(actor)) throw new BadRequestError('Not allowed for guest users');
}

/** Zulip's check_role_based_permissions. */
function checkRolePermissions(invitedAs: number, actor: User, requireAdmin: boolean): void {
  if (invitedAs === ROLE_OWNER && !isOwner(actor)) throw new BadRequestError('Must be an organization owner');
  if (requireAdmin && !isAdmin(actor)) throw new BadRequestError('Must be an organization administrator');
}

function checkInviteAs(inviteAs: number | null | undefined, actor: User): number {
  const role = inviteAs ?? ROLE_MEMBER;
  if (!(ROLES as readonly number[]).includes(role)) throw new BadRequestError('Invalid invite_as');
  checkRolePermissions(role, actor, [ROLE_OWNER, ROLE_ADMINISTRATOR, ROLE_MODERATOR].includes(role));
  return role;
}

function expiryFrom(options: InviteOptions, now: Date): Date | null {
  const minutes = options.expiresGiven ? options.inviteExpiresInMinutes ?? null : DEFAULT_INVITE_MINUTES;
  if (minutes === null) return null;
  if (!Number.isSafeInteger(minutes) || minutes <= 0) throw new BadRequestError('Invalid invite_expires_in_minutes');
  const expiry = new Date(now.getTime() + minutes * 60_000);
  // Timestamps travel as 32-bit seconds (GraphQL Int, like every timestamp of the API): a later
  // expiry could be stored but never shown.
  if (!(expiry.getTime() / 1000 <= 2_147_483_647)) throw new BadRequestError('Invalid invite_expires_in_minutes');
  return expiry;
}

/**
 * Zulip's access_streams_for_invite: channels the inviter may see; beyond the organization's default
 * channels, ones they may add subscribers to.
 */
async function accessChannelsForInvite(ctx: Context, actor: User, streamIds: number[]): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (const id of [...new Set(streamIds)]) {
    try {
      if (!isDbId(id)) throw new BadRequestError('Invalid channel ID');
      channels.push(await accessChannelById(ctx.db, actor, id));
    } catch (error) {
      if (error instanceof BadRequestError) throw new BadRequestError(`Invalid channel ID ${id}. No invites were sent.`);
      throw error;
    }
  }
  if (!channels.length) return channels;
  const defaults = new Set((await ctx.db.defaultChannel.findMany({ where: { realmId: ctx.realm.id }, select: { channelId: true } })).map((d) => d.channelId));
  // Zulip's can_subscribe_others_to_all_accessible_streams: the organization's can_add_subscribers_group.
  if (channels.some((c) => !defaults.has(c.id)) && !(await isUserInGroup(ctx.db, actor, ctx.realm.canAddSubscribersGroupId))) {
    throw new BadRequestError('You do not have permission to subscribe other users to channels.');
  }
  return channels;
}

/** Zulip's access_user_groups_for_invite: groups the inviter may add members to. */
async function accessGroupsForInvite(ctx: Context, actor: User, groupIds: number[]): Promise<number[]> {
  for (const id of new Set(groupIds)) await accessGroupForUpdate(ctx.db as unknown as Prisma.TransactionClient, ctx.realm, actor, id, 'can_add_members_group');
  return [...new Set(groupIds)];
}

/** Zulip's get_invitee_emails_set: commas or newlines, `Name <address>` forms reduced to the address. */
export function inviteeEmails(raw: string): string[] {
  const emails = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    emails.add((named ? named[1]! : part).trim());
  }
  return [...emails];
}

function newKey(): string {
  // Zulip's confirmation keys: 24 lowercase letters and digits.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(24)].map((b) => alphabet[b % alphabet.length]).join('');
}

function joinUrl(ctx: Pick<Context, 'realm' | 'config'>, key: string): string {
  return `${realmUrl(ctx.realm, ctx.config)}/join/${key}/`;
}

async function inviteAudience(ctx: Context, inviterId: number): Promise<number[]> {
  const admins = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, role: { lte: ROLE_ADMINISTRATOR } }, select: { id: true } });
  return [...new Set([...admins.map((a) => a.id), inviterId])].sort((a, b) => a - b);
}

/** Zulip's notify_invites_changed: administrators and the invitation's creator. */
async function notifyInvitesChanged(ctx: Context, inviterId: number): Promise<void> {
  ctx.events.publish(ctx.realm.id, await inviteAudience(ctx, inviterId), { type: 'invites_changed' });
}

/** POST /invites. */
export async function inviteByEmail(ctx: Context, actor: User, rawEmails: string, options: InviteOptions): Promise<void> {
  requireMember(actor);
  if (!(await isUserInGroup(ctx.db, actor, ctx.realm.canInviteUsersGroupId))) throw new BadRequestError('Insufficient permission');
  const inviteAs = checkInviteAs(options.inviteAs, actor);
  if (!rawEmails.trim()) throw new BadRequestError('You must specify at least one email address.');
  const emails = inviteeEmails(rawEmails).filter((e) => e !== '');
  const now = new Date();
  const expiresAt = expiryFrom(options, now);
  const channels = await accessChannelsForInvite(ctx, actor, options.streamIds);
  const groupIds = await accessGroupsForInvite(ctx, actor, options.groupIds ?? []);

  const invalid: [string, string, boolean][] = [];
  for (const email of emails) {
    try {
      validateEmail(email);
    } catch {
      invalid.push([email, 'Invalid address.', false]);
      continue;
    }
    const refusal = await emailRefusalForRealm(ctx.db, ctx.realm, email);
    if (refusal) invalid.push([email, refusal === 'plus' ? 'Email addresses containing + are not allowed.' : 'Outside your domain.', false]);
  }
  if (invalid.length) throw new InvitationFailedError("Some emails did not validate, so we didn't send any invitations.", invalid, false);

  const created = await inTransaction(ctx, async (tx) => {
    const skipped: [string, string, boolean][] = [];
    const fresh: string[] = [];
    for (const email of emails) {
      const existing = await tx.db.user.findFirst({ where: { realmId: ctx.realm.id, OR: [{ deliveryEmail: exactInsensitive(email) }, { email: exactInsensitive(email) }] } });
      if (existing) skipped.push([email, existing.isActive ? 'Already has an account.' : 'Account has been deactivated.', !existing.isActive]);
      else fresh.push(email);
    }
    if (!fresh.length) throw new InvitationFailedError("We weren't able to invite anyone.", skipped, false);
    const rows: Invitation[] = [];
    for (const email of fresh) {
      rows.push(await tx.db.invitation.create({
        data: {
          realmId: ctx.realm.id, email, inviterId: actor.id, inviteAs, channelIds: channels.map((c) => c.id), groupIds,
          includeRealmDefaultSubscriptions: options.includeRealmDefaultSubscriptions ?? false,
          notifyReferrerOnJoin: options.notifyReferrerOnJoin ?? true, key: newKey(), invitedAt: now, expiresAt,
        },
      }));
    }
    await notifyInvitesChanged(tx, actor.id);
    return { rows, skipped };
  });
  for (const row of created.rows) await sendInvitationEmail(ctx, actor, row);
  if (created.skipped.length) {
    throw new InvitationFailedError(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      created.skipped, true,
    );
  }
}

/** POST /invites/multiuse: a reusable link; returns its URL. */
export async function createInviteLink(ctx: Context, actor: User, options: InviteOptions): Promise<string> {
  requireMember(actor);
  const setting = SUPPORTED_PERMISSION_SETTINGS.realm.create_multiuse_invite_group;
  if (!(await holdsGroupPermission(ctx.db as unknown as Prisma.TransactionClient, actor, ctx.realm.createMultiuseInviteGroupId, setting.allow_everyone_group))) {
    throw new BadRequestError('Insufficient permission');
  }
  const inviteAs = checkInviteAs(options.inviteAs, actor);
  const now = new Date();
  const expiresAt = expiryFrom(options, now);
  const channels = await accessChannelsForInvite(ctx, actor, options.streamIds);
  const groupIds = await accessGroupsForInvite(ctx, actor, options.groupIds ?? []);
  const row = await inTransaction(ctx, async (tx) => {
    const created = await tx.db.invitation.create({
      data: {
        realmId: ctx.realm.id, email: null, inviterId: actor.id, inviteAs, channelIds: channels.map((c) => c.id), groupIds,
        includeRealmDefaultSubscriptions: options.includeRealmDefaultSubscriptions ?? false,
        notifyReferrerOnJoin: false, key: newKey(), invitedAt: now, expiresAt,
      },
    });
    await notifyInvitesChanged(tx, actor.id);
    return created;
  });
  return joinUrl(ctx, row.key);
}

export interface InviteRecord {
  id: number;
  invitedByUserId: number;
  invited: number;
  expiryDate: number | null;
  invitedAs: number;
  email: string | null;
  notifyReferrerOnJoin: boolean;
  isMultiuse: boolean;
  linkUrl: string;
}

function isLive(row: Invitation, now: Date): boolean {
  return (row.status === ACTIVE || row.status === CONFIRMING) && (!row.expiresAt || row.expiresAt > now);
}

/** GET /invites: unexpired invitations the actor manages (administrators: all; others: their own). */
export async function listInvitations(ctx: Context, actor: User): Promise<InviteRecord[]> {
  requireMember(actor);
  const now = new Date();
  const rows = await ctx.db.invitation.findMany({
    where: { realmId: ctx.realm.id, status: ACTIVE, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }], ...(isAdmin(actor) ? {} : { inviterId: actor.id }) },
    orderBy: { id: 'asc' },
  });
  // Email invitations first, then links, as Zulip lists them.
  rows.sort((a, b) => Number(a.email === null) - Number(b.email === null) || a.id - b.id);
  return rows.map((row) => ({
    id: row.id,
    invitedByUserId: row.inviterId,
    invited: toUnixSeconds(row.invitedAt),
    expiryDate: row.expiresAt ? toUnixSeconds(row.expiresAt) : null,
    invitedAs: row.inviteAs,
    email: row.email,
    notifyReferrerOnJoin: row.notifyReferrerOnJoin,
    isMultiuse: row.email === null,
    linkUrl: joinUrl(ctx, row.key),
  }));
}

/** An invitation of the kind asked for that the actor may manage (its creator, or an administrator). */
async function manageable(ctx: Context, actor: User, id: number, multiuse: boolean): Promise<Invitation> {
  requireMember(actor);
  const row = isDbId(id) ? await ctx.db.invitation.findFirst({ where: { id, realmId: ctx.realm.id } }) : null;
  if (!row || (row.email === null) !== multiuse) throw new BadRequestError('No such invitation');
  if (!multiuse && row.status !== ACTIVE) throw new BadRequestError('No such invitation');
  if (row.inviterId !== actor.id) checkRolePermissions(row.inviteAs, actor, true);
  return row;
}

/** DELETE /invites/{id} and DELETE /invites/multiuse/{id}. */
export async function revokeInvitation(ctx: Context, actor: User, id: number, multiuse: boolean): Promise<void> {
  const row = await manageable(ctx, actor, id, multiuse);
  if (row.status === REVOKED) throw new BadRequestError('Invitation has already been revoked');
  await inTransaction(ctx, async (tx) => {
    const { count } = await tx.db.invitation.updateMany({ where: { id: row.id, status: { not: REVOKED } }, data: { status: REVOKED } });
    if (!count) throw new BadRequestError(multiuse ? 'Invitation has already been revoked' : 'No such invitation');
    await notifyInvitesChanged(tx, row.inviterId);
  });
}

/** POST /invites/{id}/resend: the same link again, with the invitation dated now. */
export async function resendInvitation(ctx: Context, actor: User, id: number): Promise<void> {
  const row = await manageable(ctx, actor, id, false);
  const inviter = await ctx.db.user.findUniqueOrThrow({ where: { id: row.inviterId } });
  const updated = await inTransaction(ctx, async (tx) => {
    const fresh = await tx.db.invitation.update({ where: { id: row.id }, data: { invitedAt: new Date() } });
    await notifyInvitesChanged(tx, row.inviterId);
    return fresh;
  });
  await sendInvitationEmail(ctx, inviter, updated);
}

async function sendInvitationEmail(ctx: Context, inviter: User, row: Invitation): Promise<void> {
  if (!row.email) return;
  const expiry = row.expiresAt ? `This invitation expires on ${row.expiresAt.toUTCString()}.` : 'This invitation does not expire.';
  const mail = {
    to: row.email,
    subject: `${inviter.fullName} invited you to join ${ctx.realm.name}`,
    text: `${inviter.fullName} (${inviter.deliveryEmail}) wants you to join them on ${ctx.realm.name}, a Zulip-compatible chat.\n\n`
      + `To get started, visit the link below:\n    ${joinUrl(ctx, row.key)}\n\n${expiry}\n`,
  };
  // A mail server that refuses is the operator's problem, not the inviter's: the link stays valid.
  await ctx.mailer?.send(mail).catch(() => {});
}

/** The live invitation a sign-up link names, or why not (Zulip's confirmation errors). */
export async function invitationForKey(ctx: Pick<Context, 'db' | 'realm'>, key: string): Promise<Invitation> {
  const row = /^[a-z0-9]{1,64}$/.test(key) ? await ctx.db.invitation.findUnique({ where: { key } }) : null;
  if (!row || row.realmId !== ctx.realm.id || row.status === REVOKED) throw new BadRequestError('Whoops. The confirmation link is malformed.');
  if (row.status === USED) throw new BadRequestError('Whoops. The confirmation link has already been used.');
  if (!isLive(row, new Date())) throw new BadRequestError('Whoops. The confirmation link has expired or been deactivated.');
  return row;
}

export const INVITATION_STATUS = { ACTIVE, USED, REVOKED, CONFIRMING } as const;

/**
 * The first step at a reusable link when the server sends e-mail: the address given gets a link of
 * its own by e-mail, with the reusable link's role, channels and groups, so every account made
 * through the link has a confirmed address (Zulip confirms before registration too).
 */
export async function confirmAddressForLink(ctx: Context, key: string, rawEmail: string): Promise<void> {
  const link = await invitationForKey(ctx, key);
  if (link.email !== null) throw new BadRequestError('Whoops. The confirmation link is malformed.');
  let email: string;
  try {
    email = validateEmail(rawEmail);
  } catch {
    throw new BadRequestError('Please enter a valid email address.');
  }
  await checkAddressMayJoin(ctx, email);
  const now = new Date();
  const day = new Date(now.getTime() + CONFIRMATION_MINUTES * 60_000);
  const row = await ctx.db.invitation.create({
    data: {
      realmId: ctx.realm.id, email, inviterId: link.inviterId, inviteAs: link.inviteAs, channelIds: link.channelIds, groupIds: link.groupIds,
      includeRealmDefaultSubscriptions: link.includeRealmDefaultSubscriptions, notifyReferrerOnJoin: false, key: newKey(),
      invitedAt: now, expiresAt: link.expiresAt && link.expiresAt < day ? link.expiresAt : day, status: CONFIRMING,
    },
  });
  await ctx.mailer?.send({
    to: email,
    subject: `Confirm your email address for ${ctx.realm.name}`,
    text: `To finish creating your account on ${ctx.realm.name}, visit this link within a day:\n    ${joinUrl(ctx, row.key)}\n\n`
      + 'If you did not ask for an account, you can ignore this e-mail.\n',
  }).catch(() => {});
}

/** The organization's domain rules for an address of one of its accounts (Zulip's get_realm_email_validator). */
export async function checkAddressDomain(ctx: Pick<Context, 'db' | 'realm'>, email: string): Promise<void> {
  const refusal = await emailRefusalForRealm(ctx.db, ctx.realm, email);
  if (refusal === 'plus') throw new BadRequestError('Email addresses containing + are not allowed.');
  if (refusal) throw new BadRequestError(`Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`);
}

/** The organization's domain rules, and no account yet, for an address signing up. */
export async function checkAddressMayJoin(ctx: Pick<Context, 'db' | 'realm'>, email: string): Promise<void> {
  await checkAddressDomain(ctx, email);
  const existing = await ctx.db.user.findFirst({ where: { realmId: ctx.realm.id, OR: [{ deliveryEmail: exactInsensitive(email) }, { email: exactInsensitive(email) }] }, select: { id: true } });
  if (existing) throw new BadRequestError(`Email '${email}' already in use`);
}

export type { Json };
