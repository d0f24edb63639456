import type { EditResult } from '../resolvers/messages/edit.ts';
import type { SentMessage } from '../resolvers/messages/send.ts';
import { AttachmentType } from './uploads.ts';
import { builder } from './builder.ts';
import type { MessageView, ReactionView } from '../resolvers/messages/present.ts';
import type { FetchResult } from '../resolvers/messages/fetch.ts';
import type { MessageSnapshot } from '../resolvers/messages/history.ts';
import type { SubmessageRecord } from '../resolvers/messages/widgets.ts';
import type { NarrowMatch } from '../resolvers/messages/matches-narrow.ts';

export const ReactionType = builder.objectRef<ReactionView>('Reaction').implement({
  description: 'An emoji reaction. `reactionType` is `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`; `emojiCode` is in that namespace.',
  fields: (t) => ({
    emojiName: t.exposeString('emojiName', { description: 'The emoji’s name.' }),
    emojiCode: t.exposeString('emojiCode', { description: 'The emoji’s code in the namespace of reactionType.' }),
    reactionType: t.exposeString('reactionType', { description: '`unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`.' }),
    userId: t.exposeInt('userId', { description: 'The user who reacted.' }),
  }),
});

export const SubmessageType = builder.objectRef<SubmessageRecord>('Submessage').implement({
  description: 'A piece of a widget\'s state attached to a message (Zulip\'s submessage): the widget\'s definition (the first, from the message\'s sender), then votes, options, tasks and edits.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The submessage ID; clients replay submessages in ID order.' }),
    messageId: t.int({ description: 'The message it belongs to.', resolve: (s) => s.message_id }),
    senderId: t.int({ description: 'Who sent it.', resolve: (s) => s.sender_id }),
    msgType: t.string({ description: '`widget` for widgets (the only kind Zulip\'s clients use).', resolve: (s) => s.msg_type }),
    content: t.exposeString('content', { description: 'JSON text: `{widget_type, extra_data}` for the definition, else the widget\'s own event (`{type: "vote", key, vote}`, ...).' }),
  }),
});

export const MessageType = builder.objectRef<MessageView>('Message').implement({
  description: 'A message as the viewer sees it (Zulip\'s message record).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The message ID; messages are ordered by it.' }),
    senderId: t.exposeInt('senderId', { description: 'The sender’s user ID.' }),
    senderFullName: t.exposeString('senderFullName', { description: 'The sender’s name.' }),
    senderEmail: t.exposeString('senderEmail', { description: 'The sender’s API email.' }),
    senderRealmStr: t.exposeString('senderRealmStr', { description: 'The sender’s organization subdomain.' }),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true, description: 'Null when the client computes gravatars (clientGravatar) and may see the sender\'s email.' }),
    client: t.exposeString('client', { description: 'The client that sent it.' }),
    content: t.exposeString('content', { description: 'HTML when applyMarkdown is true, otherwise the raw Markdown.' }),
    contentType: t.exposeString('contentType', { description: '`text/html` or `text/x-markdown`.' }),
    rawContent: t.exposeString('rawContent', { description: 'The Markdown source.' }),
    renderedContent: t.exposeString('renderedContent', { description: 'The rendered HTML.' }),
    displayRecipient: t.field({ type: 'JSON', description: 'The channel name, or the list of direct-message participants `{id, email, full_name, is_mirror_dummy}`.', resolve: (m) => m.displayRecipient }),
    editHistory: t.field({ type: 'JSON', nullable: true, description: 'Edits, most recent first; null when never edited or moved.', resolve: (m) => m.editHistory }),
    isMeMessage: t.exposeBoolean('isMeMessage', { description: 'A /me status message.' }),
    lastEditTimestamp: t.exposeInt('lastEditTimestamp', { description: 'Last content edit; null if never edited.', nullable: true }),
    lastMovedTimestamp: t.exposeInt('lastMovedTimestamp', { description: 'Last move to another topic or channel (resolving excluded); null if never moved.', nullable: true }),
    reactions: t.field({ type: [ReactionType], description: 'Oldest first.', resolve: (m) => m.reactions }),
    recipientId: t.exposeInt('recipientId', { description: 'A stable ID of the conversation (channel or direct).' }),
    streamId: t.exposeInt('streamId', { nullable: true, description: 'The channel, for channel messages.' }),
    topic: t.exposeString('topic', { description: 'The topic (Zulip\'s `subject`); the empty topic shows as the realm\'s display name unless allowEmptyTopicName.' }),
    topicLinks: t.field({ type: 'JSON', description: 'Links produced by linkifiers in the topic: `{text, url}`.', resolve: (m) => m.topicLinks }),
    submessages: t.field({ type: [SubmessageType], description: 'Widget state (polls, to-do lists), oldest first: the widget\'s definition, then every participant\'s submessage.', resolve: (m) => m.submessages }),
    timestamp: t.exposeInt('timestamp', { description: 'UNIX time it was sent.' }),
    type: t.exposeString('type', { description: '`stream` or `private`.' }),
    flags: t.exposeStringList('flags', { description: 'The viewer\'s flags: read, starred, mentioned, ...' }),
    matchContent: t.exposeString('matchContent', { nullable: true, description: 'With a search narrow: the content with matches highlighted.' }),
    matchSubject: t.exposeString('matchSubject', { nullable: true, description: 'With a search narrow: the topic with matches highlighted.' }),
  }),
});

