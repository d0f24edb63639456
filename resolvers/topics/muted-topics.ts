// PATCH /users/me/subscriptions/muted_topics: the deprecated mute/unmute form (Zulip's
// update_muted_topic), kept for older clients as a thin layer over topic visibility policies.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, IncompatibleParametersError } from '../errors.ts';
import { findChannelByName, hasContentAccess } from '../channels/access.ts';
import { exactInsensitive } from '../rows.ts';
import { topicFromClient } from '../messages/topics.ts';
import { setTopicVisibilityPolicy } from './user-topics.ts';
import { TOPIC_POLICY } from './policies.ts';

const { MUTED, INHERIT } = TOPIC_POLICY;

export interface MutedTopicInput {
  channelId?: number | null;
  channelName?: string | null;
  topic: string;
  op: string;
}

export async function updateMutedTopic(ctx: Context, user: User, input: MutedTopicInput): Promise<void> {
  // Zulip's check_for_exactly_one_stream_arg.
  if (input.channelId == null && input.channelName == null) throw new BadRequestError("Missing 'stream_id' argument");
  if (input.channelId != null && input.channelName != null) throw new IncompatibleParametersError(['stream_id', 'stream']);
  if (input.op !== 'add' && input.op !== 'remove') throw new BadRequestError('Invalid op');
  const channel = input.channelId != null
    ? await ctx.db.channel.findFirst({ where: { id: input.channelId, realmId: ctx.realm.id } })
    : await findChannelByName(ctx.db, ctx.realm.id, input.channelName!);
  const readable = !!channel && (await hasContentAccess(ctx.db, user, channel));

  if (input.op === 'add') {
    if (!readable) throw new BadRequestError(input.channelId != null ? 'Invalid channel ID' : `Invalid channel name '${input.channelName}'`);
    await setTopicVisibilityPolicy(ctx, user, channel.id, input.topic, MUTED);
    return;
  }
  // Unmuting needs no access to the channel (one may have lost it), only a mute to remove there.
  const topic = topicFromClient(input.topic, ctx.realm.emptyTopicDisplayName);
  const existing = channel && await ctx.db.userTopic.findFirst({ where: { userId: user.id, channelId: channel.id, topicName: exactInsensitive(topic) } });
  if (!channel || (!readable && !existing)) throw new BadRequestError('Topic is not muted');
  await setTopicVisibilityPolicy(ctx, user, channel.id, input.topic, INHERIT);
}
