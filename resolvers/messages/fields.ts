// GraphQL fields of the messages area.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { MessageEditResultType, MessageSnapshotType, SentMessageType, MessageType, MessageWindow, NarrowMatchType, NarrowTermInput, ReactionInput } from '../../schema/messages.ts';
import { fetchMessages } from './fetch.ts';
import { sendMessage } from './send.ts';
import { editMessage } from './edit.ts';
import { deleteMessage } from './delete.ts';
import { addReaction, removeReaction } from './reactions.ts';
import { updateMessageFlags } from './update-flags.ts';
import { accessMessage } from './access.ts';
import { presentMessages } from './present.ts';
import { normalizeNarrow } from './narrow.ts';
import { messageHistory } from './history.ts';
import { readReceipts } from './read-receipts.ts';
import { messagesMatchingNarrow } from './matches-narrow.ts';
import { renderForRealm } from './render.ts';
import { addSubmessage } from './widgets.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';
// The area's part of register's initial state.
import './initial-state.ts';

/** What sending takes (postMessage, and sendMessage before it). */
const sendArgs = builder.args((t) => ({
  type: t.string({ required: true, description: '`channel` (or `stream`) or `direct` (or `private`).' }),
  to: t.field({ type: 'JSON', description: 'Channel name or ID (omitted: a bot\'s default sending channel); or a list of user IDs or emails.' }),
  topic: t.string({ description: 'Required for channel messages; "" is the empty topic.' }),
  content: t.string({ required: true, description: 'The Markdown content.' }),
  readBySender: t.boolean({ description: 'Whether the message arrives read for its sender (default: yes, as for a human typing it).' }),
  queueId: t.string({ description: 'The sender\'s own event queue (Zulip\'s `queue_id`): with `localId`, that queue\'s `message` event for this message carries `local_message_id`, for local echo.' }),
  localId: t.string({ description: 'A client-chosen ID for this message (Zulip\'s `local_id`), returned as `local_message_id` on the `queueId` queue\'s `message` event.' }),
}));

/** A reaction to a message, as the viewer adds or removes it. */
const reactionArgs = builder.args((t) => ({ messageId: t.int({ required: true }), reaction: t.field({ type: ReactionInput, required: true }) }));

builder.queryFields((t) => ({
  messages: t.field({
    type: MessageWindow,
    description: 'Messages in a narrow around an anchor, or the accessible subset of messageIds (Zulip\'s GET /messages).',
    args: {
      anchor: t.arg.string({ description: 'A message ID, or `newest`, `oldest`, `first_unread`, `date`.' }),
      anchorDate: t.arg.string({ description: 'With anchor `date`: an ISO 8601 date or time (UTC unless a zone is given).' }),
      includeAnchor: t.arg.boolean(),
      numBefore: t.arg.int(),
      numAfter: t.arg.int(),
      narrow: t.arg({ type: [NarrowTermInput], defaultValue: [] }),
      messageIds: t.arg.intList(),
      useFirstUnreadAnchor: t.arg.boolean({ description: 'Deprecated: use anchor `first_unread`. When true it wins over `anchor`, as in Zulip.' }),
      applyMarkdown: t.arg.boolean({ defaultValue: true }),
      clientGravatar: t.arg.boolean({ defaultValue: true }),
      allowEmptyTopicName: t.arg.boolean({ defaultValue: false }),
    },
    resolve: forUser((ctx, user, args) =>
      fetchMessages(ctx, user, {
        ...args,
        narrow: normalizeNarrow(args.narrow ?? []),
        applyMarkdown: args.applyMarkdown ?? true,
        clientGravatar: args.clientGravatar ?? true,
        allowEmptyTopicName: args.allowEmptyTopicName ?? false,
      })),
  }),
  message: t.field({
    type: MessageType,
    description: 'One message the viewer may read.',
    args: {
      messageId: t.arg.int({ required: true }),
      applyMarkdown: t.arg.boolean({ defaultValue: true }),
      allowEmptyTopicName: t.arg.boolean({ defaultValue: false }),
    },
    resolve: forUser(async (ctx, viewer, args) => {
      await accessMessage(ctx.db, viewer, args.messageId);
      const [view] = await presentMessages(ctx.db, ctx.realm, viewer, [args.messageId], {
        applyMarkdown: args.applyMarkdown ?? true, clientGravatar: false, gravatar: ctx.config.gravatarEnabled, allowEmptyTopicName: args.allowEmptyTopicName ?? false,
      });
      return view!;
    }),
  }),
}));

