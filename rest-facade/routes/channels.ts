// Channels and subscriptions.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';
import { InvalidArgumentError } from '../../resolvers/errors.ts';

export const CHANNEL_FIELDS = `streamId name description renderedDescription dateCreated creatorId inviteOnly isWebPublic historyPublicToSubscribers messageRetentionDays firstMessageId folderId topicsPolicy isArchived isRecentlyActive isAnnouncementOnly streamPostPolicy streamWeeklyTraffic canAddSubscribersGroup canRemoveSubscribersGroup canAdministerChannelGroup canDeleteAnyMessageGroup canDeleteOwnMessageGroup canMoveMessagesOutOfChannelGroup canMoveMessagesWithinChannelGroup canResolveTopicsGroup canSendMessageGroup canSubscribeGroup`;

/** A subscription as Zulip lists it: the channel's fields and the user's settings side by side. */
function zulipSubscription(sub: Record<string, any>, includeSubscribers: boolean): Record<string, unknown> {
  const { channel, subscribers, ...settings } = sub;
  return { ...snakeKeys(channel), ...snakeKeys(settings), ...(includeSubscribers ? { subscribers } : {}) };
}

export const channelRoutes: Route[] = [
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
