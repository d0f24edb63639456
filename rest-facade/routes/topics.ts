// Topics: listing and deleting them, marking conversations read, topic visibility policies, and
// the narrow-based flag update.
import type { Route } from '../route.ts';
import { normalizeNarrow } from '../../resolvers/messages/narrow.ts';

export const topicRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me/{stream_id}/topics',
    params: {
      stream_id: { type: 'int', in: 'path', required: true },
      allow_empty_topic_name: { type: 'bool', default: false },
    },
    document: `query($streamId: Int!, $allowEmptyTopicName: Boolean) { channelTopics(channelId: $streamId, allowEmptyTopicName: $allowEmptyTopicName) { maxId name } }`,
    shape: (d) => ({ topics: d.channelTopics.map((t: { maxId: number; name: string }) => ({ max_id: t.maxId, name: t.name })) }),
  },
  {
    method: 'POST', path: '/streams/{stream_id}/delete_topic',
    params: {
      stream_id: { type: 'int', in: 'path', required: true },
      topic_name: { type: 'string', required: true },
    },
    document: `mutation($streamId: Int!, $topicName: String!) { deleteTopic(channelId: $streamId, topicName: $topicName) }`,
    shape: (d) => ({ complete: d.deleteTopic }),
  },
  {
    method: 'POST', path: '/mark_all_as_read',
    params: {},
    document: `mutation { markAllAsRead }`,
    shape: () => ({ complete: true }),
  },
  {
    method: 'POST', path: '/mark_stream_as_read',
    params: { stream_id: { type: 'int', required: true } },
    document: `mutation($streamId: Int!) { markChannelAsRead(channelId: $streamId) }`,
    shape: () => ({}),
  },
  {
    method: 'POST', path: '/mark_topic_as_read',
    params: { stream_id: { type: 'int', required: true }, topic_name: { type: 'string', required: true } },
    document: `mutation($streamId: Int!, $topicName: String!) { markTopicAsRead(channelId: $streamId, topicName: $topicName) }`,
    shape: () => ({}),
  },
  {
    method: 'POST', path: '/messages/flags/narrow',
    params: {
      anchor: { type: 'stringOrInt', required: true },
      include_anchor: { type: 'bool', default: true },
      num_before: { type: 'int', required: true },
      num_after: { type: 'int', required: true },
      narrow: { type: 'json', default: [] },
      op: { type: 'string', required: true },
      flag: { type: 'string', required: true },
    },
    document: `mutation($anchor: String!, $includeAnchor: Boolean, $numBefore: Int!, $numAfter: Int!, $narrow: [NarrowTermInput!], $op: String!, $flag: String!) {
      updateMessageFlagsForNarrow(anchor: $anchor, includeAnchor: $includeAnchor, numBefore: $numBefore, numAfter: $numAfter, narrow: $narrow, op: $op, flag: $flag) {
        processedCount updatedCount firstProcessedId lastProcessedId foundOldest foundNewest } }`,
    variables: (p) => ({
      anchor: p.anchor, includeAnchor: p.include_anchor, numBefore: p.num_before, numAfter: p.num_after,
      narrow: normalizeNarrow(p.narrow), op: p.op, flag: p.flag,
    }),
    shape: (d) => {
      const r = d.updateMessageFlagsForNarrow;
      return {
        processed_count: r.processedCount, updated_count: r.updatedCount,
        first_processed_id: r.firstProcessedId, last_processed_id: r.lastProcessedId,
        found_oldest: r.foundOldest, found_newest: r.foundNewest,
        ignored_because_not_subscribed_channels: [],
      };
    },
  },
  {
    method: 'POST', path: '/user_topics',
    params: {
      stream_id: { type: 'int', required: true },
      topic: { type: 'string', required: true },
      visibility_policy: { type: 'int', required: true },
    },
    document: `mutation($streamId: Int!, $topic: String!, $visibilityPolicy: Int!) { setTopicVisibilityPolicy(channelId: $streamId, topic: $topic, visibilityPolicy: $visibilityPolicy) }`,
  },
];
