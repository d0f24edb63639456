// Channel administration: creation, settings updates, archiving, default channels, e-mail addresses.
import type { Route } from '../route.ts';
import { TOPICS_POLICY_PARAM } from './subscriptions.ts';

export const channelAdminRoutes: Route[] = [
  {
    method: 'PATCH', path: '/streams/{stream_id}', field: 'updateChannel',
    params: {
      stream_id: { arg: 'channelId' },
      message_retention_days: { decode: 'jsonOrString' },
      // A JSON integer, or null for no folder.
      folder_id: { decode: 'json' },
    },
  },
  { method: 'DELETE', path: '/streams/{stream_id}', field: 'archiveChannel', params: { stream_id: { arg: 'channelId' } } },
  { method: 'POST', path: '/default_streams', field: 'addDefaultChannel', params: { stream_id: { arg: 'channelId' } } },
  { method: 'DELETE', path: '/default_streams', field: 'removeDefaultChannel', params: { stream_id: { arg: 'channelId' } } },
  {
    method: 'POST', path: '/channels/create', field: 'createChannel',
    params: {
      message_retention_days: { decode: 'jsonOrString' },
      topics_policy: TOPICS_POLICY_PARAM,
    },
    shape: (id) => ({ id }),
  },
  {
    method: 'GET', path: '/streams/{stream_id}/email_address', field: 'channelEmailAddress',
    params: { stream_id: { arg: 'channelId' } },
    shape: (email) => ({ email }),
  },
];
