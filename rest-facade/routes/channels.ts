// Channels and subscriptions.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const CHANNEL_FIELDS = `streamId name description renderedDescription dateCreated creatorId inviteOnly isWebPublic historyPublicToSubscribers messageRetentionDays firstMessageId folderId topicsPolicy isArchived isRecentlyActive isAnnouncementOnly streamPostPolicy streamWeeklyTraffic canAddSubscribersGroup canRemoveSubscribersGroup canAdministerChannelGroup canDeleteAnyMessageGroup canDeleteOwnMessageGroup canMoveMessagesOutOfChannelGroup canMoveMessagesWithinChannelGroup canResolveTopicsGroup canSendMessageGroup canSubscribeGroup`;

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
];
