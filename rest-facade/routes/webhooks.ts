// Incoming webhooks: Zulip's `/api/v1/external/<integration>` URLs, given to third parties.
import type { Route } from '../route.ts';
import { integrationNamed } from '../../resolvers/webhooks/integrations/index.ts';

/** Whether the integration answers in Slack's format (Integration.slackResponses). */
const slackShaped = (params: Record<string, unknown>) => integrationNamed(String(params.integration))?.slackResponses === true;

export const webhookRoutes: Route[] = [
  {
    method: 'POST', path: '/external/{integration}', field: 'deliverWebhook', webhook: true,
    select: 'sender { userId email fullName }',
    shape: (delivered, params) => ({
      ...(slackShaped(params) ? { ok: true } : {}),
      // Zulip's Zapier app labels its connection with these (`{"type": "auth"}`).
      ...(delivered.sender ? { full_name: delivered.sender.fullName, email: delivered.sender.email, id: delivered.sender.userId } : {}),
    }),
    errorShape: (body, params) => (slackShaped(params) ? { ok: false, error: body.msg } : body),
  },
  // Trello checks the URL with HEAD when its webhook is made.
  { method: 'HEAD', path: '/external/{integration}', field: 'checkWebhookUrl', webhook: true },
];
