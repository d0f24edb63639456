// Zulip's permission settings for a new channel (channels/permission-settings.ts): its creator
// administers it, administrators may remove subscribers, everyone may post, and the rest is left to
// organization-level settings.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { createAnonymousGroup } from '../groups/membership.ts';
import { systemGroupIds } from '../groups/system.ts';
import { CHANNEL_PERMISSION_SETTINGS } from './permission-settings.ts';

export async function defaultChannelPermissions(tx: Prisma.TransactionClient, realmId: number, creatorId: number): Promise<Record<string, number>> {
  const g: Record<string, number> = await systemGroupIds(tx, realmId);
  const out: Record<string, number> = {};
  for (const { column, defaultGroup } of CHANNEL_PERMISSION_SETTINGS) {
    out[column] = defaultGroup === 'channel_creator' ? await createAnonymousGroup(tx, realmId, [creatorId]) : g[defaultGroup]!;
  }
  return out;
}
