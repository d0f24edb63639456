// The viewer's own lists: topic preferences, saved snippets, navigation views, video-call
// authorization.
import { toUnixSeconds } from '../../time.ts';
import type { InitialState, Json } from './state.ts';
import { STATE_PREFIX } from '../../calls/provider.ts';

const MUTED = 1;

export async function personalState(s: InitialState): Promise<Json> {
  const state: Json = {};
  const viewer = s.user;
  const jobs: Promise<void>[] = [];

  // Zulip sends the deprecated muted_topics only to clients that did not ask for user_topic.
  const wantMutedTopics = s.want('muted_topics') && (s.options.fetchEventTypes === null || !s.want('user_topic'));
  if (s.want('user_topic') || wantMutedTopics) {
    jobs.push((async () => {
      const rows = viewer
        ? await s.db.userTopic.findMany({
            where: {
              userId: viewer.id,
              visibilityPolicy: { not: 0 },
              ...(s.capability('archived_channels') ? {} : { channel: { isArchived: false } }),
            },
            include: { channel: { select: { name: true } } },
            orderBy: { id: 'asc' },
          })
        : [];
      if (s.want('user_topic')) {
        state.user_topics = rows.map((t) => ({
          stream_id: t.channelId,
          topic_name: s.topicName(t.topicName),
          last_updated: toUnixSeconds(t.lastUpdated),
          visibility_policy: t.visibilityPolicy,
        }));
      }
      if (wantMutedTopics) {
        state.muted_topics = rows
          .filter((t) => t.visibilityPolicy === MUTED)
          .map((t) => [t.channel.name, s.topicName(t.topicName), toUnixSeconds(t.lastUpdated)]);
      }
    })());
  }

  if (s.want('saved_snippets')) {
    jobs.push((async () => {
      const rows = viewer ? await s.db.savedSnippet.findMany({ where: { userId: viewer.id }, orderBy: { id: 'asc' } }) : [];
      state.saved_snippets = rows.map((r) => ({ id: r.id, title: r.title, content: r.content, date_created: toUnixSeconds(r.dateCreated) }));
    })());
  }

  if (s.want('navigation_views')) {
    jobs.push((async () => {
      const rows = viewer ? await s.db.navigationView.findMany({ where: { userId: viewer.id }, orderBy: { id: 'asc' } }) : [];
      // Built-in views have no name, and then the field is left out.
      state.navigation_views = rows.map((v) => ({ fragment: v.fragment, is_pinned: v.isPinned, ...(v.name != null ? { name: v.name } : {}) }));
    })());
  }

  if (s.want('video_calls') || s.want('has_provider_token')) {
    jobs.push((async () => {
      const rows = viewer ? await s.db.videoProviderToken.findMany({ where: { userId: viewer.id }, select: { provider: true } }) : [];
      // Rows under this prefix are OAuth flows in progress, not tokens.
      const tokens = rows.filter((t) => !t.provider.startsWith(STATE_PREFIX));
      state.has_provider_token = tokens.length > 0;
      // The older name, specific to Zoom.
      if (s.want('video_calls')) state.has_zoom_token = tokens.some((t) => t.provider === 'zoom');
    })());
  }

  await Promise.all(jobs);
  return state;
}
