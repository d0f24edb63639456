// Events and notification-bot messages after a subscribe commits: `stream create` for new channels
// (to everyone who may see them), `subscription add` to each new subscriber, `subscription peer_add`
// to the other users who may see the channel's subscribers; then the optional announcement of new
// channels and the direct messages telling users someone else subscribed them.
import type { Channel, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Context } from '../../schema/context.ts';
import { GroupIndex } from '../groups/group-index.ts';
import { activeUserIdsInGroup } from '../groups/membership.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { ROLE_ADMINISTRATOR, ROLE_GUEST } from '../users/roles.ts';
import { channelRecord, subscriptionFields } from './wire.ts';
import { metadataAccessGroupIds } from './permission-settings.ts';

/** Zulip sends no "you were subscribed" messages when a request subscribes more users than this. */
const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/**
 * Users who may see who is subscribed to the channel (the audience of peer_add / peer_remove):
 * for a public channel every active non-guest (and guests for web-public ones) plus subscribed
 * guests; for a private one its subscribers, the organization's administrators and the members of
 * the groups that grant metadata access.
 */
export async function subscriberViewers(db: Db, realmId: number, channel: Channel, subscriberIds: number[]): Promise<number[]> {
  const ids = new Set(subscriberIds);
  if (!channel.inviteOnly) {
    const users = await db.user.findMany({
      where: { realmId, isActive: true, ...(channel.isWebPublic ? {} : { role: { not: ROLE_GUEST } }) },
      select: { id: true },
    });
    for (const u of users) ids.add(u.id);
  } else {
    const admins = await db.user.findMany({ where: { realmId, isActive: true, role: { lte: ROLE_ADMINISTRATOR } }, select: { id: true } });
    for (const u of admins) ids.add(u.id);
    for (const groupId of metadataAccessGroupIds(channel)) {
      if (groupId != null) for (const id of await activeUserIdsInGroup(db, groupId)) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

export async function publishSubscribeEvents(ctx: Context, created: Channel[], added: { userId: number; channelId: number }[]): Promise<void> {
  if (!created.length && !added.length) return;
  const channelIds = [...new Set([...created.map((c) => c.id), ...added.map((a) => a.channelId)])];
  const [groups, channels, subscriptions] = await Promise.all([
    GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: false, viewerId: null }),
    ctx.db.channel.findMany({ where: { id: { in: channelIds } } }),
    ctx.db.subscription.findMany({ where: { channelId: { in: channelIds }, active: true, isUserActive: true } }),
  ]);
  const byId = new Map(channels.map((c) => [c.id, c]));
  const subscribersOf = (channelId: number) => subscriptions.filter((s) => s.channelId === channelId).map((s) => s.userId).sort((a, b) => a - b);

  for (const channel of created) {
    const fresh = byId.get(channel.id)!;
    const record = channelRecord(fresh, groups, null);
    const audience = channel.inviteOnly
      ? subscriberViewers(ctx.db, ctx.realm.id, fresh, subscribersOf(channel.id))
      : (await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, ...(channel.isWebPublic ? {} : { role: { not: ROLE_GUEST } }) }, select: { id: true } })).map((u) => u.id);
    ctx.events.publish(ctx.realm.id, await audience, { type: 'stream', op: 'create', streams: [record] });
  }

  const addedByChannel = new Map<number, number[]>();
  for (const { userId, channelId } of added) addedByChannel.set(channelId, [...(addedByChannel.get(channelId) ?? []), userId]);
  for (const [channelId, userIds] of addedByChannel) {
    const channel = byId.get(channelId)!;
    const subscribers = subscribersOf(channelId);
    if (channel.inviteOnly && !created.some((c) => c.id === channelId)) {
      // Users who could not see the private channel before learn of it first (Zulip's
      // send_stream_creation_events_for_previously_inaccessible_streams).
      const before = new Set(await subscriberViewers(ctx.db, ctx.realm.id, channel, subscribers.filter((id) => !userIds.includes(id))));
      const newcomers = userIds.filter((id) => !before.has(id));
      if (newcomers.length) ctx.events.publish(ctx.realm.id, newcomers, { type: 'stream', op: 'create', streams: [channelRecord(channel, groups, null)] });
    }
    for (const userId of userIds) {
      const sub = subscriptions.find((s) => s.channelId === channelId && s.userId === userId)!;
      ctx.events.publish(ctx.realm.id, [userId], {
        type: 'subscription', op: 'add',
        subscriptions: [{ ...channelRecord(channel, groups, null), ...subscriptionFields(sub), subscribers }],
      });
    }
    const peers = (await subscriberViewers(ctx.db, ctx.realm.id, channel, subscribers)).filter((id) => !userIds.includes(id));
    if (peers.length) ctx.events.publish(ctx.realm.id, peers, { type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: userIds });
  }
}

/**
 * The notification bot's messages (Zulip's send_messages_for_new_subscribers): the announcement of
 * new channels in the organization's new-channel announcements channel when `announce` is set, and
 * a direct message to each human the actor subscribed to existing channels. Best effort: the
 * subscriptions are already committed, so a failed notice must not turn the request into an error.
 */
export async function sendNewSubscriptionMessages(
  ctx: Context, actor: User, created: Channel[], added: { userId: number; channelId: number }[], announce: boolean,
): Promise<void> {
  const announcementChannelId = ctx.realm.newStreamAnnouncementsChannelId;
  if (announce && created.length && announcementChannelId != null) {
    const mention = `@_**${actor.fullName}|${actor.id}**`;
    const links = created.map((c) => `#**${c.name}**`).join(', ');
    const content = created.length > 1
      ? `${mention} created the following channels: ${links}.`
      : `${mention} created a new channel ${links}.`;
    await sendAsNotificationBot(ctx, { channelId: announcementChannelId, topic: 'new channels' }, content).catch(() => undefined);
  }

  const recipients = [...new Set(added.map((a) => a.userId))].filter((id) => id !== actor.id);
  if (!recipients.length || recipients.length > MAX_BULK_NEW_SUBSCRIPTION_MESSAGES) return;
  const humans = await ctx.db.user.findMany({ where: { id: { in: recipients }, isBot: false, isActive: true }, select: { id: true } });
  const createdIds = new Set(created.map((c) => c.id));
  const names = new Map((await ctx.db.channel.findMany({ where: { id: { in: added.map((a) => a.channelId) } }, select: { id: true, name: true } })).map((c) => [c.id, c.name]));
  for (const { id } of humans) {
    // Zulip tells users about channels they were added to, not ones created for them in this request.
    const channelNames = added.filter((a) => a.userId === id && !createdIds.has(a.channelId)).map((a) => names.get(a.channelId)!).sort();
    if (!channelNames.length) continue;
    const who = `@**${actor.fullName}|${actor.id}**`;
    const content = channelNames.length === 1
      ? `${who} subscribed you to the channel #**${channelNames[0]}**.`
      : `${who} subscribed you to the following channels:\n\n${channelNames.map((n) => `- #**${n}**`).join('\n')}\n`;
    await sendAsNotificationBot(ctx, { userIds: [id] }, content).catch(() => undefined);
  }
}
