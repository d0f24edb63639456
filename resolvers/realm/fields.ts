import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { ServerSettings } from '../../schema/realm.ts';
import { serverSettings } from './server-settings.ts';
import { imageArg } from '../../schema/emoji.ts';
import { deleteRealmIcon, deleteRealmLogo, uploadRealmIcon, uploadRealmLogo } from './branding.ts';
// The area's part of register's initial state.
import './initial-state.ts';

builder.queryFields((t) => ({
  serverSettings: t.field({
    type: ServerSettings,
    description: 'Server and organization information a client needs before logging in. No authentication required.',
    resolve: (_root, _args, ctx) => serverSettings(ctx),
  }),
}));

builder.mutationFields((t) => ({
  uploadRealmIcon: t.string({
    description: 'Sets the organization\'s icon to an uploaded image (administrators; at most max_icon_file_size_mib), stored as a 100-pixel square. Returns the icon\'s URL.',
    args: imageArg,
    resolve: forUser((ctx, user, args) => uploadRealmIcon(ctx, user, args.files)),
  }),
  deleteRealmIcon: t.string({
    description: 'Returns the organization to the default icon (administrators). Returns its URL.',
    resolve: forUser(deleteRealmIcon),
  }),
  uploadRealmLogo: t.boolean({
    description: 'Sets the organization\'s day or night logo to an uploaded image (administrators; at most max_logo_file_size_mib), shrunk to fit 800×100.',
    args: {
      ...imageArg,
      night: t.arg.boolean({ required: true, description: 'The logo shown with the dark theme rather than the light one.' }),
    },
    resolve: userAction((ctx, user, args) => uploadRealmLogo(ctx, user, args.files, args.night)),
  }),
  deleteRealmLogo: t.boolean({
    description: 'Returns the organization\'s day or night logo to the default (administrators).',
    args: { night: t.arg.boolean({ required: true, description: 'The logo shown with the dark theme rather than the light one.' }) },
    resolve: userAction((ctx, user, args) => deleteRealmLogo(ctx, user, args.night)),
  }),
}));
