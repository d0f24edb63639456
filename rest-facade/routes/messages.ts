// Messages: sending, fetching, editing, reactions and flags.
import type { Route } from '../route.ts';
import { normalizeNarrow } from '../../resolvers/messages/narrow.ts';
import { toZulipMessage } from '../../resolvers/messages/wire.ts';

export const MESSAGE_FIELDS = `id senderId senderFullName senderEmail senderRealmStr avatarUrl client content contentType displayRecipient editHistory isMeMessage lastEditTimestamp lastMovedTimestamp reactions { emojiName emojiCode reactionType userId } recipientId streamId topic topicLinks submessages timestamp type flags matchContent matchSubject`;

export const messageRoutes: Route[] = [
  {
    method: 'POST', path: '/messages',
    params: {
      type: { type: 'string', required: true },
      to: { type: 'jsonOrString', required: true },
      topic: { type: 'string', aliases: ['subject'] },
      content: { type: 'string', required: true },
      queue_id: { type: 'string' },
      local_id: { type: 'string' },
      read_by_sender: { type: 'bool' },
    },
    document: `mutation($type: String!, $to: JSON!, $topic: String, $content: String!, $readBySender: Boolean) { sendMessage(type: $type, to: $to, topic: $topic, content: $content, readBySender: $readBySender) }`,
    variables: (p) => ({ type: p.type, to: p.to, topic: p.topic ?? null, content: p.content, readBySender: p.read_by_sender ?? null }),
    shape: (d) => ({ id: d.sendMessage }),
  },
  {
    method: 'GET', path: '/messages',
    params: {
      anchor: { type: 'stringOrInt' },
      anchor_date: { type: 'string' },
      include_anchor: { type: 'bool' },
      num_before: { type: 'int' },
      num_after: { type: 'int' },
      narrow: { type: 'json', default: [] },
      client_gravatar: { type: 'bool', default: true },
      apply_markdown: { type: 'bool', default: true },
      use_first_unread_anchor: { type: 'bool' },
      message_ids: { type: 'intList' },
      allow_empty_topic_name: { type: 'bool', default: false },
    },
    document: `query($anchor: String, $anchorDate: String, $includeAnchor: Boolean, $numBefore: Int, $numAfter: Int, $narrow: [NarrowTermInput!], $clientGravatar: Boolean, $applyMarkdown: Boolean, $useFirstUnreadAnchor: Boolean, $messageIds: [Int!], $allowEmptyTopicName: Boolean) {
      messages(anchor: $anchor, anchorDate: $anchorDate, includeAnchor: $includeAnchor, numBefore: $numBefore, numAfter: $numAfter, narrow: $narrow, clientGravatar: $clientGravatar, applyMarkdown: $applyMarkdown, useFirstUnreadAnchor: $useFirstUnreadAnchor, messageIds: $messageIds, allowEmptyTopicName: $allowEmptyTopicName) {
        anchor foundAnchor foundNewest foundOldest historyLimited messages { ${MESSAGE_FIELDS} } } }`,
    // Legacy clients send narrows as [operator, operand] pairs; GraphQL takes objects.
    variables: (p) => ({
      anchor: p.anchor ?? null, anchorDate: p.anchor_date ?? null, includeAnchor: p.include_anchor ?? null,
      numBefore: p.num_before ?? null, numAfter: p.num_after ?? null, narrow: normalizeNarrow(p.narrow),
      clientGravatar: p.client_gravatar, applyMarkdown: p.apply_markdown, useFirstUnreadAnchor: p.use_first_unread_anchor ?? null,
      messageIds: p.message_ids ?? null, allowEmptyTopicName: p.allow_empty_topic_name,
    }),
    shape: (d, p) => {
      const w = d.messages;
      const messages = w.messages.map(toZulipMessage);
      if (p.message_ids) return { messages, history_limited: w.historyLimited };
      return {
        anchor: w.anchor, found_anchor: w.foundAnchor, found_newest: w.foundNewest,
        found_oldest: w.foundOldest, history_limited: w.historyLimited, messages,
      };
    },
  },
  {
    method: 'GET', path: '/messages/{message_id}',
    params: {
      message_id: { type: 'int', in: 'path', required: true },
      apply_markdown: { type: 'bool', default: true },
      allow_empty_topic_name: { type: 'bool', default: false },
    },
    document: `query($messageId: Int!, $applyMarkdown: Boolean, $allowEmptyTopicName: Boolean) { message(messageId: $messageId, applyMarkdown: $applyMarkdown, allowEmptyTopicName: $allowEmptyTopicName) { ${MESSAGE_FIELDS} rawContent } }`,
    shape: (d) => {
      const { rawContent, ...message } = d.message;
      return { raw_content: rawContent, message: toZulipMessage(message) };
    },
  },
  {
    method: 'PATCH', path: '/messages/{message_id}',
    params: {
      message_id: { type: 'int', in: 'path', required: true },
      content: { type: 'string' },
      topic: { type: 'string', aliases: ['subject'] },
      stream_id: { type: 'int' },
      propagate_mode: { type: 'string', default: 'change_one' },
      send_notification_to_old_thread: { type: 'bool' },
      send_notification_to_new_thread: { type: 'bool' },
    },
    document: `mutation($messageId: Int!, $content: String, $topic: String, $streamId: Int, $propagateMode: String) { updateMessage(messageId: $messageId, content: $content, topic: $topic, streamId: $streamId, propagateMode: $propagateMode) }`,
    variables: (p) => ({ messageId: p.message_id, content: p.content ?? null, topic: p.topic ?? null, streamId: p.stream_id ?? null, propagateMode: p.propagate_mode }),
    shape: () => ({ detached_uploads: [] }),
  },
  {
    method: 'DELETE', path: '/messages/{message_id}',
    params: { message_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($messageId: Int!) { deleteMessage(messageId: $messageId) }`,
  },
  {
    method: 'POST', path: '/messages/{message_id}/reactions',
    params: {
      message_id: { type: 'int', in: 'path', required: true },
      emoji_name: { type: 'string', required: true },
      emoji_code: { type: 'string' },
      reaction_type: { type: 'string' },
    },
    document: `mutation($messageId: Int!, $reaction: ReactionInput!) { addReaction(messageId: $messageId, reaction: $reaction) }`,
    variables: (p) => ({ messageId: p.message_id, reaction: { emojiName: p.emoji_name, emojiCode: p.emoji_code ?? null, reactionType: p.reaction_type ?? null } }),
  },
  {
    method: 'DELETE', path: '/messages/{message_id}/reactions',
    params: {
      message_id: { type: 'int', in: 'path', required: true },
      emoji_name: { type: 'string' },
      emoji_code: { type: 'string' },
      reaction_type: { type: 'string' },
    },
    document: `mutation($messageId: Int!, $reaction: ReactionInput!) { removeReaction(messageId: $messageId, reaction: $reaction) }`,
    variables: (p) => ({ messageId: p.message_id, reaction: { emojiName: p.emoji_name ?? null, emojiCode: p.emoji_code ?? null, reactionType: p.reaction_type ?? null } }),
  },
  {
    method: 'POST', path: '/messages/flags',
    params: {
      messages: { type: 'intList', required: true },
      op: { type: 'string', required: true },
      flag: { type: 'string', required: true },
    },
    document: `mutation($messages: [Int!]!, $op: String!, $flag: String!) { updateMessageFlags(messages: $messages, op: $op, flag: $flag) }`,
    shape: (d) => ({ messages: d.updateMessageFlags, ignored_because_not_subscribed_channels: [] }),
  },
];
