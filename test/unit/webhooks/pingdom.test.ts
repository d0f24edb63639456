// Pingdom's check alerts: the messages Zulip's zerver/webhooks/pingdom/tests.py expects, and
// bodies it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { pingdom } from '../../../resolvers/webhooks/integrations/pingdom.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(pingdom, { body });

function alert(type: string, name: string, hostname: string, previous: string, current: string, longDescription: string) {
  return {
    check_id: 2051859,
    check_name: name,
    check_type: type,
    check_params: { basic_auth: false, encryption: true, hostname, ipv6: false, port: 993 },
    tags: [],
    previous_state: previous,
    current_state: current,
    state_changed_timestamp: 1458069480,
    long_description: longDescription,
    description: 'Unknown target',
  };
}

describe('pingdom: registration', () => {
  it("is found by its URL name, with Zulip's event types", () => {
    expect(integrationNamed('pingdom')).toBe(pingdom);
    expect(pingdom.displayName).toBe('Pingdom');
    expect(pingdom.eventTypes).toEqual(['HTTP', 'HTTP_CUSTOM', 'HTTPS', 'SMTP', 'POP3', 'IMAP', 'PING', 'DNS', 'UDP', 'PORT_TCP']);
  });
});

describe('pingdom: HTTP', () => {
  it('test_pingdom_from_up_to_down_http_check_message', () => {
    expectMessage(translate(alert('HTTP', 'Test check', 'someurl.com', 'UP', 'DOWN', 'Non-recoverable failure in name resolution')),
      'Test check status.', 'Service someurl.com changed its HTTP status from UP to DOWN:\n\n``` quote\nNon-recoverable failure in name resolution\n```', 'HTTP');
  });
});

describe('pingdom: SMTP', () => {
  it('test_pingdom_from_up_to_down_smtp_check_message', () => {
    expectMessage(translate(alert('SMTP', 'SMTP check', 'smtp.someurl.com', 'UP', 'DOWN', 'Connection refused')),
      'SMTP check status.', 'Service smtp.someurl.com changed its SMTP status from UP to DOWN:\n\n``` quote\nConnection refused\n```', 'SMTP');
  });
});

describe('pingdom: IMAP', () => {
  it('test_pingdom_from_up_to_down_imap_check_message', () => {
    expectMessage(translate(alert('IMAP', 'IMAP check', 'imap.someurl.com', 'UP', 'DOWN', 'Invalid hostname, address or socket')),
      'IMAP check status.', 'Service imap.someurl.com changed its IMAP status from UP to DOWN:\n\n``` quote\nInvalid hostname, address or socket\n```', 'IMAP');
  });

  it('test_pingdom_from_down_to_up_imap_check_message: no description when it recovers', () => {
    const { long_description: _l, ...body } = alert('IMAP', 'IMAP check', 'imap.someurl.com', 'DOWN', 'UP', 'OK');
    expectMessage(translate(body), 'IMAP check status.', 'Service imap.someurl.com changed its IMAP status from DOWN to UP.', 'IMAP');
  });
});

describe('pingdom: other check types', () => {
  it('are not supported', () => {
    expectError(() => translate(alert('TRANSACTION', 'T', 'x.com', 'UP', 'DOWN', 'x')), UnsupportedWebhookEventTypeError,
      "The 'TRANSACTION' event isn't currently supported by the Pingdom webhook; ignoring");
  });
});

describe('pingdom: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expectError(() => translate('nope'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate([1])).message).toBe('payload is not a dict');
  });

  it('refuses missing fields and fields of the wrong type', () => {
    const { check_type: _t, ...untyped } = alert('HTTP', 'T', 'x.com', 'UP', 'DOWN', 'x');
    expect(refusalOf(() => translate(untyped)).message).toBe('payload["check_type"] is missing');
    expect(refusalOf(() => translate({ ...alert('HTTP', 'T', 'x.com', 'UP', 'DOWN', 'x'), check_params: 'x.com' })).message)
      .toBe('payload["check_params"] is not a dict');
    expect(refusalOf(() => translate(alert('HTTP', 'T', 'x.com', 'UP', 'DOWN', 5 as unknown as string))).message)
      .toBe('payload["long_description"] is not a string');
    expect(refusalOf(() => translate({ ...alert('HTTP', 'T', 'x.com', 'UP', 'DOWN', 'x'), check_name: null })).message)
      .toBe('payload["check_name"] is not a string');
  });
});
