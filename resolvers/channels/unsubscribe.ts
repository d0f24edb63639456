// Removing subscriptions (Zulip's remove_subscriptions_backend): every channel and principal is
// checked before anything changes, the removals happen in one transaction, and the events follow:
// `subscription remove` to each removed user, `peer_remove` to the others who may see the channel's
// subscribers.
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, StreamDoesNotExistError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { isAdmin } from '../users/roles.ts';
import { findChannelByName, hasContentAccess, hasMetadataAccess } from './access.ts';
import { resolvePrincipals } from './principals.ts';
import { subscriberViewers } from './subscribe-events.ts';
import { inTransaction } from '../transaction.ts';

export interface UnsubscribeResultShape {
  removed: string[];
  notRemoved: string[];
}

/** Zulip's user_directly_controls_user: oneself, or a bot one owns. */
const controls = (actor: User, target: User) => target.id === actor.id || (target.isBot && target.botOwnerId === actor.id);

export type RemovedPairs = { userId: number; channel: Channel }[];

export async function unsubscribe(ctx: Context, actor: User, names: string[], principals: (number | string)[] | null): Promise<UnsubscribeResultShape> {
  if (!names.length) throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
  // The events are built inside the transaction from what it changed, and published when it commits.
  return inTransaction(ctx, async (txc) => {
    const removedPairs: RemovedPairs = [];
    const result = await unsubscribeInTransaction(txc.tx, txc, actor, names, principals, removedPairs);
    await publishUnsubscribeEvents(txc, removedPairs);
    return result;
  });
}

/** The removal inside a caller's transaction; `removedPairs` collects what the events must tell. */
export async function unsubscribeInTransaction(
  tx: Prisma.TransactionClient, ctx: Context, actor: User, names: string[], principals: (number | string)[] | null, removedPairs: RemovedPairs,
): Promise<UnsubscribeResultShape> {
  const targets = principals?.length ? await resolvePrincipals(tx, ctx.realm.id, principals) : [actor];
  const othersInvolved = targets.some((t) => !controls(actor, t));
  const channels: Channel[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const channel = await findChannelByName(tx, ctx.realm.id, name);
    // A private channel the actor may not know about is answered like a missing one.
    if (!channel || !(await hasMetadataAccess(tx, actor, channel))) throw StreamDoesNotExistError.byName(name);
    if (!channels.some((c) => c.id === channel.id)) channels.push(channel);
  }
  for (const channel of channels) {
    const ownBotsOnly = targets.some((t) => t.id !== actor.id);
    if (othersInvolved) {
      // (a) administrators remove anyone; (c) with access, members of can_remove_subscribers_group.
      const allowed = isAdmin(actor)
        || ((await hasContentAccess(tx, actor, channel)) && (await isUserInGroup(tx, actor, channel.canRemoveSubscribersGroupId)));
      if (!allowed) throw new PermissionDeniedError('Insufficient permission');
    } else if (ownBotsOnly && !isAdmin(actor) && !(await hasContentAccess(tx, actor, channel))) {
      // (b) one's own bots, from channels one can access.
      throw new PermissionDeniedError('Insufficient permission');
    }
  }
  const out: UnsubscribeResultShape = { removed: [], notRemoved: [] };
  for (const target of targets) {
    for (const channel of channels) {
      const { count } = await tx.subscription.updateMany({
        where: { userId: target.id, channelId: channel.id, active: true },
        data: { active: false },
      });
      if (count) {
        out.removed.push(channel.name);
        removedPairs.push({ userId: target.id, channel });
      } else {
        out.notRemoved.push(channel.name);
      }
    }
  }
  return out;
}

export async function publishUnsubscribeEvents(ctx: Context, removed: RemovedPairs): Promise<void> {
  const byChannel = new Map<number, { channel: Channel; userIds: number[] }>();
  for (const { userId, channel } of removed) {
    const entry = byChannel.get(channel.id) ?? { channel, userIds: [] };
    entry.userIds.push(userId);
    byChannel.set(channel.id, entry);
  }
  for (const { channel, userIds } of byChannel.values()) {
    for (const userId of userIds) {
      ctx.events.publish(ctx.realm.id, [userId], {
        type: 'subscription', op: 'remove', subscriptions: [{ name: channel.name, stream_id: channel.id }],
      });
    }
    const remaining = (await ctx.db.subscription.findMany({
      where: { channelId: channel.id, active: true, isUserActive: true }, select: { userId: true },
    })).map((s) => s.userId);
    const peers = (await subscriberViewers(ctx.db, ctx.realm.id, channel, remaining)).filter((id) => !userIds.includes(id));
    if (peers.length) ctx.events.publish(ctx.realm.id, peers, { type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: userIds });
  }
}
