// The viewer's own lists: topic preferences, saved snippets, navigation views, video-call
// authorization.
import { toUnixSeconds } from '../../time.ts';
import type { InitialState, Json } from './state.ts';
import { STATE_PREFIX } from '../../calls/provider.ts';
import { listSavedSnippets, savedSnippetWire } from '../../snippets/saved-snippets.ts';
import { listNavigationViews, navigationViewWire } from '../../views/navigation-views.ts';

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
      state.saved_snippets = viewer ? (await listSavedSnippets(s, viewer)).map(savedSnippetWire) : [];
    })());
  }

  if (s.want('navigation_views')) {
    jobs.push((async () => {
      state.navigation_views = viewer ? (await listNavigationViews(s, viewer)).map(navigationViewWire) : [];
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
