// Archiving a channel (DELETE /streams/{stream_id}) and the events for archiving and unarchiving.
// An archived channel keeps its messages and subscriptions (feature level 362+), accepts no new
// messages and is no longer a default channel.
import type { Channel, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { accessChannelForAdministering } from './administer.ts';
import { metadataAudience } from './audience.ts';
import { publishDefaultStreams } from './default-streams.ts';
import { CHANNEL_EVENTS_TOPIC, streamRecord, streamUpdateEvent } from './update-events.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';

/** Realm settings naming a channel, wire name → column; -1 on the wire means none. */
const ANNOUNCEMENT_SETTINGS = [
  ['moderation_request_channel_id', 'moderationRequestChannelId'],
  ['new_stream_announcements_stream_id', 'newStreamAnnouncementsChannelId'],
  ['signup_announcements_stream_id', 'signupAnnouncementsChannelId'],
  ['zulip_update_announcements_stream_id', 'zulipUpdateAnnouncementsChannelId'],
] as const;

export async function archiveChannel(ctx: Context, actor: User, channelId: number): Promise<void> {
  const channel = await accessChannelForAdministering(ctx.db, actor, channelId);
  if (channel.isArchived) throw new BadRequestError('Channel is already archived.');
  const wasDefault = await ctx.db.defaultChannel.count({ where: { realmId: ctx.realm.id, channelId: channel.id } });
  const realm = await ctx.db.realm.findUniqueOrThrow({ where: { id: ctx.realm.id } });
  const cleared = ANNOUNCEMENT_SETTINGS.filter(([, column]) => realm[column] === channel.id);
  const updated = await ctx.db.$transaction(async (tx) => {
    // Of two concurrent requests only one archives (and announces); the other is told it is done.
    const { count } = await tx.channel.updateMany({ where: { id: channel.id, isArchived: false }, data: { isArchived: true } });
    if (!count) throw new BadRequestError('Channel is already archived.');
    await tx.defaultChannel.deleteMany({ where: { realmId: ctx.realm.id, channelId: channel.id } });
    // The organization stops announcing into (or reporting to) an archived channel.
    if (cleared.length) await tx.realm.update({ where: { id: realm.id }, data: Object.fromEntries(cleared.map(([, column]) => [column, null])) });
    return tx.channel.findUniqueOrThrow({ where: { id: channel.id } });
  });
  // After the commit, so a refused or failed request announces nothing. The bot's system send is
  // not bound by the archived channel's refusal of new messages.
  try {
    await sendAsNotificationBot(ctx, { channelId: channel.id, topic: CHANNEL_EVENTS_TOPIC }, `Channel #**${channel.name}** has been archived.`);
  } catch {
    // Best-effort, like every announcement.
  }
  if (cleared.length) {
    const everyone = (await ctx.db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true } })).map((u) => u.id);
    for (const [property] of cleared) ctx.events.publish(realm.id, everyone, { type: 'realm', op: 'update', property, value: -1 });
  }
  await publishArchiveChange(ctx, updated, await metadataAudience(ctx.db, updated));
  if (wasDefault) {
    await publishDefaultStreams(ctx);
  }
}

/**
 * `stream update` with property `is_archived` for clients with the `archived_channels` capability;
 * the others get `stream delete` (archiving) or `stream create` (unarchiving) instead, chosen per
 * queue in events/shape.ts from `fallback`.
 */
export async function publishArchiveChange(ctx: Context, channel: Channel, audience: number[]): Promise<void> {
  const fallback = channel.isArchived
    ? { type: 'stream', op: 'delete', streams: [{ stream_id: channel.id }], stream_ids: [channel.id] }
    : { type: 'stream', op: 'create', streams: [await streamRecord(ctx, channel)] };
  ctx.events.publish(ctx.realm.id, audience, { ...streamUpdateEvent(channel, { property: 'is_archived', value: channel.isArchived }), fallback });
}
