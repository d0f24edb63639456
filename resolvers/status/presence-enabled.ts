// The `presence_enabled` personal setting, which the deprecated status `away` also writes.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { ParleyEvent } from '../events/bus.ts';

/** Sets it inside the caller's transaction; returns the `user_settings` event (sent even when unchanged, as Zulip does). */
export async function setPresenceEnabled(tx: Prisma.TransactionClient, userId: number, value: boolean): Promise<ParleyEvent> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { settings: true } });
  const settings = { ...((user.settings && typeof user.settings === 'object' ? user.settings : {}) as Record<string, unknown>), presence_enabled: value };
  await tx.user.update({ where: { id: userId }, data: { settings: settings as Prisma.InputJsonValue } });
  return { type: 'user_settings', op: 'update', property: 'presence_enabled', value };
}
