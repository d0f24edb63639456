// Changing one's own e-mail address (Zulip's do_start_email_change_process and
// confirm_email_change): PATCH /settings `email` checks the address and mails it a confirmation
// link (auth/confirmation-links.ts); the change happens when the link is followed, at
// /accounts/confirm_new_email/<token>/ or through GraphQL `confirmEmailChange`. The link carries
// the new address and is bound to the current one and to the request, so it is spent by the
// change (or by any other change of the address), cancelled by a newer request, and works for a day.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UserDeactivatedError } from '../errors.ts';
import { checkLinkToken, makeLinkToken, readLinkToken, type LinkKind } from '../auth/confirmation-links.ts';
import { checkAddressDomain } from '../invites/invites.ts';
import { realmHost, realmUrl } from '../realm/urls.ts';
import { exactInsensitive } from '../rows.ts';
import { inTransaction } from '../transaction.ts';
import { validateEmail } from '../users/create.ts';
import { isAdmin } from '../users/roles.ts';
import { announceDeliveryEmail, writeDeliveryEmail } from '../users/update.ts';

const EMAIL_CHANGE: LinkKind = { secret: 'email-change', hours: 24, invalid: 'Whoops. The confirmation link has expired or been deactivated.' };

type Reader = Pick<Context, 'realm'> & { db: Context['db'] | Prisma.TransactionClient };

/** Zulip's validate_email_change_request: may `user` take `email` as their address? The address, trimmed. */
export async function checkEmailChange(ctx: Reader, user: User, email: string): Promise<string> {
  if (!user.isActive) throw new UserDeactivatedError();
  if (ctx.realm.emailChangesDisabled && !isAdmin(user)) throw new BadRequestError('Email address changes are disabled in this organization.');
  const address = validateEmail(email);
  await checkAddressDomain(ctx as Pick<Context, 'db' | 'realm'>, address);
  const clash = await ctx.db.user.findFirst({
    where: { realmId: ctx.realm.id, id: { not: user.id }, OR: [{ email: exactInsensitive(address) }, { deliveryEmail: exactInsensitive(address) }] },
    select: { id: true },
  });
  if (clash) throw new BadRequestError('Already has an account.');
  return address;
}

/**
 * What a link is bound to: the address it changes, and the request it answers (a newer request
 * cancels it). Addresses hold no space.
 */
function linkState(user: Pick<User, 'deliveryEmail' | 'emailChangeSerial'>): string {
  return `${user.deliveryEmail} ${user.emailChangeSerial}`;
}

/**
 * Mails the confirmation link to a new address (checked by checkEmailChange); nothing changes yet
 * but the count of requests, which cancels the links mailed before (Zulip's
 * do_start_email_change_process).
 */
export async function sendEmailChangeLink(ctx: Context, user: User, address: string): Promise<void> {
  const counted = await ctx.db.user.update({ where: { id: user.id }, data: { emailChangeSerial: { increment: 1 } } });
  const token = await makeLinkToken(ctx.db, EMAIL_CHANGE, user.id, linkState(counted), address);
  const link = `${realmUrl(ctx.realm, ctx.config)}/accounts/confirm_new_email/${token}/`;
  await ctx.mailer?.send({
    to: address,
    subject: `Verify your new email address for ${realmHost(ctx.realm, ctx.config)}`,
    text: `Hi,\n\nWe received a request to change the email address for the account on ${realmUrl(ctx.realm, ctx.config)} `
      + `from ${user.deliveryEmail} to ${address}. To confirm this change, visit this link within a day:\n\n    ${link}\n\n`
      + 'If you did not request this change, you can ignore this e-mail: nothing changes without it.\n',
  }).catch(() => {});
}

export interface PendingEmailChange {
  user: User;
  oldEmail: string;
  newEmail: string;
}

/** The change a link asks for, if the link is genuine, current and unspent. */
export async function emailChangeForToken(ctx: Pick<Context, 'db' | 'realm'>, token: string): Promise<PendingEmailChange> {
  const parsed = readLinkToken(EMAIL_CHANGE, token);
  const user = parsed.payload ? await ctx.db.user.findFirst({ where: { id: parsed.userId, realmId: ctx.realm.id, isBot: false } }) : null;
  if (!user) throw new BadRequestError(EMAIL_CHANGE.invalid);
  await checkLinkToken(ctx.db, EMAIL_CHANGE, parsed, linkState(user));
  return { user, oldEmail: user.deliveryEmail, newEmail: parsed.payload };
}

/**
 * Makes the change a link asks for: checked again as when it was asked (the organization's rules
 * or another account may have changed since), with the account's row locked so the link works
 * once. `realm_user` updates go out on commit; the old address is told afterwards.
 */
export async function confirmEmailChange(ctx: Context, token: string): Promise<PendingEmailChange> {
  const change = await inTransaction(ctx, async (tx) => {
    const { user: unlocked } = await emailChangeForToken(tx, token);
    await tx.tx.$queryRaw`SELECT id FROM "User" WHERE id = ${unlocked.id} FOR UPDATE`;
    // Re-read under the lock: a concurrent confirmation has spent the link by now.
    const pending = await emailChangeForToken(tx, token);
    const address = await checkEmailChange(tx, pending.user, pending.newEmail);
    const updated = await writeDeliveryEmail(tx.tx, ctx.realm.id, pending.user, address);
    await announceDeliveryEmail(tx, pending.user, updated);
    return { ...pending, user: updated };
  });
  await ctx.mailer?.send({
    to: change.oldEmail,
    subject: `Email address changed for ${ctx.realm.name}`,
    text: `Hi,\n\nThe email address of your account on ${realmUrl(ctx.realm, ctx.config)} was recently changed to ${change.newEmail}. `
      + 'If you did not request this change, please contact your organization\'s administrators immediately.\n',
  }).catch(() => {});
  return change;
}
