// GraphQL fields of the topics area: listing and deleting topics, marking them read, topic
// visibility policies, and the narrow-based flag update.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { FlagsNarrowResultType, TopicType } from '../../schema/topics.ts';
import { channelArg } from '../../schema/channels.ts';
import { NarrowTermInput } from '../../schema/messages.ts';
import { normalizeNarrow } from '../messages/narrow.ts';
import { listTopics } from './list.ts';
import { deleteTopic } from './delete.ts';
import { markAllAsRead, markChannelAsRead, markTopicAsRead } from './mark-read.ts';
import { updateFlagsForNarrow } from './flags-narrow.ts';
import { setTopicVisibilityPolicy } from './user-topics.ts';
import { updateMutedTopic } from './muted-topics.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';

/** A topic by channel and name, the empty topic also by its display name. */
const topicArgs = builder.args((t) => ({
  ...channelArg,
  topicName: t.string({ required: true, description: 'The topic; the empty topic\'s display name means the empty topic.' }),
}));

builder.queryFields((t) => ({
  channelTopics: t.field({
    type: [TopicType],
    description: 'The channel\'s topics the viewer may read, newest first (Zulip\'s GET /users/me/{stream_id}/topics).',
    args: {
      ...channelArg,
      allowEmptyTopicName: t.arg.boolean({ defaultValue: false, description: 'Return the empty topic as "" rather than its display name.' }),
    },
    resolve: forUser((ctx, user, args) => listTopics(ctx, user, args.channelId, args.allowEmptyTopicName ?? false)),
  }),
}));

builder.mutationFields((t) => ({
  deleteTopic: t.boolean({
    description: 'Deletes a topic\'s messages, newest first, in batches (administrators only). Returns false when time ran out before the end: call again.',
    args: topicArgs,
    resolve: forUser((ctx, user, args) => deleteTopic(ctx, user, args.channelId, args.topicName)),
  }),
  markAllAsRead: t.int({
    description: 'Marks all of the viewer\'s messages read; returns how many changed.',
    resolve: forUser(markAllAsRead),
  }),
  markChannelAsRead: t.int({
    description: 'Marks the viewer\'s messages in a channel read; returns how many changed.',
    args: channelArg,
    resolve: forUser((ctx, user, args) => markChannelAsRead(ctx, user, args.channelId)),
  }),
  markTopicAsRead: t.int({
    description: 'Deprecated (use updateMessageFlagsForNarrow): marks the viewer\'s messages in a topic read; returns how many changed.',
    args: topicArgs,
    resolve: forUser((ctx, user, args) => markTopicAsRead(ctx, user, args.channelId, args.topicName)),
  }),
  updateMessageFlagsForNarrow: t.field({
    type: FlagsNarrowResultType,
    description: 'Adds or removes a flag on a window of messages in a narrow, chosen like the messages query.',
    args: {
      anchor: t.arg.string({ required: true, description: 'A message ID, or `newest`, `oldest`, `first_unread`.' }),
      includeAnchor: t.arg.boolean({ defaultValue: true, description: 'Whether the anchor message itself is in the window.' }),
      numBefore: t.arg.int({ required: true, description: 'Messages before the anchor.' }),
      numAfter: t.arg.int({ required: true, description: 'Messages after the anchor.' }),
      narrow: t.arg({ type: [NarrowTermInput], defaultValue: [], description: 'The narrow.' }),
      op: t.arg.string({ required: true, description: '`add` or `remove`.' }),
      flag: t.arg.string({ required: true, description: '`read`, `starred` or `collapsed`.' }),
    },
    resolve: forUser((ctx, user, args) => updateFlagsForNarrow(ctx, user, {
      anchor: args.anchor, includeAnchor: args.includeAnchor ?? true, numBefore: args.numBefore, numAfter: args.numAfter,
      narrow: normalizeNarrow(args.narrow ?? []), op: args.op, flag: args.flag,
    })),
  }),
  setTopicVisibilityPolicy: t.boolean({
    description: 'Sets the viewer\'s visibility policy for a topic: 0 none, 1 muted, 2 unmuted, 3 followed.',
    args: {
      ...channelArg,
      topic: t.arg.string({ required: true, description: 'The topic (it need not have messages).' }),
      visibilityPolicy: t.arg.int({ required: true, description: '0, 1, 2 or 3.' }),
    },
    resolve: userAction((ctx, user, args) => setTopicVisibilityPolicy(ctx, user, args.channelId, args.topic, args.visibilityPolicy)),
  }),
  updateMutedTopic: t.boolean({
    description: 'Deprecated (use setTopicVisibilityPolicy): mutes (`add`) or unmutes (`remove`) a topic, the channel given by ID or by name.',
    args: {
      channelId: t.arg.int({ description: 'The channel; give it or channelName, not both.' }),
      channelName: t.arg.string({ description: 'The channel\'s name; give it or channelId, not both.' }),
      topic: t.arg.string({ required: true, description: 'The topic (it need not have messages).' }),
      op: t.arg.string({ required: true, description: '`add` (mute) or `remove` (unmute).' }),
    },
    resolve: userAction(updateMutedTopic),
  }),
}));
