// Video calls: meeting creation and the provider's OAuth flow. The spec's `/calls/provider/...`
// and Zulip's `/calls/zoom/...` are the same endpoints.
import type { Route } from '../route.ts';

export const callRoutes: Route[] = ['provider', 'zoom'].flatMap((provider): Route[] => [
  {
    method: 'POST', path: `/calls/${provider}/create`,
    params: { is_video_call: { type: 'bool', default: true } },
    document: `mutation($isVideoCall: Boolean) { createVideoCall(provider: "${provider}", isVideoCall: $isVideoCall) { url } }`,
    shape: (d) => ({ url: d.createVideoCall.url }),
  },
  {
    // Zulip redirects the browser; an API client gets the URL to open instead.
    method: 'GET', path: `/calls/${provider}/register`, params: {},
    document: `mutation { startVideoCallAuthorization(provider: "${provider}") }`,
    shape: (d) => ({ url: d.startVideoCallAuthorization }),
  },
  {
    method: 'GET', path: `/calls/${provider}/complete`, public: true,
    params: { code: { type: 'string', required: true }, state: { type: 'string', required: true } },
    document: `mutation($code: String!, $state: String!) { completeVideoCallAuthorization(provider: "${provider}", code: $code, state: $state) }`,
  },
  {
    method: 'DELETE', path: `/calls/${provider}`, params: {},
    document: `mutation { revokeVideoCallAuthorization(provider: "${provider}") }`,
  },
]);
