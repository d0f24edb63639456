// UptimeRobot's webhook alert contacts, with the JSON body Zulip's documentation has users write:
// the messages Zulip's zerver/webhooks/uptimerobot/tests.py expects, and bodies it refuses.
import { describe, it, expect } from 'vitest';
import { MisconfiguredWebhookPayloadError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { uptimerobot } from '../../../resolvers/webhooks/integrations/uptimerobot.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(uptimerobot, { body });

/** The documented template, filled in by UptimeRobot. */
function alert(type: 'Up' | 'Down' | string, extra: Record<string, unknown> = {}) {
  return {
    monitor_url: type === 'Up' ? 'server2.example.com' : 'server1.example.com',
    monitor_friendly_name: type === 'Up' ? 'Mail Server' : 'Web Server',
    alert_type: type === 'Up' ? '2' : '1',
    alert_type_friendly_name: type,
    alert_details: type === 'Up' ? 'Host Is Reachable' : 'Host Is Unreachable',
    // UptimeRobot leaves the variable unexpanded when the monitor goes down.
    alert_friendly_duration: type === 'Up' ? '44 minutes and 37 seconds' : '*alertFriendlyDuration*',
    ...extra,
  };
}

const NOTICE = `Hi there! Your bot Uptime Bot just received a UptimeRobot payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your UptimeRobot webhook settings. Please make sure that you set the required parameters
when configuring the UptimeRobot webhook. Contact support@example.com if you
need further help!`;

describe('uptimerobot: registration', () => {
  it('is found by its URL name, with Zulip\'s event types', () => {
    expect(integrationNamed('uptimerobot')).toBe(uptimerobot);
    expect(uptimerobot.displayName).toBe('UptimeRobot');
    expect(uptimerobot.eventTypes).toEqual(['up', 'down']);
  });
});

describe('uptimerobot: down', () => {
  it('test_uptimerobot_monitor_down', () => {
    expectMessage(translate(alert('Down')), 'Web Server', 'Web Server (server1.example.com) is DOWN (Host Is Unreachable).', 'down');
  });

  it('does not need the duration', () => {
    const { alert_friendly_duration: _d, ...body } = alert('Down');
    expectMessage(translate(body), 'Web Server', 'Web Server (server1.example.com) is DOWN (Host Is Unreachable).', 'down');
  });
});

describe('uptimerobot: up', () => {
  it('test_uptimerobot_monitor_up', () => {
    expectMessage(translate(alert('Up')), 'Mail Server',
      'Mail Server (server2.example.com) is back UP (Host Is Reachable).\nIt was down for 44 minutes and 37 seconds.', 'up');
  });
});

describe('uptimerobot: other alert types', () => {
  it('are not supported', () => {
    expectError(() => translate(alert('SSL Expiry')), UnsupportedWebhookEventTypeError,
      "The 'SSL Expiry' event isn't currently supported by the UptimeRobot webhook; ignoring");
  });
});

describe('uptimerobot: misconfigured templates', () => {
  it('refuses a body missing a variable as an invalid payload, with a notice for the owner (test_uptimerobot_invalid_payload_with_missing_data)', () => {
    const { monitor_friendly_name: _name, ...body } = alert('Down');
    const error = expectError(() => translate(body), MisconfiguredWebhookPayloadError, 'Invalid payload') as MisconfiguredWebhookPayloadError;
    expect(error.ownerNotice('Uptime Bot', 'support@example.com')).toBe(NOTICE);
  });

  it('refuses variables of the wrong type, and an up alert without its duration', () => {
    expectError(() => translate(alert('Down', { monitor_url: 80 })), MisconfiguredWebhookPayloadError, 'Invalid payload');
    expectError(() => translate(alert('Up', { alert_details: null })), MisconfiguredWebhookPayloadError, 'Invalid payload');
    const { alert_friendly_duration: _d, ...body } = alert('Up');
    expectError(() => translate(body), MisconfiguredWebhookPayloadError, 'Invalid payload');
  });
});

describe('uptimerobot: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expect(refusalOf(() => translate('*monitorURL*')).message).toBe('Malformed JSON');
    expect(refusalOf(() => translate(['Down'])).message).toBe('payload is not a dict');
  });

  it('refuses a body without the alert type as an ordinary bad request', () => {
    const { alert_type_friendly_name: _type, ...body } = alert('Down');
    const error = refusalOf(() => translate(body));
    expect(error).not.toBeInstanceOf(MisconfiguredWebhookPayloadError);
    expect(error.message).toBe('payload["alert_type_friendly_name"] is missing');
    expect(refusalOf(() => translate(alert(1 as unknown as string))).message).toBe('payload["alert_type_friendly_name"] is not a string');
  });
});
