// The initial data of POST /register: Zulip's `fetch_initial_state_data`. Each fetch type (event
// type) contributes its fields only when `fetchEventTypes` is null or names it; the version fields
// are always present. Every other field comes from the area that owns it, as a part (parts.ts) beside
// its actions and events; this module knows no area. The caller adds queue_id, last_event_id and
// idle_queue_timeout_secs.
//
// Fetch type → fields:
//   (always)                      zulip_version, zulip_feature_level, zulip_merge_base
//   realm                         realm_* settings and group settings, server_* settings, max_* limits,
//                                 typing and presence timings, server_report_message_types, …
//   realm_user                    realm_users, realm_non_active_users, cross_realm_bots, the viewer's own
//                                 account (user_id, email, avatar_*, is_*, can_*)
//   realm_user_groups             realm_user_groups
//   realm_user_settings_defaults  realm_user_settings_defaults
//   realm_billing                 realm_billing
//   realm_bot                     realm_bots
//   realm_domains / realm_emoji / realm_linkifiers / realm_filters / realm_playgrounds /
//   realm_embedded_bots / realm_incoming_webhook_bots / custom_profile_fields (+ custom_profile_field_types)
//   subscription                  subscriptions, unsubscribed, never_subscribed
//   stream                        streams
//   default_streams               realm_default_streams
//   default_stream_groups         realm_default_stream_groups
//   channel_folders               channel_folders
//   message                       max_message_id
//   message + update_message_flags  unread_msgs
//   recent_private_conversations / starred_messages / drafts / scheduled_messages / reminders
//   presence                      presences, server_timestamp, presence_last_update_id
//   user_settings                 user_settings
//   user_status                   user_status
//   user_topic                    user_topics
//   muted_topics                  muted_topics (deprecated; left out when user_topic is requested too)
//   saved_snippets / navigation_views / alert_words / muted_users / onboarding_steps (+ navigation_tour_video_url)
//   video_calls                   has_provider_token, has_zoom_token (deprecated)
//   has_provider_token            has_provider_token
//   stop_words / giphy (giphy_api_key)
import type { User } from '../../../prisma/generated/client/client.ts';
import type { Context } from '../../../schema/context.ts';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../../realm/version.ts';
import { InitialState, type InitialStateOptions } from './state.ts';
import { buildParts } from './parts.ts';

export type { InitialStateOptions } from './state.ts';

/**
 * Builds the register response's initial data for `user` (null: a spectator, i.e. unauthenticated
 * access to web-public channels) in the realm of `ctx`, keyed in Zulip's wire format.
 */
export async function buildInitialState(ctx: Context, user: User | null, options: InitialStateOptions): Promise<Record<string, unknown>> {
  const s = new InitialState(ctx, user, options);
  const parts = await Promise.all(buildParts(s));
  // The version fields are always sent, whatever the fetch types.
  const state: Record<string, unknown> = { zulip_version: ZULIP_VERSION, zulip_feature_level: ZULIP_FEATURE_LEVEL, zulip_merge_base: ZULIP_MERGE_BASE };
  for (const part of parts) {
    for (const key in part) {
      // Parts are merged in the order their modules load: a field two parts write would take
      // whichever loaded last. Each field has one owner; tests fail on a second.
      if (Object.hasOwn(state, key)) overlapping(key);
      state[key] = part[key];
    }
  }
  return state;
}

function overlapping(key: string): void {
  const message = `register's initial state: more than one part writes ${key}`;
  if (process.env.NODE_ENV === 'test') throw new Error(message);
  console.error(`[parley] ${message}`);
}
