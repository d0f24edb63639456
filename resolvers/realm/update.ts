// PATCH /realm (Zulip's update_realm): administrators change the organization's settings, owners
// also the owner-only ones. Every value is checked, then everything is written in one transaction
// with the organization's row locked; each setting whose value changed is announced to everyone by a
// `realm` event (`update`, or `update_dict` for the message-editing and permission settings).
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { OrganizationOwnerRequiredError, UnauthorizedPrincipalError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { isAdmin, isOwner } from '../users/roles.ts';
import { activeUserIds } from '../users/audience.ts';
import {
  currentSettingValue, parseSettingUpdate, resolveGroupSetting, sameSettingValue,
} from '../groups/setting-value.ts';
import { BadRequestError } from '../errors.ts';
import { publishFullMembershipChange, refreshFullMembers } from '../groups/full-members.ts';
import { OWNER_ONLY_GROUP_SETTINGS, REALM_GROUP_SETTINGS, REALM_SETTINGS, type RealmGroupSetting } from './settings.ts';

export interface RealmUpdate {
  /** Settings of REALM_SETTINGS by wire name. */
  settings: Record<string, unknown>;
  /** Permission settings of REALM_GROUP_SETTINGS by wire name, each `{new, old?}`. */
  groupSettings: Record<string, unknown>;
}

/** Returns the requested settings that changed, by wire name: new values, "updated" for text (as Zulip answers). */
export async function updateRealm(ctx: Context, actor: User, input: RealmUpdate): Promise<Record<string, unknown>> {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
  const settings = Object.entries(input.settings).filter(([, v]) => v != null);
  const groupSettings = Object.entries(input.groupSettings).filter(([, v]) => v != null)
    .map(([name, raw]) => [name as RealmGroupSetting, parseSettingUpdate(name, raw)] as const);
  if (!isOwner(actor)) {
    if (settings.some(([name]) => REALM_SETTINGS[name]?.ownerOnly) || groupSettings.some(([name]) => OWNER_ONLY_GROUP_SETTINGS.has(name))) {
      throw new OrganizationOwnerRequiredError();
    }
  }

  return inTransaction(ctx, async (tx) => {
    await tx.tx.$queryRaw`SELECT id FROM "Realm" WHERE id = ${ctx.realm.id} FOR UPDATE`;
    const before = await tx.db.realm.findUniqueOrThrow({ where: { id: ctx.realm.id } });
    const data: Prisma.RealmUpdateInput = {};
    for (const [name, value] of settings) {
      const spec = REALM_SETTINGS[name];
      if (!spec) throw new BadRequestError(`Unknown organization setting: ${name}`);
      Object.assign(data, await spec.parse(value, tx, actor));
    }
    for (const [name, update] of groupSettings) {
      const column = REALM_GROUP_SETTINGS[name];
      const currentId = before[column];
      const current = currentId == null ? null : await currentSettingValue(tx.db, currentId);
      if (update.old !== undefined && (current === null || !sameSettingValue(update.old, current))) {
        throw new BadRequestError("'old' value does not match the expected value.");
      }
      if (current !== null && sameSettingValue(update.new, current)) continue;
      (data as Record<string, unknown>)[column] = await resolveGroupSetting(tx.db, ctx.realm.id, 'realm', name, update.new);
    }
    const after = Object.keys(data).length ? await tx.db.realm.update({ where: { id: ctx.realm.id }, data }) : before;

    const everyone = await activeUserIds(tx.db, ctx.realm.id);
    const changed: Record<string, unknown> = {};
    // Every setting whose wire value moved is announced, so a legacy parameter (mandatory_topics)
    // also announces the setting that holds it (topics_policy), and the reverse.
    for (const [name, spec] of Object.entries(REALM_SETTINGS)) {
      const value = spec.read(after);
      if (value === spec.read(before)) continue;
      tx.events.publish(ctx.realm.id, everyone, spec.updateDict
        ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
        : { type: 'realm', op: 'update', property: name, value });
      if (settings.some(([requested]) => requested === name)) changed[name] = typeof value === 'string' ? 'updated' : value;
    }
    // Who is a full member follows the waiting period at once (Zulip's do_set_realm_property).
    if (after.waitingPeriodThreshold !== before.waitingPeriodThreshold) {
      await publishFullMembershipChange(tx, ctx.realm.id, await refreshFullMembers(tx.tx, ctx.realm.id));
    }
    for (const [name] of groupSettings) {
      const column = REALM_GROUP_SETTINGS[name];
      if (after[column] === before[column]) continue;
      const value = await currentSettingValue(tx.db, after[column]!);
      tx.events.publish(ctx.realm.id, everyone, { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } });
      changed[name] = value;
    }
    return changed;
  });
}
