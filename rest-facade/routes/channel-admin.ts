// Channel administration: settings updates and archiving.
import type { Route } from '../route.ts';

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
];
