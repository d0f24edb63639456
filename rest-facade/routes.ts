// The route table: every /api/v1 endpoint as method + path + parameters + the GraphQL operation it
// runs + how Zulip shapes the result. No rules live here: only decoding and shaping.
import type { Route } from './route.ts';
import { snakeKeys } from './route.ts';
import { normalizeNarrow } from '../resolvers/messages/narrow.ts';
import { toZulipMessage } from '../resolvers/messages/wire.ts';
import { InvalidArgumentError } from '../resolvers/errors.ts';

const CHANNEL_FIELDS = `streamId name description renderedDescription dateCreated creatorId inviteOnly isWebPublic historyPublicToSubscribers messageRetentionDays firstMessageId folderId topicsPolicy isArchived isRecentlyActive isAnnouncementOnly streamPostPolicy streamWeeklyTraffic canAddSubscribersGroup canRemoveSubscribersGroup canAdministerChannelGroup canDeleteAnyMessageGroup canDeleteOwnMessageGroup canMoveMessagesOutOfChannelGroup canMoveMessagesWithinChannelGroup canResolveTopicsGroup canSendMessageGroup canSubscribeGroup`;

const MESSAGE_FIELDS = `id senderId senderFullName senderEmail senderRealmStr avatarUrl client content contentType displayRecipient editHistory isMeMessage lastEditTimestamp lastMovedTimestamp reactions { emojiName emojiCode reactionType userId } recipientId streamId topic topicLinks submessages timestamp type flags matchContent matchSubject`;

/** A subscription as Zulip lists it: the channel's fields and the user's settings side by side. */
function zulipSubscription(sub: Record<string, any>, includeSubscribers: boolean): Record<string, unknown> {
  const { channel, subscribers, ...settings } = sub;
  return { ...snakeKeys(channel), ...snakeKeys(settings), ...(includeSubscribers ? { subscribers } : {}) };
}

const USER_FIELDS = `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot botType botOwnerId role timezone avatarUrl(clientGravatar: $clientGravatar) avatarVersion`;