builder.queryFields((t) => ({
  messageHistory: t.field({
    type: [MessageSnapshotType],
    description: 'The message after each of its edits and moves, oldest (as sent) first, as far as the organization\'s edit-history visibility policy shows them (Zulip\'s GET /messages/{message_id}/history).',
    args: {
      messageId: t.arg.int({ required: true, description: 'A message the viewer may read.' }),
      allowEmptyTopicName: t.arg.boolean({ defaultValue: false, description: 'Return the empty topic as "" rather than its display name.' }),
    },
    resolve: forUser((ctx, user, args) => messageHistory(ctx, user, args.messageId, args.allowEmptyTopicName ?? false)),
  }),
  readReceipts: t.intList({
    description: 'Users who have read the message, among those who share read receipts; never its sender (Zulip\'s GET /messages/{message_id}/read_receipts).',
    args: { messageId: t.arg.int({ required: true, description: 'A message the viewer may read.' }) },
    resolve: forUser((ctx, user, args) => readReceipts(ctx, user, args.messageId)),
  }),
  messagesMatchingNarrow: t.field({
    type: [NarrowMatchType],
    description: 'Which of the given messages (among those the viewer received) match the narrow, with search highlighting (Zulip\'s GET /messages/matches_narrow).',
    args: {
      msgIds: t.arg.intList({ required: true, description: 'The messages to check.' }),
      narrow: t.arg({ type: [NarrowTermInput], required: true, description: 'The narrow.' }),
    },
    resolve: forUser((ctx, user, args) => messagesMatchingNarrow(ctx, user, args.msgIds, normalizeNarrow(args.narrow))),
  }),
  renderMessage: t.string({
    description: 'Renders Markdown as a message from the viewer would be rendered, without sending anything (Zulip\'s POST /messages/render).',
    args: { content: t.arg.string({ required: true, description: 'The Markdown.' }) },
    resolve: forUser(async (ctx, _user, args) => (await renderForRealm(ctx.db, ctx.realm.id, args.content)).html),
  }),
}));

builder.mutationFields((t) => ({
  postMessage: t.field({
    type: SentMessageType,
    description: 'Sends a channel or direct message (Zulip\'s POST /messages): its ID, and how sending changed the sender\'s visibility policy for the topic.',
    args: sendArgs,
    resolve: forUser((ctx, user, args) => sendMessage(ctx, user, { ...args, to: args.to as unknown })),
  }),
  sendMessage: t.int({
    description: 'Sends a channel or direct message and returns its ID.',
    deprecationReason: 'Use postMessage, which also tells how sending changed the sender\'s visibility policy for the topic.',
    args: sendArgs,
    resolve: forUser(async (ctx, user, args) => (await sendMessage(ctx, user, { ...args, to: args.to as unknown })).id),
  }),
  updateMessage: t.field({
    type: MessageEditResultType,
    description: 'Edits content and/or moves the message (and, by propagateMode, its topic) to another topic or channel.',
    args: {
      messageId: t.arg.int({ required: true }),
      content: t.arg.string(),
      topic: t.arg.string(),
      streamId: t.arg.int(),
      propagateMode: t.arg.string({ description: '`change_one` (default), `change_later` or `change_all`.' }),
      sendNotificationToOldThread: t.arg.boolean({ description: 'On a move, the notification bot tells the topic the messages left. Default false.' }),
      sendNotificationToNewThread: t.arg.boolean({ description: 'On a move, the notification bot tells the topic they moved to (never for only resolving a topic). Default true.' }),
      prevContentSha256: t.arg.string({ description: "SHA-256 (hex) of the content the client edited: the edit is refused if the message's content changed since." }),
    },
    resolve: forUser((ctx, user, args) => editMessage(ctx, user, args.messageId, args)),
  }),
  deleteMessage: t.boolean({
    description: 'Deletes a message: the sender within the time limit, or members of the delete-any-message groups.',
    args: { messageId: t.arg.int({ required: true }) },
    resolve: userAction((ctx, user, args) => deleteMessage(ctx, user, args.messageId)),
  }),
  addReaction: t.boolean({
    description: 'Adds the viewer\'s emoji reaction to a message.',
    args: reactionArgs,
    resolve: userAction((ctx, user, args) => addReaction(ctx, user, args.messageId, args.reaction)),
  }),
  removeReaction: t.boolean({
    description: 'Removes the viewer\'s emoji reaction from a message.',
    args: reactionArgs,
    resolve: userAction((ctx, user, args) => removeReaction(ctx, user, args.messageId, args.reaction)),
  }),
  updateMessageFlags: t.intList({
    description: 'Adds or removes a flag (read, starred, collapsed) on messages; returns the message IDs given.',
    args: {
      messages: t.arg.intList({ required: true }),
      op: t.arg.string({ required: true, description: '`add` or `remove`.' }),
      flag: t.arg.string({ required: true }),
    },
    resolve: forUser((ctx, user, args) => updateMessageFlags(ctx, user, args.messages, args.op, args.flag)),
  }),
  sendSubmessage: t.int({
    description: 'Attaches a submessage to a widget message: a vote, an option, a task, a strike or an edit (Zulip\'s POST /submessage). The message\'s sender attaches the first; only the author edits a poll\'s question or a to-do list\'s title. Returns the submessage ID.',
    args: {
      messageId: t.arg.int({ required: true, description: 'The widget message.' }),
      msgType: t.arg.string({ required: true, description: '`widget`.' }),
      content: t.arg.string({ required: true, description: 'JSON text: for polls `{type: "vote", key, vote: 1|-1}`, `{type: "new_option", idx, option}`, `{type: "question", question}`; for to-do lists `{type: "new_task", key, task, desc, completed}`, `{type: "strike", key}`, `{type: "new_task_list_title", title}`.' }),
    },
    resolve: forUser((ctx, user, args) => addSubmessage(ctx, user, args.messageId, args.msgType, args.content)),
  }),
}));
