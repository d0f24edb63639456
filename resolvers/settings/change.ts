// Changing a user's personal settings (Zulip's do_change_user_setting): the stored value, the events
// that announce it, and what each setting changes elsewhere: the API e-mail and who sees the real
// one (email_address_visibility), the profile time zone others see, presence (presence_enabled),
// and drafts kept on the server (enable_drafts_synchronization).
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { inTransaction, type TxContext } from '../transaction.ts';
import { LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS, effectiveSettings, type UserSettingName, type UserSettings } from './catalog.ts';
import { languageName } from './languages.ts';
import { presenceToggleReport } from '../presence/presence.ts';
import { accessToUser } from '../users/audience.ts';
import { apiEmailFor, canSeeDeliveryEmailWith, EMAIL_VISIBLE_TO_EVERYONE } from '../users/present.ts';
import { avatarFields } from '../users/avatars.ts';
import { announceExportConsent } from '../exports/consent.ts';
import { realmHost } from '../realm/urls.ts';

export type SettingChanges = Partial<UserSettings> & { timezone?: string };

export interface ChangeOptions {
  /** Announce settings even when they keep their value (Zulip's status `away` does). */
  announceUnchanged?: boolean;
}

/**
 * Applies already-validated changes in the caller's transaction (or its own), with the user's row
 * locked so that concurrent changes to other settings are not lost. Returns the names that changed.
 */
export async function changeUserSettings(ctx: Context, user: User, changes: SettingChanges, options: ChangeOptions = {}): Promise<string[]> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.tx.$queryRaw<{ settings: unknown; timezone: string }[]>`
      SELECT settings, timezone FROM "User" WHERE id = ${user.id} FOR UPDATE`;
    const before = effectiveSettings({ settings: row!.settings as Prisma.JsonValue }, ctx.realm);
    const stored = { ...((row!.settings && typeof row!.settings === 'object' ? row!.settings : {}) as Record<string, unknown>) };
    const changed: string[] = [];
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || name === 'timezone') continue;
      if (before[name as UserSettingName] === value && !options.announceUnchanged) continue;
      stored[name] = value;
      changed.push(name);
    }
    const timezoneChanges = changes.timezone !== undefined && (changes.timezone !== row!.timezone || !!options.announceUnchanged);
    if (!changed.length && !timezoneChanges) return [];
    const updated = await tx.db.user.update({
      where: { id: user.id },
      data: { settings: stored as Prisma.InputJsonValue, ...(timezoneChanges ? { timezone: changes.timezone } : {}) },
    });
    for (const name of changed) await announce(tx, updated, name, stored[name] as boolean | number | string, before);
    if (timezoneChanges) await announce(tx, updated, 'timezone', changes.timezone!, before);
    return timezoneChanges ? [...changed, 'timezone'] : changed;
  });
}

async function announce(tx: TxContext<Context>, user: User, name: string, value: boolean | number | string, before: UserSettings): Promise<void> {
  const { realm } = tx;
  const language = name === 'default_language' ? { language_name: languageName(value as string) } : {};
  tx.events.publish(realm.id, [user.id], { type: 'user_settings', op: 'update', property: name, value, ...language });
  if ((LEGACY_NOTIFICATION_SETTINGS as readonly string[]).includes(name)) {
    tx.events.publish(realm.id, [user.id], { type: 'update_global_notifications', user: user.email, notification_name: name, setting: value });
  }
  if ((LEGACY_DISPLAY_SETTINGS as readonly string[]).includes(name) || name === 'timezone') {
    tx.events.publish(realm.id, [user.id], { type: 'update_display_settings', user: user.email, setting_name: name, setting: value, ...language });
  }

  switch (name) {
    case 'timezone': {
      const { userIds } = await accessToUser(tx.db, realm, user);
      tx.events.publish(realm.id, userIds, { type: 'realm_user', op: 'update', person: { user_id: user.id, email: user.email, timezone: value } });
      break;
    }
    case 'email_address_visibility':
      await emailVisibilityChanged(tx, user, before.email_address_visibility, value as number);
      break;
    case 'presence_enabled': {
      const event = await presenceToggleReport(tx.tx, user, value as boolean);
      tx.events.publish(realm.id, (await accessToUser(tx.db, realm, user)).userIds, event);
      break;
    }
    case 'allow_private_data_export':
      await announceExportConsent(tx, { ...user, settings: { ...(user.settings as object), allow_private_data_export: value } });
      break;
    case 'email_notifications_batching_period_seconds':
      // Zulip's update_scheduled_email_notifications_time: pending batches move by the difference.
      await tx.tx.$executeRaw`
        UPDATE "MissedMessageEmail" SET "scheduledAt" = "scheduledAt" + ${(value as number) - before.email_notifications_batching_period_seconds}::int * interval '1 second'
        WHERE "userId" = ${user.id}::int`;
      break;
    case 'enable_drafts_synchronization':
      // Syncing stopped, the drafts are not deleted as far as clients know: no events.
      if (value === false) await tx.db.draft.deleteMany({ where: { userId: user.id } });
      break;
  }
}

/**
 * Zulip's send_delivery_email_update_events, plus the API e-mail: users who gain sight of the real
 * address get it, users who lose it get null; moving to or from "everyone" changes the API e-mail
 * (announced with `new_email`, and the avatar, whose Gravatar URL the address decided).
 */
async function emailVisibilityChanged(tx: TxContext<Context>, user: User, old: number, now: number): Promise<void> {
  const { realm } = tx;
  const { userIds } = await accessToUser(tx.db, realm, user);
  const viewers = await tx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, role: true } });
  const gained: number[] = [];
  const lost: number[] = [];
  for (const viewer of viewers) {
    const could = canSeeDeliveryEmailWith(viewer, user.id, old);
    const can = canSeeDeliveryEmailWith(viewer, user.id, now);
    if (could !== can) (can ? gained : lost).push(viewer.id);
  }
  tx.events.publish(realm.id, gained, { type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: user.deliveryEmail } });
  tx.events.publish(realm.id, lost, { type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: null } });
  if (old !== EMAIL_VISIBLE_TO_EVERYONE && now !== EMAIL_VISIBLE_TO_EVERYONE) return;
  const email = apiEmailFor(user, now, realmHost(realm, tx.config));
  if (email === user.email) return;
  const updated = await tx.db.user.update({ where: { id: user.id }, data: { email } });
  tx.events.publish(realm.id, userIds, { type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: email } });
  tx.events.publish(realm.id, userIds, { type: 'realm_user', op: 'update', person: { user_id: user.id, ...avatarFields(updated, tx.config.gravatarEnabled) } });
}
