// Incoming webhooks: Zulip's `/api/v1/external/<integration>` URLs, given to third parties.
import type { Route } from '../route.ts';
import { integrationNamed } from '../../resolvers/webhooks/integrations/index.ts';

/** Whether the integration answers in Slack's format (Integration.slackResponses). */
const slackShaped = (params: Record<string, unknown>) => integrationNamed(String(params.integration))?.slackResponses === true;

export const webhookRoutes: Route[] = [
  {
    method: 'POST', path: '/external/{integration}', field: 'deliverWebhook', webhook: true,
    shape: (_delivered, params) => (slackShaped(params) ? { ok: true } : {}),
    errorShape: (body, params) => (slackShaped(params) ? { ok: false, error: body.msg } : body),
  },
];
