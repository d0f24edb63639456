// Zabbix's webhook media type, with the script and message template Zulip's documentation has users
// write: the messages Zulip's zerver/webhooks/zabbix/tests.py expects, and bodies it refuses.
import { describe, it, expect } from 'vitest';
import { MisconfiguredWebhookPayloadError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { zabbix } from '../../../resolvers/webhooks/integrations/zabbix.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(zabbix, { body });

const LINK = 'https://zabbix.example.com/tr_events.php?triggerid=14032&eventid=10528';

/** The documented template, filled in by Zabbix. */
function problem(extra: Record<string, unknown> = {}) {
  return {
    hostname: 'www.example.com',
    severity: 'Average',
    status: 'PROBLEM',
    item: 'Agent ping is Up (1)',
    trigger: 'Zabbix agent on www.example.com is unreachable for 5 minutes',
    link: LINK,
    ...extra,
  };
}

const NOTICE = `Hi there! Your bot Zabbix Bot just received a Zabbix payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your Zabbix webhook settings. Please make sure that you set the
script correctly and provide all the required parameters
when configuring the Zabbix webhook. Contact support@example.com if you
need further help!`;

describe('zabbix: registration', () => {
  it('is found by its URL name, without event types', () => {
    expect(integrationNamed('zabbix')).toBe(zabbix);
    expect(zabbix.displayName).toBe('Zabbix');
    expect(zabbix.eventTypes).toBeNull();
  });
});

describe('zabbix: alerts', () => {
  it('test_zabbix_alert_message', () => {
    const outcome = translate(problem());
    expectMessage(outcome, 'www.example.com',
      `PROBLEM (Average) alert on [www.example.com](${LINK}):\n* Zabbix agent on www.example.com is unreachable for 5 minutes\n* Agent ping is Up (1)`);
    expect(outcome.eventType).toBeUndefined();
  });

  it('reports a resolved problem the same way', () => {
    expectMessage(translate(problem({ status: 'OK', severity: 'High' })), 'www.example.com',
      `OK (High) alert on [www.example.com](${LINK}):\n* Zabbix agent on www.example.com is unreachable for 5 minutes\n* Agent ping is Up (1)`);
  });
});

describe('zabbix: misconfigured templates', () => {
  it('refuses a body missing a macro as an invalid payload, with a notice for the owner (test_zabbix_invalid_payload_with_missing_data)', () => {
    const { hostname: _hostname, ...body } = problem();
    const error = expectError(() => translate(body), MisconfiguredWebhookPayloadError, 'Invalid payload') as MisconfiguredWebhookPayloadError;
    expect(error.ownerNotice('Zabbix Bot', 'support@example.com')).toBe(NOTICE);
  });

  it('refuses macros of the wrong type, and a body that is not an object', () => {
    expectError(() => translate(problem({ severity: 3 })), MisconfiguredWebhookPayloadError, 'Invalid payload');
    expectError(() => translate(problem({ link: null })), MisconfiguredWebhookPayloadError, 'Invalid payload');
    expectError(() => translate([problem()]), MisconfiguredWebhookPayloadError, 'Invalid payload');
  });

  it('refuses a body that is not JSON as malformed', () => {
    expect(refusalOf(() => translate('{HOST.NAME}')).message).toBe('Malformed JSON');
  });
});
