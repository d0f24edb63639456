// Topic preference events: `user_topic`, and the deprecated `muted_topics` for older clients.
import { tailorEvents, topicForQueue } from '../events/kinds.ts';

export interface UserTopicEvent {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

export interface MutedTopicsEvent {
  type: 'muted_topics';
  /** `[channel name, topic, last updated]` triples. */
  muted_topics: [string, string, number][];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    user_topic: UserTopicEvent;
    muted_topics: MutedTopicsEvent;
  }
}

tailorEvents('user_topic', (event, queue) => [{ ...event, topic_name: topicForQueue(event.topic_name, queue) }]);

tailorEvents('muted_topics', (event, queue) => {
  // Zulip's ClientDescriptor.accepts_event: clients that asked for user_topic get only that.
  if (queue.options.eventTypes?.includes('user_topic')) return [];
  return [{ ...event, muted_topics: event.muted_topics.map(([channel, topic, ts]) => [channel, topicForQueue(topic, queue), ts]) }];
});
