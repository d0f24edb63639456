import { builder } from '../../schema/builder.ts';
import { ServerSettings } from '../../schema/realm.ts';
import { serverSettings } from './server-settings.ts';

builder.queryFields((t) => ({
  serverSettings: t.field({
    type: ServerSettings,
    description: 'Server and organization information a client needs before logging in. No authentication required.',
    resolve: (_root, _args, ctx) => serverSettings(ctx),
  }),
}));
