import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { VideoCallType } from '../../schema/calls.ts';
import { providerName } from './provider.ts';
import { completeAuthorization, revokeToken, startAuthorization } from './oauth.ts';
import { createVideoCall } from './create.ts';

const PROVIDER_DESCRIPTION = 'The provider: `zoom` (default; `provider` means the same).';

builder.mutationFields((t) => ({
  createVideoCall: t.field({
    type: VideoCallType,
    description: "Creates a meeting with the configured video-call provider using the viewer's OAuth token (Zulip's POST /calls/zoom/create). "
      + 'Fails with INVALID_ZOOM_TOKEN when the viewer has not completed OAuth or the provider refused the token.',
    args: {
      provider: t.arg.string({ description: PROVIDER_DESCRIPTION }),
      isVideoCall: t.arg.boolean({ description: 'Video on by default (true, the default) or an audio call.' }),
    },
    resolve: async (_root, args, ctx) => ({
      url: await createVideoCall(ctx, requireUser(ctx), providerName(args.provider), args.isVideoCall ?? true),
    }),
  }),
  startVideoCallAuthorization: t.string({
    description: "Begins the provider's OAuth flow for the viewer: returns the URL to open in a browser (Zulip's GET /calls/zoom/register redirects there).",
    args: { provider: t.arg.string({ description: PROVIDER_DESCRIPTION }) },
    resolve: (_root, args, ctx) => startAuthorization(ctx, requireUser(ctx), providerName(args.provider)),
  }),
  completeVideoCallAuthorization: t.boolean({
    description: "The provider's OAuth callback: exchanges the code at the configured token URL and stores the token for the user the one-time state names. Needs no credentials.",
    args: {
      provider: t.arg.string({ description: PROVIDER_DESCRIPTION }),
      code: t.arg.string({ required: true, description: 'The authorization code from the provider.' }),
      state: t.arg.string({ required: true, description: 'The state handed out by startVideoCallAuthorization.' }),
    },
    resolve: async (_root, args, ctx) => {
      await completeAuthorization(ctx, providerName(args.provider), { code: args.code, state: args.state });
      return true;
    },
  }),
  revokeVideoCallAuthorization: t.boolean({
    description: "Forgets the viewer's OAuth token for the provider; returns whether there was one.",
    args: { provider: t.arg.string({ description: PROVIDER_DESCRIPTION }) },
    resolve: (_root, args, ctx) => revokeToken(ctx, requireUser(ctx), providerName(args.provider)),
  }),
}));
