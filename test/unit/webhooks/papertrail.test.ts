// Papertrail's saved-search alerts, posted as a form whose `payload` field is the JSON: the
// messages Zulip's zerver/webhooks/papertrail/tests.py expects, and requests it refuses.
import { describe, it, expect } from 'vitest';
import { BadRequestError, InvalidArgumentError, MissingArgumentError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { papertrail } from '../../../resolvers/webhooks/integrations/papertrail.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (payload: unknown) =>
  translateWith(papertrail, { body: '', params: { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } });

const SEARCH = {
  id: 42,
  name: 'Important stuff',
  query: 'cron OR server1',
  html_edit_url: 'https://papertrailapp.com/searches/42/edit',
  html_search_url: 'https://papertrailapp.com/searches/42',
};

function event(message: string, source = 'abc', extra: Record<string, unknown> = {}) {
  return {
    id: 7711561783320576,
    received_at: '2011-05-18T20:30:02-07:00',
    display_received_at: 'May 18 20:30:02',
    source_name: source,
    hostname: source,
    program: 'CROND',
    message,
    ...extra,
  };
}

const quoted = (source: string, message: string) => `<time:2011-05-18T20:30:02-07:00> - ${source} - cron OR server1:\n\`\`\` quote\n${message}\n\`\`\``;

describe('papertrail: registration', () => {
  it('is found by its URL name, without event types', () => {
    expect(integrationNamed('papertrail')).toBe(papertrail);
    expect(papertrail.displayName).toBe('Papertrail');
    expect(papertrail.eventTypes).toBeNull();
  });
});

describe('papertrail: search alerts', () => {
  it('test_short_message', () => {
    const outcome = translate({ events: [event('message body'), event('A short event', 'server1')], saved_search: SEARCH, max_id: 7711582041804800 });
    expectMessage(outcome, 'logs', `[Search for "Important stuff"](https://papertrailapp.com/searches/42) found **2** matches:\n\n${quoted('abc', 'message body')}\n${quoted('server1', 'A short event')}`);
    expect(outcome.eventType).toBeUndefined();
  });

  it('test_long_message: four events quoted, the rest linked', () => {
    const events = [1, 2, 3, 4].map((n) => event(`message body ${n}`)).concat(event('A short event', 'server1'));
    expectMessage(translate({ events, saved_search: SEARCH }), 'logs',
      `[Search for "Important stuff"](https://papertrailapp.com/searches/42) found **5** matches:\n\n${[1, 2, 3, 4].map((n) => quoted('abc', `message body ${n}`)).join('\n')}\n[See more](https://papertrailapp.com/searches/42)`);
  });

  it('links to the search with exactly four events, as Zulip does', () => {
    const events = [1, 2, 3, 4].map((n) => event(`message body ${n}`));
    expect(translate({ events, saved_search: SEARCH }).messages[0]!.content).toMatch(/message body 4\n```\n\[See more\]\(https:\/\/papertrailapp.com\/searches\/42\)$/);
  });

  it("shows each event's own time and offset", () => {
    const outcome = translate({ events: [event('hi', 'abc', { received_at: '2024-01-02T03:04:05.678Z' })], saved_search: SEARCH });
    expect(outcome.messages[0]!.content).toContain('<time:2024-01-02T03:04:05+00:00> - abc - cron OR server1:');
  });
});

describe('papertrail: refusals', () => {
  it('test_incorrect_message: no events', () => {
    expectError(() => translate({ saved_search: SEARCH, max_id: 7711582041804800 }), BadRequestError, 'Events key is missing from payload');
    expectError(() => translate(['events']), BadRequestError, 'Events key is missing from payload');
  });

  it('refuses a request without the payload field, or with one that is not JSON', () => {
    expectError(() => translateWith(papertrail, { body: '{"events": []}' }), MissingArgumentError, "Missing 'payload' argument");
    expectError(() => translate('{"events":'), InvalidArgumentError, 'payload is not valid JSON');
  });

  it('refuses missing fields and fields of the wrong type', () => {
    expect(refusalOf(() => translate({ events: [event('x')] })).message).toBe('payload["saved_search"] is missing');
    expect(refusalOf(() => translate({ events: { 0: event('x') }, saved_search: SEARCH })).message).toBe('payload["events"] is not a list');
    expect(refusalOf(() => translate({ events: [event('x', 'abc', { message: 7 })], saved_search: SEARCH })).message)
      .toBe('payload["events"][0]["message"] is not a string');
    expect(refusalOf(() => translate({ events: [event('x', 'abc', { received_at: 'yesterday' })], saved_search: SEARCH })).message)
      .toBe('payload["events"][0]["received_at"] is not a date and time with a time zone');
    expect(refusalOf(() => translate({ events: ['x'], saved_search: SEARCH })).message).toBe('payload["events"][0] is not a dict');
  });
});
