// Administrators follow who consents to standard exports (Zulip's realm_export_consent): when a
// member changes allow_private_data_export, and when a member joins or comes back, since the user
// events of those carry no such setting.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { EventBus } from '../events/bus.ts';
import { ROLE_ADMINISTRATOR } from '../users/roles.ts';

export async function announceExportConsent(ctx: { db: Db | Prisma.TransactionClient; events: EventBus }, user: Pick<User, 'id' | 'realmId' | 'isBot' | 'settings'>): Promise<void> {
  if (user.isBot) return;
  const admins = await ctx.db.user.findMany({ where: { realmId: user.realmId, isActive: true, isBot: false, role: { lte: ROLE_ADMINISTRATOR } }, select: { id: true } });
  const consented = (user.settings as Record<string, unknown> | null)?.allow_private_data_export === true;
  ctx.events.publish(user.realmId, admins.map((a) => a.id), { type: 'realm_export_consent', user_id: user.id, consented });
}
