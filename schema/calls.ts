import { builder } from './builder.ts';

export const VideoCallType = builder.objectRef<{ url: string }>('VideoCall').implement({
  description: 'A meeting created with the video-call provider.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The meeting URL to share in a message.' }),
  }),
});
