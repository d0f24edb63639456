// WordPress's webhooks (Zulip's zerver/webhooks/wordpress/view.py): WordPress posts the fields the
// user picked for the action as a form, so every field may be absent and falls back to a
// placeholder, as Zulip's do.
import { BadRequestError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import { rstrip } from './git.ts';

const PUBLISH_HOOKS = ['publish_post', 'publish_page'];

export const wordpress: Integration = {
  urlName: 'wordpress',
  displayName: 'WordPress',
  eventTypes: PUBLISH_HOOKS,
  // WordPress is never sending JSON: Zulip does not bother the bot's owner about it.
  quietOnInvalidJson: true,
  translate(request: WebhookRequest): WebhookOutcome {
    // Some senders leave trailing whitespace on the action's name.
    const hook = rstrip(request.param('hook') ?? 'WordPress action');
    if (!PUBLISH_HOOKS.includes(hook)) throw new BadRequestError(`Unknown WordPress webhook action: ${hook}`);
    const type = request.param('post_type') ?? 'post';
    const title = request.param('post_title') ?? 'New WordPress post';
    const url = request.param('post_url') ?? 'WordPress post URL';
    return { eventType: hook, messages: [{ topic: 'WordPress notification', content: `New ${type} published:\n* [${title}](${url})` }] };
  },
};
