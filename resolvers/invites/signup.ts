// Redeeming an invitation: the sign-up page (server/pages.ts) and GraphQL `signUp` create the
// account with the invitation's role, channels and groups, as Zulip's do_create_user does with a
// PreregistrationUser. An e-mail invitation is used once; a reusable link until revoked or expired.
import { realmHost } from '../realm/urls.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { isStrongPassword } from '../settings/passwords.ts';
import { mailAccountDetails } from '../users/account-registered.ts';
import { setUpNewPerson, announceNewUser, createUserInTx, validateEmail, validateFullName } from '../users/create.ts';
import { pickColor } from '../users/create.ts';
import { publishSubscribeEvents } from '../channels/subscribe-events.ts';
import { activeUserIds } from '../users/audience.ts';
import { ROLE_ADMINISTRATOR } from '../users/roles.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { exactInsensitive } from '../rows.ts';
import { checkAddressMayJoin, INVITATION_STATUS, invitationForKey } from './invites.ts';

export interface SignUpInput {
  /** Reusable links only: e-mail invitations are for their own address. */
  email?: string | null;
  fullName: string;
  password: string;
}

export async function signUp(ctx: Context, key: string, input: SignUpInput): Promise<User> {
  if (ctx.realm.deactivated) throw new BadRequestError('This organization has been deactivated.');
  const invitation = await invitationForKey(ctx, key);
  const email = validateEmail(invitation.email ?? input.email ?? '');
  // A server that sends e-mail confirms addresses given at reusable links first (confirmAddressForLink).
  if (invitation.email === null && ctx.mailer?.delivers) throw new BadRequestError('Confirm your email address first: enter it at the invitation link to get a link by e-mail.');
  await checkAddressMayJoin(ctx, email);
  const fullName = validateFullName(input.fullName);
  if (!isStrongPassword(input.password)) throw new BadRequestError('The password is too weak.');

  const { user, added, groupIds } = await inTransaction(ctx, async (tx) => {
    if (invitation.email !== null) {
      // Two tabs submitting the same link: the first one wins.
      const { count } = await tx.db.invitation.updateMany({
        where: { id: invitation.id, status: { in: [INVITATION_STATUS.ACTIVE, INVITATION_STATUS.CONFIRMING] } }, data: { status: INVITATION_STATUS.USED },
      });
      if (!count) throw new BadRequestError('Whoops. The confirmation link has already been used.');
    }
    const existing = await tx.db.user.findFirst({ where: { realmId: ctx.realm.id, OR: [{ deliveryEmail: exactInsensitive(email) }, { email: exactInsensitive(email) }] }, select: { id: true } });
    if (existing) throw new BadRequestError(`Email '${email}' already in use`);
    const user = await createUserInTx(tx.tx, ctx.realm.id, {
      email, fullName, password: input.password, role: invitation.inviteAs, defaultChannels: invitation.includeRealmDefaultSubscriptions,
      realmHost: realmHost(ctx.realm, ctx.config),
    });
    // Other pending invitations to the same address are void now (Zulip revokes them).
    await tx.db.invitation.updateMany({
      where: { realmId: ctx.realm.id, email: exactInsensitive(email), status: { in: [INVITATION_STATUS.ACTIVE, INVITATION_STATUS.CONFIRMING] } }, data: { status: INVITATION_STATUS.REVOKED },
    });
    const channels = await tx.db.channel.findMany({ where: { id: { in: invitation.channelIds }, realmId: ctx.realm.id, isArchived: false }, select: { id: true } });
    const current = await tx.db.subscription.findMany({ where: { userId: user.id }, select: { channelId: true } });
    const have = new Set(current.map((s) => s.channelId));
    const fresh = channels.filter((c) => !have.has(c.id));
    if (fresh.length) {
      await tx.db.subscription.createMany({ data: fresh.map((c, i) => ({ userId: user.id, channelId: c.id, color: pickColor(current.length + i) })), skipDuplicates: true });
    }
    await setUpNewPerson(tx.tx, user);
    const groups = await tx.db.userGroup.findMany({ where: { id: { in: invitation.groupIds }, realmId: ctx.realm.id, deactivated: false, isSystemGroup: false }, select: { id: true } });
    if (groups.length) await tx.db.userGroupMember.createMany({ data: groups.map((g) => ({ groupId: g.id, userId: user.id })), skipDuplicates: true });
    const admins = await tx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, role: { lte: ROLE_ADMINISTRATOR } }, select: { id: true } });
    tx.events.publish(ctx.realm.id, [...new Set([...admins.map((a) => a.id), invitation.inviterId])], { type: 'invites_changed' });
    return { user, added: [...current.map((s) => s.channelId), ...fresh.map((c) => c.id)].map((channelId) => ({ userId: user.id, channelId })), groupIds: groups.map((g) => g.id) };
  });

  await announceNewUser(ctx, user);
  await mailAccountDetails(ctx, user);
  await publishSubscribeEvents(ctx, [], added);
  if (groupIds.length) {
    const everyone = await activeUserIds(ctx.db, ctx.realm.id);
    for (const groupId of groupIds) ctx.events.publish(ctx.realm.id, everyone, { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [user.id] });
  }
  const mention = `@_**${user.fullName}|${user.id}**`;
  if (invitation.notifyReferrerOnJoin && invitation.email !== null) {
    const inviter = await ctx.db.user.findUnique({ where: { id: invitation.inviterId } });
    if (inviter?.isActive) await sendAsNotificationBot(ctx, { userIds: [inviter.id] }, `${mention} accepted your invitation to join Zulip!`);
  }
  // Zulip's notify_new_user: the organization's signup announcements channel hears of the newcomer.
  const announcements = ctx.realm.signupAnnouncementsChannelId;
  if (announcements != null && (await ctx.db.channel.count({ where: { id: announcements, isArchived: false } }))) {
    await sendAsNotificationBot(ctx, { channelId: announcements, topic: 'signups' }, `${mention} joined this organization.`);
  }
  return user;
}
