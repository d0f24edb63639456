// Zendesk's URL targets, against the messages Zulip's zerver/webhooks/zendesk/tests.py expects: the
// ticket and the trigger's message arrive as form fields (or URL parameters).
import { describe, expect, it } from 'vitest';
import { MissingArgumentError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { zendesk } from '../../../resolvers/webhooks/integrations/zendesk.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (params: Record<string, string>) => translateWith(zendesk, { body: new URLSearchParams(params).toString(), params: { stream: 'zendesk', ...params } });

describe('zendesk: registration', () => {
  it('has no event types', () => {
    expect(integrationNamed('zendesk')).toBe(zendesk);
    expect(zendesk.displayName).toBe('Zendesk');
    expect(zendesk.eventTypes).toBeNull();
  });
});

describe('zendesk: trigger message', () => {
  it('test_short_topic', () => {
    const outcome = send({ ticket_title: 'Test ticket', ticket_id: '4', message: 'some message' });
    expectMessage(outcome, '#4: Test ticket', 'some message');
    expect(outcome.eventType).toBeUndefined();
  });

  it('test_long_subject', () => {
    expectMessage(send({ ticket_title: `Test ticket${'!'.repeat(80)}`, ticket_id: '4', message: 'some message' }), `#4: Test ticket${'!'.repeat(42)}...`, 'some message');
  });

  it('test_long_content', () => {
    expectMessage(send({ ticket_title: 'Some ticket', ticket_id: '5', message: 'New comment:\n> It is better\n* here' }), '#5: Some ticket', 'New comment:\n> It is better\n* here');
  });
});

describe('zendesk: refusals', () => {
  it('names the first missing field, in Zulip\'s order', () => {
    expectError(() => send({ ticket_id: '4', message: 'm' }), MissingArgumentError, "Missing 'ticket_title' argument");
    expectError(() => send({ ticket_title: 't', message: 'm' }), MissingArgumentError, "Missing 'ticket_id' argument");
    expectError(() => send({ ticket_title: 't', ticket_id: '4' }), MissingArgumentError, "Missing 'message' argument");
  });

  it('does not read the body as JSON', () => {
    expectMessage(translateWith(zendesk, { body: 'not json', params: { ticket_title: 't', ticket_id: '1', message: 'm' } }), '#1: t', 'm');
  });
});
