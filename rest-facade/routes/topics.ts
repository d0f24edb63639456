// Topics: listing and deleting them, marking conversations read, topic visibility policies, and
// the narrow-based flag update.
import type { Route } from '../route.ts';
import { NARROW_PARAM } from './messages.ts';

const STREAM_ID = { stream_id: { arg: 'channelId' } };

export const topicRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me/{stream_id}/topics', field: 'channelTopics', params: STREAM_ID,
    shape: (topics: { maxId: number; name: string }[]) => ({ topics: topics.map((t) => ({ max_id: t.maxId, name: t.name })) }),
  },
  {
    method: 'POST', path: '/streams/{stream_id}/delete_topic', field: 'deleteTopic', params: STREAM_ID,
    shape: (complete) => ({ complete }),
  },
  { method: 'POST', path: '/mark_all_as_read', field: 'markAllAsRead', shape: () => ({ complete: true }) },
  { method: 'POST', path: '/mark_stream_as_read', field: 'markChannelAsRead', params: STREAM_ID },
  { method: 'POST', path: '/mark_topic_as_read', field: 'markTopicAsRead', params: STREAM_ID },
  {
    method: 'POST', path: '/messages/flags/narrow', field: 'updateMessageFlagsForNarrow',
    params: { anchor: { decode: 'stringOrInt' }, narrow: NARROW_PARAM },
    shape: (r) => ({
      processed_count: r.processedCount, updated_count: r.updatedCount,
      first_processed_id: r.firstProcessedId, last_processed_id: r.lastProcessedId,
      found_oldest: r.foundOldest, found_newest: r.foundNewest,
      ignored_because_not_subscribed_channels: [],
    }),
  },
  { method: 'POST', path: '/user_topics', field: 'setTopicVisibilityPolicy', params: STREAM_ID },
  {
    method: 'PATCH', path: '/users/me/subscriptions/muted_topics', field: 'updateMutedTopic',
    params: { stream_id: { arg: 'channelId' }, stream: { arg: 'channelName' } },
  },
];
