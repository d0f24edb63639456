// PATCH /settings (Zulip's json_change_settings): the user's own name, password, time zone and
// personal settings, and a new e-mail address (confirmed by a link, settings/email-change.ts).
// Everything is checked before anything is written, then written in one transaction; only settings
// whose value changes are announced.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { checkPassword, hashPassword } from '../auth/credentials.ts';
import { validateFullName } from '../users/create.ts';
import { accessToUser } from '../users/audience.ts';
import { isAdmin } from '../users/roles.ts';
import { inTransaction } from '../transaction.ts';
import { canonicalTimezone, checkSettingValue, isUserSettingName, type UserSettings } from './catalog.ts';
import { changeUserSettings, type SettingChanges } from './change.ts';
import { isStrongPassword } from './passwords.ts';
import { checkEmailChange, sendEmailChangeLink } from './email-change.ts';
import { exactInsensitive } from '../rows.ts';
import { announceRowsChange } from '../row-cache.ts';

export interface SettingsUpdate {
  fullName?: string | null;
  email?: string | null;
  oldPassword?: string | null;
  newPassword?: string | null;
  timezone?: string | null;
  settings?: Partial<Record<string, unknown>> | null;
}

export async function updateOwnSettings(ctx: Context, user: User, input: SettingsUpdate): Promise<void> {
  if (user.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  const changes: SettingChanges = {};
  for (const [name, value] of Object.entries(input.settings ?? {})) {
    if (value == null) continue;
    if (!isUserSettingName(name)) throw new BadRequestError(`Unknown setting: ${name}`);
    checkSettingValue(name, value);
    (changes as Record<string, unknown>)[name] = value as UserSettings[typeof name];
  }
  if (input.timezone != null) changes.timezone = canonicalTimezone(input.timezone);

  let passwordHash: string | null = null;
  if (input.newPassword != null) {
    if (!(await checkPassword(user.passwordHash, input.oldPassword ?? ''))) throw new BadRequestError('Wrong password!');
    if (!isStrongPassword(input.newPassword)) throw new BadRequestError('New password is too weak!');
    passwordHash = await hashPassword(input.newPassword);
  }

  // A new address is only checked here; it replaces the old one when the link mailed to it is followed.
  let newEmail: string | null = null;
  if (input.email != null) {
    const email = input.email.trim();
    if (email !== user.deliveryEmail) {
      newEmail = await checkEmailChange(ctx, user, email);
      const counted = await ctx.rateLimits?.consume('emailChangeByUser', String(user.id));
      if (counted?.refusal) throw counted.refusal;
    }
  }

  // Zulip ignores name changes the organization forbids, without an error: its own clients do not offer them.
  let fullName: string | null = null;
  if (input.fullName != null && input.fullName !== user.fullName && (!ctx.realm.nameChangesDisabled || isAdmin(user))) {
    fullName = validateFullName(input.fullName);
    if (ctx.realm.requireUniqueNames) await checkNameAvailable(ctx, user, fullName);
  }

  await inTransaction(ctx, async (tx) => {
    if (passwordHash) {
      await tx.db.user.update({ where: { id: user.id }, data: { passwordHash } });
      announceRowsChange(tx.events, ctx.realm.id, user.id);
    }
    if (fullName !== null && fullName !== user.fullName) {
      await tx.db.user.update({ where: { id: user.id }, data: { fullName } });
      const { userIds } = await accessToUser(tx.db, ctx.realm, user);
      tx.events.publish(ctx.realm.id, userIds, { type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } });
    }
    await changeUserSettings(tx, user, changes);
  });
  if (newEmail !== null) await sendEmailChangeLink(ctx, user, newEmail);
}

/** Zulip's check_full_name with require_unique_names: no other user of the organization has the name. */
async function checkNameAvailable(ctx: Context, user: User, fullName: string): Promise<void> {
  const clash = await ctx.db.user.findFirst({ where: { realmId: ctx.realm.id, id: { not: user.id }, fullName: exactInsensitive(fullName) }, select: { id: true } });
  if (clash) throw new BadRequestError('Unique names required in this organization.');
}
