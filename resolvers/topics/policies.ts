// A user's visibility policy for a topic (UserTopic.visibilityPolicy, Zulip's
// UserTopic.VisibilityPolicy): the values the API, register, unread counts and narrows share.
export const TOPIC_POLICY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export const VISIBILITY_POLICIES: readonly number[] = Object.values(TOPIC_POLICY);
