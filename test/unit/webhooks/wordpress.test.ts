// WordPress's webhooks, against the messages Zulip's zerver/webhooks/wordpress/tests.py expects.
// WordPress posts a form; the framework hands its fields over as parameters. Zulip's fixtures also
// carry a `topic` field, which the framework (not the integration) lets win over the topic below.
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { wordpress } from '../../../resolvers/webhooks/integrations/wordpress.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

/** The form WordPress posts, as URLSearchParams decodes it. */
function send(form: string): WebhookOutcome {
  return translateWith(wordpress, { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, params: Object.fromEntries(new URLSearchParams(form)) });
}

const TOPIC = 'WordPress notification';

// Zulip's fixture files end with a newline, which lands in the last field (the URL).
describe('publish_post', () => {
  it('links the new post', () => {
    const outcome = send('hook=publish_post&post_type=post&post_title=New%20Blog%20Post&post_url=http%3A%2F%2Fexample.com%0A');
    expectMessage(outcome, TOPIC, 'New post published:\n* [New Blog Post](http://example.com\n)', 'publish_post');
  });

  it('calls it a post when the type is not sent', () => {
    expectMessage(send('hook=publish_post&post_title=New%20Blog%20Post&post_url=http%3A%2F%2Fexample.com%0A'), TOPIC,
      'New post published:\n* [New Blog Post](http://example.com\n)');
  });

  it('writes placeholders when no field was configured', () => {
    expectMessage(send('hook=publish_post%0A'), TOPIC, 'New post published:\n* [New WordPress post](WordPress post URL)', 'publish_post');
  });
});

describe('publish_page', () => {
  it('links the new page', () => {
    const outcome = send('hook=publish_page&post_type=page&post_title=New%20Blog%20Page&post_url=http%3A%2F%2Fexample.com%0A');
    expectMessage(outcome, TOPIC, 'New page published:\n* [New Blog Page](http://example.com\n)', 'publish_page');
  });
});

describe('the integration', () => {
  it('is registered with Zulip\'s name and event types', () => {
    expect(integrationNamed('wordpress')).toBe(wordpress);
    expect(wordpress.displayName).toBe('WordPress');
    expect(wordpress.eventTypes).toEqual(['publish_post', 'publish_page']);
  });
});

describe('refusals', () => {
  it('refuses a request without an action', () => {
    expectError(() => send(''), BadRequestError, 'Unknown WordPress webhook action: WordPress action');
    expectError(() => send('post_type=post&post_title=New%20Blog%20Post&post_url=http%3A%2F%2Fexample.com'), BadRequestError,
      'Unknown WordPress webhook action: WordPress action');
  });

  it('refuses actions Zulip no longer reports', () => {
    expectError(() => send('hook=user_register&display_name=test_user'), BadRequestError, 'Unknown WordPress webhook action: user_register');
    expectError(() => send('hook=wp_login&user_login=testuser'), BadRequestError, 'Unknown WordPress webhook action: wp_login');
  });

  it('does not read a JSON body', () => {
    expectError(() => translateWith(wordpress, { body: { hook: 'publish_post' } }), BadRequestError, 'Unknown WordPress webhook action: WordPress action');
  });
});
