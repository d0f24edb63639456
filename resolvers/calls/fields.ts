import { builder } from '../../schema/builder.ts';
import { action, forUser } from '../../schema/fields.ts';
import { VideoCallType } from '../../schema/calls.ts';
import { providerName } from './provider.ts';
import { completeAuthorization, revokeToken, startAuthorization } from './oauth.ts';
import { createVideoCall } from './create.ts';

const providerArg = builder.args((t) => ({ provider: t.string({ description: 'The provider: `zoom` (default; `provider` means the same).' }) }));

builder.mutationFields((t) => ({
  createVideoCall: t.field({
    type: VideoCallType,
    description: "Creates a meeting with the configured video-call provider using the viewer's OAuth token (Zulip's POST /calls/zoom/create). "
      + 'Fails with INVALID_ZOOM_TOKEN when the viewer has not completed OAuth or the provider refused the token.',
    args: {
      ...providerArg,
      isVideoCall: t.arg.boolean({ description: 'Video on by default (true, the default) or an audio call.' }),
    },
    resolve: forUser(async (ctx, user, args) => ({
      url: await createVideoCall(ctx, user, providerName(args.provider), args.isVideoCall ?? true),
    })),
  }),
  startVideoCallAuthorization: t.string({
    description: "Begins the provider's OAuth flow for the viewer: returns the URL to open in a browser (Zulip's GET /calls/zoom/register redirects there).",
    args: providerArg,
    resolve: forUser((ctx, user, args) => startAuthorization(ctx, user, providerName(args.provider))),
  }),
  completeVideoCallAuthorization: t.boolean({
    description: "The provider's OAuth callback: exchanges the code at the configured token URL and stores the token for the user the one-time state names. Needs no credentials.",
    args: {
      ...providerArg,
      code: t.arg.string({ required: true, description: 'The authorization code from the provider.' }),
      state: t.arg.string({ required: true, description: 'The state handed out by startVideoCallAuthorization.' }),
    },
    resolve: action((ctx, args) => completeAuthorization(ctx, providerName(args.provider), { code: args.code, state: args.state })),
  }),
  revokeVideoCallAuthorization: t.boolean({
    description: "Forgets the viewer's OAuth token for the provider; returns whether there was one.",
    args: providerArg,
    resolve: forUser((ctx, user, args) => revokeToken(ctx, user, providerName(args.provider))),
  }),
}));
