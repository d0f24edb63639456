// The notification bot: Zulip's system bot that announces new channels, delivers reminders and
// posts message reports. Zulip keeps it in an internal realm; Parley gives each organization its own
// bot account, created on first use, so messages and their senders never cross organizations.
import type { Db } from '../../prisma/database.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { generateApiKey } from '../auth/credentials.ts';
import { syncRoleGroups } from '../groups/system.ts';
import { ROLE_MEMBER } from './roles.ts';

type Reader = Db | Prisma.TransactionClient;

export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';
export const NOTIFICATION_BOT_NAME = 'Notification Bot';
/** Zulip's DEFAULT_BOT type: system bots are generic bots without an owner. */
const DEFAULT_BOT = 1;

/** The realm's notification bot, created when first needed (concurrent-safe). */
export async function notificationBot(db: Reader, realmId: number): Promise<User> {
  const existing = await db.user.findFirst({ where: { realmId, email: NOTIFICATION_BOT_EMAIL } });
  if (existing) return existing;
  try {
    const bot = await db.user.create({
      data: {
        realmId, email: NOTIFICATION_BOT_EMAIL, deliveryEmail: NOTIFICATION_BOT_EMAIL, fullName: NOTIFICATION_BOT_NAME,
        role: ROLE_MEMBER, isBot: true, botType: DEFAULT_BOT, apiKey: generateApiKey(), passwordHash: null,
      },
    });
    await syncRoleGroups(db as Prisma.TransactionClient, realmId, bot.id, ROLE_MEMBER);
    return bot;
  } catch (error) {
    // Another request created it first.
    if ((error as { code?: string }).code !== 'P2002') throw error;
    return db.user.findFirstOrThrow({ where: { realmId, email: NOTIFICATION_BOT_EMAIL } });
  }
}
