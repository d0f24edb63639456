// Bots: Zulip's /bots endpoints (the web app's; zulip.yaml does not describe them).
import type { Route } from '../route.ts';

const BOT_SELECTION = 'userId email fullName apiKey avatarUrl defaultSendingStream defaultEventsRegisterStream defaultAllPublicStreams ownerEmail';
/** Zulip's payload URLs are JSON-encoded strings (check_url); a bare URL is taken as is. */
const url = { decode: 'jsonOrString' as const, convert: (v: unknown) => (typeof v === 'string' ? v : String(v)) };

export const botRoutes: Route[] = [
  {
    method: 'GET', path: '/bots', field: 'ownBots', select: BOT_SELECTION,
    shape: (bots: Record<string, unknown>[]) => ({
      bots: bots.map((b) => ({
        username: b.email, user_id: b.userId, full_name: b.fullName, api_key: b.apiKey, avatar_url: b.avatarUrl,
        default_sending_stream: b.defaultSendingStream, default_events_register_stream: b.defaultEventsRegisterStream,
        default_all_public_streams: b.defaultAllPublicStreams,
      })),
    }),
  },
  {
    method: 'POST', path: '/bots', field: 'createBot', select: BOT_SELECTION, params: { payload_url: url, files: { decode: 'file' } },
    shape: (b) => ({
      user_id: b.userId, api_key: b.apiKey, avatar_url: b.avatarUrl, default_sending_stream: b.defaultSendingStream,
      default_events_register_stream: b.defaultEventsRegisterStream, default_all_public_streams: b.defaultAllPublicStreams,
    }),
  },
  {
    method: 'PATCH', path: '/bots/{bot_id}', field: 'updateBot', select: BOT_SELECTION, params: { service_payload_url: url, files: { decode: 'file' } },
    // Zulip echoes the service fields of the request.
    shape: (b, params) => ({
      full_name: b.fullName, avatar_url: b.avatarUrl,
      service_interface: params.service_interface ?? 1, service_payload_url: params.service_payload_url ?? null,
      config_data: params.config_data ?? null,
      default_sending_stream: b.defaultSendingStream, default_events_register_stream: b.defaultEventsRegisterStream,
      default_all_public_streams: b.defaultAllPublicStreams,
      ...(b.ownerEmail ? { bot_owner: b.ownerEmail } : {}),
    }),
  },
  { method: 'DELETE', path: '/bots/{bot_id}', field: 'deactivateBot' },
  { method: 'PUT', path: '/bot_storage', field: 'updateBotStorage', params: { storage: { decode: 'json' } } },
  { method: 'GET', path: '/bot_storage', field: 'botStorage', shape: (storage) => ({ storage }) },
  { method: 'DELETE', path: '/bot_storage', field: 'removeBotStorage' },
  { method: 'POST', path: '/bots/{bot_id}/api_key/regenerate', field: 'regenerateBotApiKey', shape: (apiKey) => ({ api_key: apiKey }) },
];
