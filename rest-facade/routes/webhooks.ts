// Incoming webhooks: Zulip's `/api/v1/external/<integration>` URLs, given to third parties.
import type { Route } from '../route.ts';

export const webhookRoutes: Route[] = [
  { method: 'POST', path: '/external/{integration}', field: 'deliverWebhook', webhook: true },
];
