// Raygun's error notifications and activity: the messages Zulip's zerver/webhooks/raygun/tests.py
// expects, and bodies it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { raygun } from '../../../resolvers/webhooks/integrations/raygun.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(raygun, { body });

const WHEN = '1970-01-28T01:49:36Z';
const TIME = '<time:1970-01-28T01:49:36+00:00>';
const application = (name = 'application name') => ({ name, url: 'http://app.raygun.io/application-url' });

function activity(eventType: string, fields: Record<string, string>, appName?: string) {
  return {
    event: 'error_activity',
    eventType,
    error: { url: 'https://app.raygun.com/error-url', activityDate: WHEN, message: 'Script Error', ...fields },
    application: application(appName),
  };
}

function notification(eventType: string, withInstance: boolean) {
  const instance = {
    tags: ['test', 'error-page', 'v1.0.1', 'env:staging'],
    affectedUser: { Identifier: 'a9b7d84a-c0d3-4e7e-9ded-1ec13d033846', IsAnonymous: true, UUID: 'a9b7d84a-c0d3-4e7e-9ded-1ec13d033846' },
    customData: { userLoggedIn: true, pageName: 'Error Page' },
  };
  return {
    event: 'error_notification',
    eventType,
    error: {
      url: 'http://app.raygun.io/error-url',
      message: '',
      firstOccurredOn: WHEN,
      lastOccurredOn: WHEN,
      usersAffected: 1,
      totalOccurrences: 1,
      ...(withInstance ? { instance } : {}),
    },
    application: application(),
  };
}

const STATS = `* **First occurred**: ${TIME}\n* **Last occurred**: ${TIME}\n* 1 users affected with 1 total occurrences\n`;
const INSTANCE = '* **Tags**: test, error-page, v1.0.1, env:staging\n* **Affected user**: a9b7d8...33846\n* **pageName**: Error Page\n* **userLoggedIn**: True\n';
const APP = '* **Application details**: [application name](http://app.raygun.io/application-url)';

describe('raygun: registration', () => {
  it("is found by its URL name, with Zulip's event types", () => {
    expect(integrationNamed('raygun')).toBe(raygun);
    expect(raygun.displayName).toBe('Raygun');
    expect(raygun.eventTypes).toEqual(['error_notification', 'error_activity']);
  });
});

describe('raygun: error_activity', () => {
  it('test_status_changed_message', () => {
    expectMessage(translate(activity('StatusChanged', { status: 'Ignored', user: 'Emma Cat' }, 'Best App')), 'test',
      `[Error](https://app.raygun.com/error-url) status changed to **Ignored** by Emma Cat:\n* **Timestamp**: ${TIME}\n* **Application details**: [Best App](http://app.raygun.io/application-url)`,
      'error_activity');
  });

  it('test_comment_added_to_error_message', () => {
    expectMessage(translate(activity('CommentAdded', { comment: 'Ignoring these errors', user: 'Anita Peacock' })), 'test',
      `Anita Peacock commented on [Error](https://app.raygun.com/error-url):\n\n\`\`\` quote\nIgnoring these errors\n\`\`\`\n* **Timestamp**: ${TIME}\n${APP}`,
      'error_activity');
  });

  it('test_error_assigned_to_user_message', () => {
    expectMessage(translate(activity('AssignedToUser', { assignedTo: 'Kyle Kenny', user: 'Amy Loondon' })), 'test',
      `Amy Loondon assigned [Error](https://app.raygun.com/error-url) to Kyle Kenny:\n* **Timestamp**: ${TIME}\n${APP}`, 'error_activity');
  });

  it('refuses an activity Zulip does not know', () => {
    expectError(() => translate(activity('UnimplementedFeature', { user: 'Amy Loondon' })), UnsupportedWebhookEventTypeError,
      "The 'UnimplementedFeature' event isn't currently supported by the Raygun webhook; ignoring");
  });
});

describe('raygun: error_notification', () => {
  it('test_one_minute_followup_error_message', () => {
    expectMessage(translate(notification('OneMinuteFollowUp', false)), 'test',
      `One minute [follow-up error](http://app.raygun.io/error-url):\n${STATS}${APP}`, 'error_notification');
  });

  it('test_hourly_followup_error_message', () => {
    expectMessage(translate(notification('HourlyFollowUp', false)), 'test',
      `Hourly [follow-up error](http://app.raygun.io/error-url):\n${STATS}${APP}`, 'error_notification');
  });

  it('test_new_error_message', () => {
    expectMessage(translate(notification('NewErrorOccurred', true)), 'test',
      `New [Error](http://app.raygun.io/error-url) occurred:\n${STATS}${INSTANCE}${APP}`, 'error_notification');
  });

  it('test_reoccurred_error_message', () => {
    expectMessage(translate(notification('ErrorReoccurred', true)), 'test',
      `[Error](http://app.raygun.io/error-url) reoccurred:\n${STATS}${INSTANCE}${APP}`, 'error_notification');
  });

  it("shows the error's message when it has one, and custom data as Python prints it", () => {
    const body = notification('NewErrorOccurred', true);
    body.error.message = 'Division by zero';
    (body.error as unknown as { instance: { customData: unknown } }).instance.customData = { retries: 2.5, extra: { a: [1, null] } };
    expectMessage(translate(body), 'test',
      `New [Error](http://app.raygun.io/error-url) occurred:\n* **Message**: Division by zero\n${STATS}`
      + "* **Tags**: test, error-page, v1.0.1, env:staging\n* **Affected user**: a9b7d8...33846\n* **extra**: {'a': [1, None]}\n* **retries**: 2.5\n"
      + APP);
  });

  it('refuses a notification Zulip does not know', () => {
    expectError(() => translate(notification('UnimplementedFeature', false)), UnsupportedWebhookEventTypeError,
      "The 'UnimplementedFeature' event isn't currently supported by the Raygun webhook; ignoring");
  });
});

describe('raygun: unsupported events', () => {
  it('test_no_event_type_message', () => {
    expectError(() => translate({ ...notification('NewErrorOccurred', true), event: 'new_event_type' }), UnsupportedWebhookEventTypeError,
      "The 'new_event_type' event isn't currently supported by the Raygun webhook; ignoring");
  });
});

describe('raygun: malformed bodies', () => {
  it('refuses a body that is not JSON', () => {
    expectError(() => translate('event=error_activity'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses a new error without its instance', () => {
    expect(refusalOf(() => translate(notification('NewErrorOccurred', false))).message).toBe('payload["error"]["instance"] is missing');
  });

  it('refuses null tags, as Zulip does', () => {
    const body = notification('ErrorReoccurred', true);
    (body.error as unknown as { instance: { tags: unknown } }).instance.tags = null;
    expect(refusalOf(() => translate(body)).message).toBe('payload["error"]["instance"]["tags"] is not a list');
  });

  it('refuses a count that is not a number', () => {
    const body = notification('HourlyFollowUp', false);
    body.error.usersAffected = 'one' as unknown as number;
    expect(refusalOf(() => translate(body)).message).toBe('payload["error"]["usersAffected"] is not an integer');
  });

  it('refuses a time that is not a time', () => {
    refusalOf(() => translate(activity('StatusChanged', { status: 'Ignored', user: 'Emma Cat', activityDate: 'soon' })));
  });

  it('refuses a missing event', () => {
    expect(refusalOf(() => translate({ eventType: 'StatusChanged' })).message).toBe('payload["event"] is missing');
  });
});
