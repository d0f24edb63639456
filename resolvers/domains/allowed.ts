// Which addresses may join an organization (Zulip's email_allowed_for_realm): any, unless
// `emails_restricted_to_domains`; then only its domains (and their subdomains where allowed), and
// no `+` in the address.
import type { Prisma, Realm } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';

export type EmailRefusal = 'outside' | 'plus';

export async function emailRefusalForRealm(db: Db | Prisma.TransactionClient, realm: Pick<Realm, 'id' | 'emailsRestrictedToDomains'>, email: string): Promise<EmailRefusal | null> {
  if (!realm.emailsRestrictedToDomains) return null;
  const at = email.lastIndexOf('@');
  if (email.slice(0, at).includes('+')) return 'plus';
  let domain = email.slice(at + 1).toLowerCase();
  const domains = await db.realmDomain.findMany({ where: { realmId: realm.id }, select: { domain: true, allowSubdomains: true } });
  if (domains.some((d) => d.domain === domain)) return null;
  while (domain.includes('.')) {
    domain = domain.slice(domain.indexOf('.') + 1);
    if (domains.some((d) => d.allowSubdomains && d.domain === domain)) return null;
  }
  return 'outside';
}
