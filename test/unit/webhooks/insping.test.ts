// Insping's state changes: the messages Zulip's zerver/webhooks/insping/tests.py expects, and bodies
// it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { insping } from '../../../resolvers/webhooks/integrations/insping.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(insping, { body });

function stateChange(state: string, responseTime: number, startedAt: string) {
  return {
    organization_name: 'test',
    webhook_type: 'AL',
    webhook_event_data: {
      check_state_name: state,
      check_id: 5630,
      http_status_code: 200,
      request_start_time: startedAt,
      application_name: 'test',
      request_url: 'http://privisus.zulipdev.org:9991',
      response_time: responseTime,
    },
  };
}

describe('insping: registration', () => {
  it('is found by its URL name', () => {
    expect(integrationNamed('insping')).toBe(insping);
    expect(insping.displayName).toBe('Insping');
    expect(insping.eventTypes).toBeNull();
  });
});

describe('insping: state changes', () => {
  it('test_website_state_available_message', () => {
    expectMessage(translate(stateChange('Available', 223, '2017-12-29T17:23:46.457990+00:00')), 'insping',
      'State changed to **Available**:\n* **URL**: http://privisus.zulipdev.org:9991\n* **Response time**: 223 ms\n* **Timestamp**: <time:2017-12-29T17:23:46+00:00>');
  });

  it('test_website_state_not_responding_message', () => {
    expectMessage(translate(stateChange('Not Responding', 942, '2017-12-29T17:13:46.788129+00:00')), 'insping',
      'State changed to **Not Responding**:\n* **URL**: http://privisus.zulipdev.org:9991\n* **Response time**: 942 ms\n* **Timestamp**: <time:2017-12-29T17:13:46+00:00>');
  });
});

describe('insping: malformed bodies', () => {
  it('refuses a body that is not JSON', () => {
    expectError(() => translate('state=up'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses missing event data', () => {
    expect(refusalOf(() => translate({ organization_name: 'test' })).message).toBe('payload["webhook_event_data"] is missing');
  });

  it('refuses a response time that is not an integer', () => {
    const body = stateChange('Available', 0, '2017-12-29T17:23:46+00:00');
    body.webhook_event_data.response_time = '223' as unknown as number;
    expect(refusalOf(() => translate(body)).message).toBe('payload["webhook_event_data"]["response_time"] is not an integer');
  });

  it('refuses a start time that is not a time', () => {
    refusalOf(() => translate(stateChange('Available', 223, 'yesterday')));
  });
});
