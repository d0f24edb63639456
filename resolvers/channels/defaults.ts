// Zulip's permission settings for a new channel: its creator administers it, administrators may
// remove subscribers, everyone may post, and the rest is left to organization-level settings.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { createAnonymousGroup } from '../groups/membership.ts';
import { systemGroupIds } from '../groups/system.ts';

export async function defaultChannelPermissions(tx: Prisma.TransactionClient, realmId: number, creatorId: number) {
  const g = await systemGroupIds(tx, realmId);
  return {
    canAddSubscribersGroupId: g['role:nobody'],
    canAdministerChannelGroupId: await createAnonymousGroup(tx, realmId, [creatorId]),
    canDeleteAnyMessageGroupId: g['role:nobody'],
    canDeleteOwnMessageGroupId: g['role:nobody'],
    canMoveMessagesOutOfChannelGroupId: g['role:nobody'],
    canMoveMessagesWithinChannelGroupId: g['role:nobody'],
    canRemoveSubscribersGroupId: g['role:administrators'],
    canResolveTopicsGroupId: g['role:nobody'],
    canSendMessageGroupId: g['role:everyone'],
    canSubscribeGroupId: g['role:nobody'],
  };
}
