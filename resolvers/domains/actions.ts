// Allowed email domains for new users. Owners only for changes (Zulip's require_realm_owner since
// feature level 143); each change is a `realm_domains` event (add / change / remove) to the
// realm's active users, sent after commit.
import type { RealmDomain, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { ParleyEvent } from '../events/bus.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { isOwner } from '../users/roles.ts';
import { normaliseDomain } from './validate.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

export function listRealmDomains(ctx: Context): Promise<RealmDomain[]> {
  return ctx.db.realmDomain.findMany({ where: { realmId: ctx.realm.id }, orderBy: { domain: 'asc' } });
}

function requireOwner(user: User): void {
  if (!isOwner(user)) throw new UnauthorizedPrincipalError('Must be an organization owner');
}

const alreadyThere = (domain: string) => new BadRequestError(`The domain ${domain} is already a part of your organization.`);
const noEntry = (domain: string) => new BadRequestError(`No entry found for domain ${domain}.`);

async function publish(ctx: Context, events: ParleyEvent[]): Promise<void> {
  const users = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true }, select: { id: true } });
  for (const event of events) ctx.events.publish(ctx.realm.id, users.map((u) => u.id), event);
}

export async function addRealmDomain(ctx: Context, actor: User, rawDomain: string, allowSubdomains: boolean): Promise<RealmDomain> {
  requireOwner(actor);
  const domain = normaliseDomain(rawDomain);
  const realmId = ctx.realm.id;
  let created: RealmDomain;
  try {
    created = await ctx.db.$transaction(async (tx) => {
      if (await tx.realmDomain.findFirst({ where: { realmId, domain }, select: { id: true } })) throw alreadyThere(domain);
      return tx.realmDomain.create({ data: { realmId, domain, allowSubdomains } });
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw alreadyThere(domain);
    throw error;
  }
  await publish(ctx, [{ type: 'realm_domains', op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } }]);
  return created;
}

/** Path values are looked up as Zulip stores them: trimmed and lowercased. */
const lookupKey = (raw: string) => raw.trim().toLowerCase();

export async function changeRealmDomain(ctx: Context, actor: User, rawDomain: string, allowSubdomains: boolean): Promise<void> {
  requireOwner(actor);
  const domain = lookupKey(rawDomain);
  const changed = await ctx.db.realmDomain.updateMany({ where: { realmId: ctx.realm.id, domain }, data: { allowSubdomains } });
  if (changed.count === 0) throw noEntry(rawDomain);
  await publish(ctx, [{ type: 'realm_domains', op: 'change', realm_domain: { domain, allow_subdomains: allowSubdomains } }]);
}

export async function removeRealmDomain(ctx: Context, actor: User, rawDomain: string): Promise<void> {
  requireOwner(actor);
  const domain = lookupKey(rawDomain);
  const realmId = ctx.realm.id;
  const unrestricted = await ctx.db.$transaction(async (tx) => {
    const removed = await tx.realmDomain.deleteMany({ where: { realmId, domain } });
    if (removed.count === 0) throw noEntry(rawDomain);
    // Restricting sign-ups to no domain at all would do nothing: Zulip lifts the restriction.
    if (await tx.realmDomain.count({ where: { realmId } }) > 0) return false;
    const lifted = await tx.realm.updateMany({ where: { id: realmId, emailsRestrictedToDomains: true }, data: { emailsRestrictedToDomains: false } });
    return lifted.count > 0;
  });
  const events: ParleyEvent[] = [];
  if (unrestricted) events.push({ type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false });
  events.push({ type: 'realm_domains', op: 'remove', domain });
  await publish(ctx, events);
}

initialStatePart(['realm_domains'], async (s) => {
  const rows = await s.db.realmDomain.findMany({ where: { realmId: s.realm.id }, orderBy: { domain: 'asc' } });
  return { realm_domains: rows.map((d) => ({ domain: d.domain, allow_subdomains: d.allowSubdomains })) };
});
