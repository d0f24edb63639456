// Channels: the directory and channel lookup.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const CHANNEL_FIELDS = `streamId name description renderedDescription dateCreated creatorId inviteOnly isWebPublic historyPublicToSubscribers messageRetentionDays firstMessageId folderId topicsPolicy isArchived isRecentlyActive isAnnouncementOnly streamPostPolicy streamWeeklyTraffic canAddSubscribersGroup canRemoveSubscribersGroup canAdministerChannelGroup canDeleteAnyMessageGroup canDeleteOwnMessageGroup canMoveMessagesOutOfChannelGroup canMoveMessagesWithinChannelGroup canResolveTopicsGroup canSendMessageGroup canSubscribeGroup`;

export const channelRoutes: Route[] = [
  {
    method: 'GET', path: '/streams', field: 'channels',
    // include_all_active is the deprecated spelling of include_all.
    params: { include_all: { aliases: ['include_all_active'] } },
    select: CHANNEL_FIELDS,
    shape: (channels) => ({ streams: snakeKeys(channels) }),
  },
  {
    method: 'GET', path: '/streams/{stream_id}', field: 'channel',
    params: { stream_id: { arg: 'channelId' } },
    select: CHANNEL_FIELDS,
    shape: (channel) => ({ stream: snakeKeys(channel) }),
  },
  {
    method: 'GET', path: '/get_stream_id', field: 'channelIdByName',
    params: { stream: { arg: 'name' } },
    shape: (id) => ({ stream_id: id }),
  },
];
