// Subscribing users to channels, creating channels that do not exist yet.
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { SubscribeResultShape } from '../../schema/channels.ts';
import { BadRequestError, PermissionDeniedError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { defaultChannelPermissions } from './defaults.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { pickColor } from '../users/create.ts';
import { codePointLength, escapeHtml } from '../text.ts';
import { MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH } from '../realm/version.ts';
import { findChannelByName, hasContentAccess, isSubscribed } from './access.ts';
import { resolvePrincipals } from './principals.ts';

export interface SubscribeInput {
  subscriptions: { name: string; description?: string | null }[];
  principals?: (number | string)[] | null;
  authorizationErrorsFatal?: boolean | null;
  inviteOnly?: boolean | null;
  historyPublicToSubscribers?: boolean | null;
  isDefaultStream?: boolean | null;
}

export function validateChannelName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new BadRequestError('Channel name can\'t be empty.');
  if (codePointLength(trimmed) > MAX_CHANNEL_NAME_LENGTH) {
    throw new BadRequestError(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  if (/[\u0000-\u001f\u007f-\u009f]/.test(trimmed)) throw new BadRequestError('Invalid character in channel name, at position 1.');
  return trimmed;
}

async function createChannel(
  tx: Prisma.TransactionClient, ctx: Context, actor: User, name: string, description: string, input: SubscribeInput,
): Promise<Channel> {
  const realm = ctx.realm;
  const inviteOnly = input.inviteOnly ?? false;
  const groupId = inviteOnly ? realm.canCreatePrivateChannelGroupId : realm.canCreatePublicChannelGroupId;
  if (!(await isUserInGroup(tx, actor, groupId))) throw new PermissionDeniedError('Insufficient permission');
  if (codePointLength(description) > MAX_CHANNEL_DESCRIPTION_LENGTH) {
    throw new BadRequestError(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
  }
  const channel = await tx.channel.create({
    data: {
      realmId: realm.id,
      name,
      description,
      renderedDescription: description ? `<p>${escapeHtml(description)}</p>` : '',
      creatorId: actor.id,
      inviteOnly,
      historyPublicToSubscribers: inviteOnly ? (input.historyPublicToSubscribers ?? false) : true,
      ...(await defaultChannelPermissions(tx, realm.id, actor.id)),
    },
  });
  if (input.isDefaultStream) {
    if (!isAdmin(actor)) throw new PermissionDeniedError('Must be an organization administrator');
    await tx.defaultChannel.create({ data: { realmId: realm.id, channelId: channel.id } });
  }
  return channel;
}

/** May `actor` put `target` into `channel`? */
async function canSubscribe(tx: Prisma.TransactionClient, ctx: Context, actor: User, target: User, channel: Channel): Promise<boolean> {
  if (channel.isArchived) return false;
  if (actor.id === target.id) {
    if (!channel.inviteOnly && !isGuest(actor)) return true;
    if (await isSubscribed(tx, actor.id, channel.id)) return true;
    return (await isUserInGroup(tx, actor, channel.canSubscribeGroupId))
      || (await isUserInGroup(tx, actor, channel.canAddSubscribersGroupId));
  }
  // Adding someone else: the channel's own group, or for public channels the realm's setting too.
  if (await isUserInGroup(tx, actor, channel.canAddSubscribersGroupId)) return true;
  if (!(await hasContentAccess(tx, actor, channel))) return isAdmin(actor) && !channel.inviteOnly;
  if (channel.inviteOnly && !(await isSubscribed(tx, actor.id, channel.id)) && !isAdmin(actor)) return false;
  return isAdmin(actor) || (await isUserInGroup(tx, actor, ctx.realm.canAddSubscribersGroupId));
}

export async function subscribe(ctx: Context, actor: User, input: SubscribeInput): Promise<{ result: SubscribeResultShape; created: Channel[]; added: { userId: number; channelId: number }[] }> {
  if (!input.subscriptions.length) throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
  const fatal = input.authorizationErrorsFatal ?? true;
  return ctx.db.$transaction(async (tx) => {
    const targets = input.principals?.length ? await resolvePrincipals(tx, ctx.realm.id, input.principals) : [actor];
    const result: SubscribeResultShape = { subscribed: {}, alreadySubscribed: {}, unauthorized: [] };
    const created: Channel[] = [];
    const added: { userId: number; channelId: number }[] = [];
    for (const spec of input.subscriptions) {
      const name = validateChannelName(spec.name);
      let channel = await findChannelByName(tx, ctx.realm.id, name);
      if (!channel) {
        channel = await createChannel(tx, ctx, actor, name, spec.description ?? '', input);
        created.push(channel);
      }
      for (const target of targets) {
        const isNew = created.includes(channel);
        if (!isNew && !(await canSubscribe(tx, ctx, actor, target, channel))) {
          if (fatal) throw new BadRequestError(`Unable to access channel (${channel.name}).`);
          if (!result.unauthorized.includes(channel.name)) result.unauthorized.push(channel.name);
          continue;
        }
        const existing = await tx.subscription.findUnique({ where: { userId_channelId: { userId: target.id, channelId: channel.id } } });
        const key = String(target.id);
        if (existing?.active) {
          (result.alreadySubscribed[key] ??= []).push(channel.name);
          continue;
        }
        if (existing) {
          await tx.subscription.update({ where: { id: existing.id }, data: { active: true } });
        } else {
          const count = await tx.subscription.count({ where: { userId: target.id } });
          await tx.subscription.create({ data: { userId: target.id, channelId: channel.id, color: pickColor(count) } });
        }
        (result.subscribed[key] ??= []).push(channel.name);
        added.push({ userId: target.id, channelId: channel.id });
      }
    }
    return { result, created, added };
  });
}
