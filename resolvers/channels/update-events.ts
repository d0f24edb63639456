// Events after a channel's settings change: one `stream update` per changed property (Zulip's
// shape), `stream create` for users who can newly see the channel and `stream delete` for those who
// no longer can.
import type { Channel } from '../../prisma/generated/client/client.ts';
import type { StreamUpdateEvent } from './events.ts';
import type { Context } from '../../schema/context.ts';
import { GroupIndex } from '../groups/group-index.ts';
import { channelRecord } from './wire.ts';

/** Zulip's Realm.STREAM_EVENTS_NOTIFICATION_TOPIC_NAME: where the notification bot announces channel changes. */
export const CHANNEL_EVENTS_TOPIC = 'channel events';

export interface ChannelChange {
  property: string;
  value: unknown;
  extra?: Record<string, unknown>;
}

export function streamUpdateEvent(channel: Pick<Channel, 'id' | 'name'>, change: ChannelChange): StreamUpdateEvent {
  return { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: change.property, value: change.value, ...change.extra };
}

export async function streamRecord(ctx: Context, channel: Channel): Promise<Record<string, unknown>> {
  const groups = await GroupIndex.load(ctx.db, ctx.realm.id, { allMembers: false, viewerId: null });
  return channelRecord(channel, groups, null);
}

/**
 * Publishes the changes. `before` and `after` are the metadata audiences; `oldName` is the name the
 * events carry (Zulip names the channel as clients knew it).
 */
export async function publishChannelChanges(
  ctx: Context, channel: Channel, oldName: string, changes: ChannelChange[], before: number[], after: number[],
): Promise<void> {
  const had = new Set(before);
  const has = new Set(after);
  const gained = after.filter((id) => !had.has(id));
  const lost = before.filter((id) => !has.has(id));
  const kept = after.filter((id) => had.has(id));
  if (lost.length) ctx.events.publish(ctx.realm.id, lost, { type: 'stream', op: 'delete', streams: [{ stream_id: channel.id }], stream_ids: [channel.id] });
  if (gained.length) ctx.events.publish(ctx.realm.id, gained, { type: 'stream', op: 'create', streams: [await streamRecord(ctx, channel)] });
  for (const change of changes) ctx.events.publish(ctx.realm.id, kept, streamUpdateEvent({ id: channel.id, name: oldName }, change));
}
