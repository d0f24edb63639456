// Creating an organization: its system groups, default permission settings, first channel and owner.
import type { Db } from '../../prisma/database.ts';
import type { Realm, User } from '../../prisma/generated/client/client.ts';
import { createSystemGroups } from '../groups/system.ts';
import { defaultChannelPermissions } from '../channels/defaults.ts';
import { createUserInTx } from '../users/create.ts';
import { ROLE_OWNER } from '../users/roles.ts';
import { BadRequestError } from '../errors.ts';

export interface NewRealm {
  stringId: string;
  name: string;
  ownerEmail: string;
  ownerFullName?: string;
  ownerPassword?: string | null;
}

export async function createRealm(db: Db, input: NewRealm): Promise<{ realm: Realm; owner: User }> {
  if (input.stringId && !/^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/.test(input.stringId)) {
    throw new BadRequestError('Subdomains may contain only lowercase letters, digits and hyphens.');
  }
  return db.$transaction(async (tx) => {
    if (await tx.realm.findUnique({ where: { stringId: input.stringId } })) {
      throw new BadRequestError(`An organization already uses the subdomain '${input.stringId}'.`);
    }
    const created = await tx.realm.create({ data: { stringId: input.stringId, name: input.name } });
    const g = await createSystemGroups(tx, created.id);
    // Zulip's defaults for a new organization.
    const realm = await tx.realm.update({
      where: { id: created.id },
      data: {
        canAccessAllUsersGroupId: g['role:everyone'],
        canAddCustomEmojiGroupId: g['role:members'],
        canAddSubscribersGroupId: g['role:members'],
        canCreateBotsGroupId: g['role:members'],
        canCreateGroupsGroupId: g['role:members'],
        canCreatePrivateChannelGroupId: g['role:members'],
        canCreatePublicChannelGroupId: g['role:members'],
        canCreateWebPublicChannelGroupId: g['role:owners'],
        canCreateWriteOnlyBotsGroupId: g['role:members'],
        canDeleteAnyMessageGroupId: g['role:administrators'],
        canDeleteOwnMessageGroupId: g['role:everyone'],
        canInviteUsersGroupId: g['role:members'],
        canManageAllGroupsGroupId: g['role:owners'],
        canManageBillingGroupId: g['role:administrators'],
        canMentionManyUsersGroupId: g['role:administrators'],
        canMoveMessagesBetweenChannelsGroupId: g['role:members'],
        canMoveMessagesBetweenTopicsGroupId: g['role:everyone'],
        canResolveTopicsGroupId: g['role:everyone'],
        canSetDeleteMessagePolicyGroupId: g['role:moderators'],
        canSetTopicsPolicyGroupId: g['role:members'],
        canSummarizeTopicsGroupId: g['role:everyone'],
        createMultiuseInviteGroupId: g['role:administrators'],
        directMessageInitiatorGroupId: g['role:everyone'],
        directMessagePermissionGroupId: g['role:everyone'],
      },
    });
    const owner = await createUserInTx(tx, realm.id, {
      email: input.ownerEmail,
      fullName: input.ownerFullName ?? 'Organization owner',
      password: input.ownerPassword,
      role: ROLE_OWNER,
    });
    const general = await tx.channel.create({
      data: {
        realmId: realm.id,
        name: 'general',
        description: 'Everyone is added to this channel by default.',
        renderedDescription: '<p>Everyone is added to this channel by default.</p>',
        creatorId: owner.id,
        ...(await defaultChannelPermissions(tx, realm.id, owner.id)),
      },
    });
    await tx.defaultChannel.create({ data: { realmId: realm.id, channelId: general.id } });
    await tx.subscription.create({ data: { userId: owner.id, channelId: general.id, color: '#76ce90' } });
    const updated = await tx.realm.update({
      where: { id: realm.id },
      data: { newStreamAnnouncementsChannelId: general.id, signupAnnouncementsChannelId: general.id },
    });
    return { realm: updated, owner };
  });
}
