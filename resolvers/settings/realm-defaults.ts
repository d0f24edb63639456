// The organization's defaults for new users' personal settings (Zulip's RealmUserDefault and
// update_realm_user_settings_defaults): administrators change them; every new account starts with a
// copy, so a later change affects only later accounts.
import type { Prisma, Realm, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { isAdmin } from '../users/roles.ts';
import { activeUserIds } from '../users/audience.ts';
import { REALM_DEFAULT_SETTING_NAMES, checkSettingValue, realmUserDefaults, storedSettings, type UserSettingName } from './catalog.ts';

export interface RealmUserSettingsDefaultsEvent {
  type: 'realm_user_settings_defaults';
  op: 'update';
  property: string;
  value: boolean | number | string;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm_user_settings_defaults: RealmUserSettingsDefaultsEvent;
  }
}

const OFFERED: ReadonlySet<string> = new Set(REALM_DEFAULT_SETTING_NAMES);

/** Changes the defaults; returns the names that changed. Each is announced to everyone. */
export async function updateRealmUserDefaults(ctx: Context, actor: User, changes: Record<string, unknown>): Promise<string[]> {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
  const entries = Object.entries(changes).filter(([, v]) => v != null);
  for (const [name, value] of entries) {
    if (!OFFERED.has(name)) throw new BadRequestError(`Unknown default setting: ${name}`);
    checkSettingValue(name as UserSettingName, value);
  }
  if (!entries.length) return [];
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.tx.$queryRaw<{ userSettingsDefaults: unknown; defaultLanguage: string }[]>`
      SELECT "userSettingsDefaults", "defaultLanguage" FROM "Realm" WHERE id = ${ctx.realm.id} FOR UPDATE`;
    const before = realmUserDefaults({ defaultLanguage: row!.defaultLanguage, userSettingsDefaults: row!.userSettingsDefaults as Prisma.JsonValue });
    const stored: Record<string, unknown> = { ...storedSettings(row!.userSettingsDefaults) };
    const changed: string[] = [];
    for (const [name, value] of entries) {
      if (before[name as UserSettingName] === value) continue;
      stored[name] = value;
      changed.push(name);
    }
    if (!changed.length) return [];
    await tx.db.realm.update({ where: { id: ctx.realm.id }, data: { userSettingsDefaults: stored as Prisma.InputJsonValue } });
    const everyone = await activeUserIds(tx.db, ctx.realm.id);
    for (const name of changed) {
      tx.events.publish(ctx.realm.id, everyone, { type: 'realm_user_settings_defaults', op: 'update', property: name, value: stored[name] as boolean | number | string });
    }
    return changed;
  });
}

/** The settings a new account of the organization starts with: a copy of its defaults. */
export function newUserSettings(realm: Pick<Realm, 'defaultLanguage' | 'userSettingsDefaults'>): Prisma.InputJsonValue {
  return { ...realmUserDefaults(realm) } as Prisma.InputJsonValue;
}
