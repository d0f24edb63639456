// Video calls: meeting creation and the provider's OAuth flow. The spec's `/calls/provider/...`
// and Zulip's `/calls/zoom/...` are the same endpoints.
import type { Route } from '../route.ts';

export const callRoutes: Route[] = ['provider', 'zoom'].flatMap((provider): Route[] => [
  {
    method: 'POST', path: `/calls/${provider}/create`, field: 'createVideoCall', fixed: { provider },
    shape: (call) => ({ url: call.url }),
  },
  // Zulip redirects the browser; an API client gets the URL to open instead.
  { method: 'GET', path: `/calls/${provider}/register`, field: 'startVideoCallAuthorization', fixed: { provider }, shape: (url) => ({ url }) },
  { method: 'GET', path: `/calls/${provider}/complete`, public: true, field: 'completeVideoCallAuthorization', fixed: { provider } },
  { method: 'DELETE', path: `/calls/${provider}`, field: 'revokeVideoCallAuthorization', fixed: { provider } },
]);
