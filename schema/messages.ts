import { builder } from './builder.ts';
import type { MessageView, ReactionView } from '../resolvers/messages/present.ts';
import type { FetchResult } from '../resolvers/messages/fetch.ts';

export const ReactionType = builder.objectRef<ReactionView>('Reaction').implement({
  description: 'An emoji reaction. `reactionType` is `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`; `emojiCode` is in that namespace.',
  fields: (t) => ({
    emojiName: t.exposeString('emojiName'),
    emojiCode: t.exposeString('emojiCode'),
    reactionType: t.exposeString('reactionType'),
    userId: t.exposeInt('userId'),
  }),
});

export const MessageType = builder.objectRef<MessageView>('Message').implement({
  description: 'A message as the viewer sees it (Zulip\'s message record).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    senderId: t.exposeInt('senderId'),
    senderFullName: t.exposeString('senderFullName'),
    senderEmail: t.exposeString('senderEmail'),
    senderRealmStr: t.exposeString('senderRealmStr'),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true, description: 'Null when the client computes gravatars (clientGravatar) and may see the sender\'s email.' }),
    client: t.exposeString('client', { description: 'The client that sent it.' }),
    content: t.exposeString('content', { description: 'HTML when applyMarkdown is true, otherwise the raw Markdown.' }),
    contentType: t.exposeString('contentType', { description: '`text/html` or `text/x-markdown`.' }),
    rawContent: t.exposeString('rawContent', { description: 'The Markdown source.' }),
    renderedContent: t.exposeString('renderedContent', { description: 'The rendered HTML.' }),
    displayRecipient: t.field({ type: 'JSON', description: 'The channel name, or the list of direct-message participants `{id, email, full_name, is_mirror_dummy}`.', resolve: (m) => m.displayRecipient }),
    editHistory: t.field({ type: 'JSON', nullable: true, description: 'Edits, most recent first; null when never edited or moved.', resolve: (m) => m.editHistory }),
    isMeMessage: t.exposeBoolean('isMeMessage', { description: 'A /me status message.' }),
    lastEditTimestamp: t.exposeInt('lastEditTimestamp', { nullable: true }),
    lastMovedTimestamp: t.exposeInt('lastMovedTimestamp', { nullable: true }),
    reactions: t.field({ type: [ReactionType], description: 'Oldest first.', resolve: (m) => m.reactions }),
    recipientId: t.exposeInt('recipientId'),
    streamId: t.exposeInt('streamId', { nullable: true, description: 'The channel, for channel messages.' }),
    topic: t.exposeString('topic', { description: 'The topic (Zulip\'s `subject`); the empty topic shows as the realm\'s display name unless allowEmptyTopicName.' }),
    topicLinks: t.field({ type: 'JSON', resolve: (m) => m.topicLinks }),
    submessages: t.field({ type: 'JSON', resolve: (m) => m.submessages }),
    timestamp: t.exposeInt('timestamp'),
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
    foundAnchor: t.exposeBoolean('foundAnchor'),
    foundNewest: t.exposeBoolean('foundNewest'),
    foundOldest: t.exposeBoolean('foundOldest'),
    historyLimited: t.exposeBoolean('historyLimited'),
    messages: t.field({ type: [MessageType], resolve: (w) => w.messages }),
  }),
});

export const NarrowTermInput = builder.inputType('NarrowTermInput', {
  description: 'One narrow filter: operator (channel, topic, dm, dm-including, sender, is, has, id, near, with, channels, search) and operand.',
  fields: (t) => ({
    operator: t.string({ required: true }),
    operand: t.field({ type: 'JSON', required: true, description: 'A string, an integer, or a list of user IDs for `dm`.' }),
    negated: t.boolean({ defaultValue: false }),
  }),
});

export const ReactionInput = builder.inputType('ReactionInput', {
  fields: (t) => ({
    emojiName: t.string(),
    emojiCode: t.string(),
    reactionType: t.string(),
  }),
});
