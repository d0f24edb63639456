// POST /users/me/api_key/regenerate (Zulip's regenerate_api_key and do_regenerate_api_key): a new
// API key at once, the old one refused from then on. Bots may renew their own; their owners hear
// of it by `realm_bot` update. Legacy push tokens registered with the old key are dropped, as
// Zulip's clear_push_device_tokens does.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { inTransaction } from '../transaction.ts';
import { botAdministrators } from '../users/audience.ts';
import { generateApiKey } from './credentials.ts';
import { announceRowsChange } from '../row-cache.ts';

export async function regenerateOwnApiKey(ctx: Context, user: User): Promise<string> {
  const apiKey = generateApiKey();
  await inTransaction(ctx, async (tx) => {
    await tx.db.user.update({ where: { id: user.id }, data: { apiKey } });
    await tx.db.legacyPushToken.deleteMany({ where: { userId: user.id } });
    announceRowsChange(tx.events, ctx.realm.id, user.id);
    if (user.isBot) {
      tx.events.publish(ctx.realm.id, await botAdministrators(tx.db, ctx.realm.id, user), { type: 'realm_bot', op: 'update', bot: { user_id: user.id, api_key: apiKey } });
    }
  });
  return apiKey;
}