export const MessageWindow = builder.objectRef<FetchResult>('MessageWindow').implement({
  description: 'A window of messages from a narrow, with Zulip\'s pagination flags.',
  fields: (t) => ({
    anchor: t.exposeFloat('anchor', { nullable: true, description: 'The anchor message ID used (an integer; 10^16 stands for "newest"); null when messageIds was given.' }),
    foundAnchor: t.exposeBoolean('foundAnchor', { description: 'Whether the anchor message is in the result.' }),
    foundNewest: t.exposeBoolean('foundNewest', { description: 'Whether the newest matching messages are included.' }),
    foundOldest: t.exposeBoolean('foundOldest', { description: 'Whether the oldest matching messages are included.' }),
    historyLimited: t.exposeBoolean('historyLimited', { description: 'Whether plan limits hid older history (never, on Parley).' }),
    messages: t.field({ type: [MessageType], description: 'The messages, oldest first.', resolve: (w) => w.messages }),
  }),
});

export const NarrowTermInput = builder.inputType('NarrowTermInput', {
  description: 'One narrow filter: operator (channel, topic, dm, dm-including, sender, is, has, id, near, with, channels, search) and operand.',
  fields: (t) => ({
    operator: t.string({ required: true, description: 'The operator; legacy names (stream, subject, pm-with) are accepted.' }),
    operand: t.field({ type: 'JSON', required: true, description: 'A string, an integer, or a list of user IDs for `dm`.' }),
    negated: t.boolean({ defaultValue: false, description: 'Exclude matching messages instead.' }),
  }),
});

export const ReactionInput = builder.inputType('ReactionInput', {
  description: 'An emoji, by name (the server finds its code and type) or by code and type.',
  fields: (t) => ({
    emojiName: t.string({ description: 'The emoji name, e.g. `octopus`.' }),
    emojiCode: t.string({ description: 'The code in the namespace of reactionType (unicode: dash-separated hex code points; realm: the custom emoji ID).' }),
    reactionType: t.string({ description: '`unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`.' }),
  }),
});

export const MessageSnapshotType = builder.objectRef<MessageSnapshot>('MessageSnapshot').implement({
  description: 'A message as it was after one edit (the first, as sent), from its edit history. The `prev*` fields say what that edit changed.',
  fields: (t) => ({
    userId: t.int({ nullable: true, description: 'Who made the edit (the sender, for the first snapshot); null only for edits from before March 2017.', resolve: (s) => s.user_id }),
    timestamp: t.exposeInt('timestamp', { description: 'UNIX time of the edit (of sending, for the first snapshot).' }),
    topic: t.exposeString('topic', { description: 'The topic after the edit ("" for direct messages).' }),
    content: t.exposeString('content', { description: 'The Markdown content after the edit.' }),
    renderedContent: t.string({ description: 'The rendered HTML after the edit.', resolve: (s) => s.rendered_content }),
    prevTopic: t.string({ nullable: true, description: 'The topic before the edit, if the edit changed it.', resolve: (s) => s.prev_topic ?? null }),
    prevContent: t.string({ nullable: true, description: 'The Markdown content before the edit, if the edit changed it.', resolve: (s) => s.prev_content ?? null }),
    prevRenderedContent: t.string({ nullable: true, description: 'The rendered HTML before the edit, if the edit changed the content.', resolve: (s) => s.prev_rendered_content ?? null }),
    contentHtmlDiff: t.string({ nullable: true, description: 'The rendered content with changed words marked (`highlight_text_inserted`, `highlight_text_deleted`), if the edit changed the content.', resolve: (s) => s.content_html_diff ?? null }),
    prevStream: t.int({ nullable: true, description: 'The channel before the edit, if the edit moved the message to another channel.', resolve: (s) => s.prev_stream ?? null }),
    stream: t.int({ nullable: true, description: 'The channel after the edit, if the edit moved the message to another channel.', resolve: (s) => s.stream ?? null }),
  }),
});

export const NarrowMatchType = builder.objectRef<NarrowMatch>('NarrowMatch').implement({
  description: 'A message that matches a narrow, with the search highlighting the messages query gives it.',
  fields: (t) => ({
    messageId: t.exposeInt('messageId', { description: 'The message.' }),
    matchContent: t.exposeString('matchContent', { description: 'The rendered content; with a search narrow, matches wrapped in `<span class="highlight">`.' }),
    matchSubject: t.exposeString('matchSubject', { description: 'The HTML-escaped topic; with a search narrow, matches wrapped in `<span class="highlight">`.' }),
  }),
});

export const MessageEditResultType = builder.objectRef<EditResult>('MessageEditResult').implement({
  description: 'What an edit left behind.',
  fields: (t) => ({
    detachedUploads: t.field({
      type: [AttachmentType],
      description: "The editor's uploads that no message links any more since this edit (delete them with deleteAttachment, or link them again).",
      resolve: (r) => r.detachedUploads,
    }),
  }),
});

export const SentMessageType = builder.objectRef<SentMessage>('SentMessage').implement({
  description: 'A message just sent.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The new message\'s ID.' }),
    automaticNewVisibilityPolicy: t.int({
      nullable: true,
      description: 'The sender\'s new visibility policy for the topic (2 unmuted, 3 followed) where sending changed it, as their automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy settings say; null otherwise. The change also arrives as a user_topic event.',
      resolve: (m) => m.automaticNewVisibilityPolicy,
    }),
  }),
});
