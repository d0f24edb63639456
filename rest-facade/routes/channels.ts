// Channels: the directory and channel lookup.
import type { Route } from '../route.ts';
import { camelCase, snakeKeys } from '../route.ts';
import { CHANNEL_RECORD_FIELDS } from '../../resolvers/channels/wire.ts';

/** The channel record's fields (channels/wire.ts), as the GraphQL Channel type names them. */
export const CHANNEL_FIELDS = CHANNEL_RECORD_FIELDS.map(camelCase).join(' ');

export const channelRoutes: Route[] = [
  {
    method: 'GET', path: '/streams', field: 'channels',
    // include_all_active is the deprecated spelling of include_all.
    params: { include_all: { aliases: ['include_all_active'] } },
    select: CHANNEL_FIELDS,
    shape: (channels) => ({ streams: snakeKeys(channels) }),
  },
  {
    method: 'GET', path: '/streams/{stream_id}', field: 'channel',
    params: { stream_id: { arg: 'channelId' } },
    select: CHANNEL_FIELDS,
    shape: (channel) => ({ stream: snakeKeys(channel) }),
  },
  {
    method: 'GET', path: '/get_stream_id', field: 'channelIdByName',
    params: { stream: { arg: 'name' } },
    shape: (id) => ({ stream_id: id }),
  },
];
