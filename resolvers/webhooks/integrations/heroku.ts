// Heroku's Deploy Hooks (Zulip's zerver/webhooks/heroku/view.py): the HTTP Post Hook sends the
// deploy as form fields, not JSON, so the fields are read as the request's parameters.
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';

export const heroku: Integration = {
  urlName: 'heroku',
  displayName: 'Heroku',
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    // In the order Zulip checks them, so the first missing one is named.
    const head = request.requiredParam('head');
    const app = request.requiredParam('app');
    const user = request.requiredParam('user');
    const url = request.requiredParam('url');
    const gitLog = request.requiredParam('git_log');
    const content = `${user} deployed version ${head} of [${app}](${url}):\n\n\`\`\` quote\n${gitLog}\n\`\`\``;
    return { messages: [{ topic: app, content }] };
  },
};
