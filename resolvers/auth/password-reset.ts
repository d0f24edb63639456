// Password reset by e-mail. The link (auth/confirmation-links.ts) is bound to the current password
// hash, so the reset itself spends it.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { hashPassword } from './credentials.ts';
import { checkLinkToken, makeLinkToken, readLinkToken, type LinkKind } from './confirmation-links.ts';
import { isStrongPassword } from '../settings/passwords.ts';
import { realmUrl } from '../realm/urls.ts';
import { exactInsensitive } from '../rows.ts';
import { announceRowsChange } from '../row-cache.ts';

/** How long a reset link works. */
export const RESET_LINK_HOURS = 24;
const INVALID = 'The password reset link is invalid or has expired.';
const PASSWORD_RESET: LinkKind = { secret: 'password-reset', hours: RESET_LINK_HOURS, invalid: INVALID };

export async function passwordResetToken(ctx: Pick<Context, 'db'>, user: Pick<User, 'id' | 'passwordHash'>, now = Date.now()): Promise<string> {
  return makeLinkToken(ctx.db, PASSWORD_RESET, user.id, user.passwordHash ?? '', '', now);
}

/** The active human of the organization a token names, if the token is genuine and current. */
export async function userForResetToken(ctx: Pick<Context, 'db' | 'realm'>, token: string): Promise<User> {
  const parsed = readLinkToken(PASSWORD_RESET, token);
  if (parsed.payload) throw new BadRequestError(INVALID);
  const user = await ctx.db.user.findFirst({ where: { id: parsed.userId, realmId: ctx.realm.id, isBot: false, isActive: true } });
  if (!user) throw new BadRequestError(INVALID);
  await checkLinkToken(ctx.db, PASSWORD_RESET, parsed, user.passwordHash ?? '');
  return user;
}

/**
 * Sends a reset link to the address if it belongs to an active human of the organization. Says
 * nothing either way, so the form does not reveal who has an account.
 */
export async function requestPasswordReset(ctx: Context, email: string): Promise<void> {
  const user = await ctx.db.user.findFirst({
    where: { realmId: ctx.realm.id, isBot: false, isActive: true, OR: [{ deliveryEmail: exactInsensitive(email.trim()) }, { email: exactInsensitive(email.trim()) }] },
  });
  if (!user) return;
  const link = `${realmUrl(ctx.realm, ctx.config)}/accounts/password/reset/${await passwordResetToken(ctx, user)}/`;
  await ctx.mailer?.send({
    to: user.deliveryEmail,
    subject: `Reset your password for ${ctx.realm.name}`,
    text: `Somebody (possibly you) requested a new password for the account ${user.deliveryEmail} on ${ctx.realm.name}.\n\n`
      + `To set a new password, visit this link within ${RESET_LINK_HOURS} hours:\n    ${link}\n\n`
      + 'If you did not request it, you can ignore this e-mail: your password has not changed.\n',
  }).catch(() => {});
}

/** Sets the password the link was made for; the link stops working. */
export async function resetPassword(ctx: Context, token: string, newPassword: string): Promise<User> {
  const user = await userForResetToken(ctx, token);
  if (!isStrongPassword(newPassword)) throw new BadRequestError('The password is too weak.');
  const passwordHash = await hashPassword(newPassword);
  // Only if nothing changed the password meanwhile: a token works once.
  const { count } = await ctx.db.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash } });
  if (!count) throw new BadRequestError(INVALID);
  announceRowsChange(ctx.events, user.realmId, user.id);
  return user;
}
