// Heroku's Deploy Hooks (Zulip's zerver/webhooks/heroku/view.py): the HTTP Post Hook sends the
// deploy as form fields, not JSON, so the fields are read as the request's parameters.
import { MissingArgumentError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';

/** A field Heroku always sends; refused as Zulip refuses a missing argument. */
function field(request: WebhookRequest, name: string): string {
  const value = request.param(name);
  if (value === undefined) throw new MissingArgumentError(name);
  return value;
}

export const heroku: Integration = {
  urlName: 'heroku',
  displayName: 'Heroku',
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    // In the order Zulip checks them, so the first missing one is named.
    const head = field(request, 'head');
    const app = field(request, 'app');
    const user = field(request, 'user');
    const url = field(request, 'url');
    const gitLog = field(request, 'git_log');
    const content = `${user} deployed version ${head} of [${app}](${url}):\n\n\`\`\` quote\n${gitLog}\n\`\`\``;
    return { messages: [{ topic: app, content }] };
  },
};