export const routes: Route[] = [
  // --- Server and authentication ---
  {
    method: 'GET', path: '/server_settings', public: true, params: {},
    document: `query { serverSettings { zulipVersion zulipMergeBase zulipFeatureLevel pushNotificationsEnabled isIncompatible emailAuthEnabled requireEmailFormatUsernames realmUrl realmName realmIcon realmDescription realmWebPublicAccessEnabled authenticationMethods { password dev email ldap remoteuser github azuread gitlab apple google saml openidConnect } } }`,
    shape: (d) => {
      const { authenticationMethods, ...rest } = d.serverSettings;
      const { openidConnect, ...methods } = authenticationMethods;
      return {
        ...snakeKeys(rest),
        realm_uri: rest.realmUrl,
        authentication_methods: { ...methods, 'openid connect': openidConnect },
        external_authentication_methods: [],
      };
    },
  },
  {
    method: 'POST', path: '/fetch_api_key', public: true,
    params: { username: { type: 'string', required: true }, password: { type: 'string', required: true } },
    document: `mutation($username: String!, $password: String!) { fetchApiKey(username: $username, password: $password) { apiKey email userId } }`,
    shape: (d) => snakeKeys(d.fetchApiKey),
  },
  {
    method: 'POST', path: '/dev_fetch_api_key', public: true,
    params: { username: { type: 'string', required: true } },
    document: `mutation($username: String!) { devFetchApiKey(username: $username) { apiKey email userId } }`,
    shape: (d) => snakeKeys(d.devFetchApiKey),
  },

  // --- Users ---
  {
    method: 'GET', path: '/users/me', params: {},
    document: `query($clientGravatar: Boolean = false) { me { userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot role timezone avatarUrl(clientGravatar: $clientGravatar) avatarVersion profileData } maxMessageId }`,
    shape: (d) => ({ ...snakeKeys(d.me), max_message_id: d.maxMessageId }),
  },
  {
    method: 'GET', path: '/users',
    params: { client_gravatar: { type: 'bool', default: true }, include_custom_profile_fields: { type: 'bool', default: false } },
    document: `query($clientGravatar: Boolean!, $includeCustomProfileFields: Boolean!) { users { ${USER_FIELDS} profileData @include(if: $includeCustomProfileFields) } }`,
    shape: (d) => ({ members: snakeKeys(d.users) }),
  },
  {
    method: 'GET', path: '/users/{user_id}',
    params: {
      user_id: { type: 'int', in: 'path', required: true },
      client_gravatar: { type: 'bool', default: true },
      include_custom_profile_fields: { type: 'bool', default: false },
    },
    document: `query($userId: Int!, $clientGravatar: Boolean!, $includeCustomProfileFields: Boolean!) { user(userId: $userId) { ${USER_FIELDS} profileData @include(if: $includeCustomProfileFields) } }`,
    shape: (d) => ({ user: snakeKeys(d.user) }),
  },
  {
    method: 'GET', path: '/users/{email}',
    params: {
      email: { type: 'string', in: 'path', required: true },
      client_gravatar: { type: 'bool', default: true },
      include_custom_profile_fields: { type: 'bool', default: false },
    },
    document: `query($email: String!, $clientGravatar: Boolean!, $includeCustomProfileFields: Boolean!) { userByEmail(email: $email) { ${USER_FIELDS} profileData @include(if: $includeCustomProfileFields) } }`,
    shape: (d) => ({ user: snakeKeys(d.userByEmail) }),
  },
  {
    method: 'POST', path: '/users',
    params: {
      email: { type: 'string', required: true },
      password: { type: 'string', required: true },
      full_name: { type: 'string', required: true },
    },
    document: `mutation($email: String!, $password: String!, $fullName: String!) { createUser(email: $email, password: $password, fullName: $fullName) }`,
    shape: (d) => ({ user_id: d.createUser }),
  },

  // --- Channels ---
  {
    method: 'GET', path: '/streams',
    params: {
      include_public: { type: 'bool', default: true },
      include_web_public: { type: 'bool', default: false },
      include_subscribed: { type: 'bool', default: true },
      exclude_archived: { type: 'bool', default: true },
      include_all_active: { type: 'bool', default: false },
      include_all: { type: 'bool', default: false },
      include_default: { type: 'bool', default: false },
      include_owner_subscribed: { type: 'bool', default: false },
      include_can_access_content: { type: 'bool', default: false },
    },
    document: `query($includePublic: Boolean, $includeWebPublic: Boolean, $includeSubscribed: Boolean, $excludeArchived: Boolean, $includeAll: Boolean, $includeDefault: Boolean, $includeCanAccessContent: Boolean) {
      channels(includePublic: $includePublic, includeWebPublic: $includeWebPublic, includeSubscribed: $includeSubscribed, excludeArchived: $excludeArchived, includeAll: $includeAll, includeDefault: $includeDefault, includeCanAccessContent: $includeCanAccessContent) { ${CHANNEL_FIELDS} } }`,
    // include_all_active is the deprecated spelling of include_all.
    variables: (p) => ({
      includePublic: p.include_public, includeWebPublic: p.include_web_public, includeSubscribed: p.include_subscribed,
      excludeArchived: p.exclude_archived, includeAll: p.include_all || p.include_all_active, includeDefault: p.include_default,
      includeCanAccessContent: p.include_can_access_content,
    }),
    shape: (d) => ({ streams: snakeKeys(d.channels) }),
  },
  {
    method: 'GET', path: '/streams/{stream_id}',
    params: { stream_id: { type: 'int', in: 'path', required: true } },
    document: `query($streamId: Int!) { channel(channelId: $streamId) { ${CHANNEL_FIELDS} } }`,
    shape: (d) => ({ stream: snakeKeys(d.channel) }),
  },
  {
    method: 'GET', path: '/get_stream_id',
    params: { stream: { type: 'string', required: true } },
    document: `query($stream: String!) { channelIdByName(name: $stream) }`,
    shape: (d) => ({ stream_id: d.channelIdByName }),
  },
  {
    method: 'GET', path: '/users/me/subscriptions',
    params: { include_subscribers: { type: 'string', default: 'false' } },
    document: `query($withSubscribers: Boolean!) { subscriptions { channel { ${CHANNEL_FIELDS} } color isMuted inHomeView pinToTop desktopNotifications audibleNotifications pushNotifications emailNotifications wildcardMentionsNotify subscribers @include(if: $withSubscribers) } }`,
    variables: (p) => ({ withSubscribers: p.include_subscribers === 'true' || p.include_subscribers === 'partial' }),
    shape: (d, p) => ({
      subscriptions: d.subscriptions.map((s: Record<string, any>) => zulipSubscription(s, p.include_subscribers !== 'false')),
    }),
  },
  {
    method: 'POST', path: '/users/me/subscriptions',
    params: {
      subscriptions: { type: 'json', required: true },
      principals: { type: 'intOrStringList' },
      authorization_errors_fatal: { type: 'bool', default: true },
      invite_only: { type: 'bool', default: false },
      history_public_to_subscribers: { type: 'bool' },
      is_default_stream: { type: 'bool', default: false },
    },
    document: `mutation($subscriptions: [SubscriptionSpec!]!, $principals: JSON, $authorizationErrorsFatal: Boolean, $inviteOnly: Boolean, $historyPublicToSubscribers: Boolean, $isDefaultStream: Boolean) {
      subscribe(subscriptions: $subscriptions, principals: $principals, authorizationErrorsFatal: $authorizationErrorsFatal, inviteOnly: $inviteOnly, historyPublicToSubscribers: $historyPublicToSubscribers, isDefaultStream: $isDefaultStream) { subscribed alreadySubscribed unauthorized } }`,
    variables: (p) => ({
      subscriptions: subscriptionSpecs(p.subscriptions),
      principals: p.principals ?? null,
      authorizationErrorsFatal: p.authorization_errors_fatal,
      inviteOnly: p.invite_only,
      historyPublicToSubscribers: p.history_public_to_subscribers ?? null,
      isDefaultStream: p.is_default_stream,
    }),
    shape: (d, p) => ({
      subscribed: d.subscribe.subscribed,
      already_subscribed: d.subscribe.alreadySubscribed,
      ...(p.authorization_errors_fatal === false ? { unauthorized: d.subscribe.unauthorized } : {}),
    }),
  },

  // --- Messages ---
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

  // --- Events ---
  {
    method: 'POST', path: '/register', public: true,
    params: {
      apply_markdown: { type: 'bool' },
      client_gravatar: { type: 'bool', aliases: ['client_extavatar'] },
      include_subscribers: { type: 'string' },
      slim_presence: { type: 'bool' },
      presence_history_limit_days: { type: 'int' },
      event_types: { type: 'stringList' },
      fetch_event_types: { type: 'stringList' },
      all_public_streams: { type: 'bool' },
      narrow: { type: 'json' },
      client_capabilities: { type: 'json' },
      idle_queue_timeout: { type: 'int' },
    },
    document: `mutation($applyMarkdown: Boolean, $clientGravatar: Boolean, $includeSubscribers: String, $slimPresence: Boolean, $presenceHistoryLimitDays: Int, $eventTypes: [String!], $fetchEventTypes: [String!], $allPublicStreams: Boolean, $narrow: JSON, $clientCapabilities: JSON, $idleQueueTimeout: Int) {
      registerEventQueue(applyMarkdown: $applyMarkdown, clientGravatar: $clientGravatar, includeSubscribers: $includeSubscribers, slimPresence: $slimPresence, presenceHistoryLimitDays: $presenceHistoryLimitDays, eventTypes: $eventTypes, fetchEventTypes: $fetchEventTypes, allPublicStreams: $allPublicStreams, narrow: $narrow, clientCapabilities: $clientCapabilities, idleQueueTimeout: $idleQueueTimeout) { queueId lastEventId idleQueueTimeoutSecs state } }`,
    // include_subscribers arrives as a JSON boolean or the string "partial".
    variables: (p) => ({
      applyMarkdown: p.apply_markdown ?? null, clientGravatar: p.client_gravatar ?? null,
      includeSubscribers: p.include_subscribers == null ? null : String(p.include_subscribers).replace(/^"|"$/g, ''),
      slimPresence: p.slim_presence ?? null, presenceHistoryLimitDays: p.presence_history_limit_days ?? null,
      eventTypes: p.event_types ?? null, fetchEventTypes: p.fetch_event_types ?? null, allPublicStreams: p.all_public_streams ?? null,
      narrow: p.narrow ?? null, clientCapabilities: p.client_capabilities ?? null, idleQueueTimeout: p.idle_queue_timeout ?? null,
    }),
    shape: (d) => {
      const r = d.registerEventQueue;
      return { queue_id: r.queueId, last_event_id: r.lastEventId, idle_queue_timeout_secs: r.idleQueueTimeoutSecs, ...r.state };
    },
  },
  {
    method: 'GET', path: '/events', public: true,
    params: {
      queue_id: { type: 'string', required: true },
      last_event_id: { type: 'int' },
      dont_block: { type: 'bool', default: false },
    },
    document: `query($queueId: String!, $lastEventId: Int, $dontBlock: Boolean) { events(queueId: $queueId, lastEventId: $lastEventId, dontBlock: $dontBlock) }`,
    shape: (d, p) => ({ events: d.events, queue_id: p.queue_id }),
  },
  {
    method: 'DELETE', path: '/events', public: true,
    params: { queue_id: { type: 'string', required: true } },
    document: `mutation($queueId: String!) { deleteEventQueue(queueId: $queueId) }`,
  },
  {
    method: 'POST', path: '/typing',
    params: {
      type: { type: 'string', default: 'direct' },
      op: { type: 'string', required: true },
      to: { type: 'intList' },
      stream_id: { type: 'int' },
      topic: { type: 'string' },
    },
    document: `mutation($type: String, $op: String!, $to: [Int!], $streamId: Int, $topic: String) { setTypingStatus(type: $type, op: $op, to: $to, streamId: $streamId, topic: $topic) }`,
    variables: (p) => ({ type: p.type, op: p.op, to: p.to ?? null, streamId: p.stream_id ?? null, topic: p.topic ?? null }),
  },
];

/** `subscriptions` items: `{name, description?}` objects (older clients may send bare names). */
function subscriptionSpecs(raw: unknown): { name: string; description: string | null }[] {
  if (!Array.isArray(raw)) throw new InvalidArgumentError('subscriptions', 'subscriptions is not a list');
  return raw.map((item, i) => {
    if (typeof item === 'string') return { name: item, description: null };
    if (item && typeof item === 'object' && typeof (item as any).name === 'string') {
      const description = (item as any).description;
      if (description != null && typeof description !== 'string') throw new InvalidArgumentError('subscriptions', `subscriptions[${i}]["description"] is not a string`);
      return { name: (item as any).name, description: description ?? null };
    }
    throw new InvalidArgumentError('subscriptions', `subscriptions[${i}] is not a dict`);
  });
}
