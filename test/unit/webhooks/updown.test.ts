// Updown's check events: the messages Zulip's zerver/webhooks/updown/tests.py expects, and bodies it
// refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { updown } from '../../../resolvers/webhooks/integrations/updown.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(updown, { body });

interface Downtime { error: string | null; started_at: string | null; ended_at: string | null; duration: number | null }

function event(name: string, downtime: Downtime) {
  return {
    event: name,
    check: { token: 'ngg8', url: 'https://updown.io', alias: '', last_status: 200, down: false, period: 30 },
    downtime,
  };
}

const down = event('check.down', { error: '500', started_at: '2016-02-07T13:11:43Z', ended_at: null, duration: null });
const upAgain = (duration: number | null) =>
  event('check.up', { error: '500', started_at: '2016-02-07T13:11:43Z', ended_at: '2016-02-07T13:16:07Z', duration });
const upFirstTime = event('check.up', { error: null, started_at: null, ended_at: null, duration: null });

describe('updown: registration', () => {
  it("is found by its URL name, with Zulip's event types", () => {
    expect(integrationNamed('updown')).toBe(updown);
    expect(updown.displayName).toBe('Updown');
    expect(updown.eventTypes).toEqual(['up', 'down']);
  });
});

describe('updown: down', () => {
  it('test_updown_check_down_event', () => {
    const outcome = translate([down]);
    expectMessage(outcome, 'https://updown.io', 'Service is `down`. It returned a 500 error at <time:2016-02-07T13:11:43+00:00>.');
    expect(outcome.messages[0]!.eventType).toBe('down');
  });

  it('prints a missing error as Python does', () => {
    const body = event('check.down', { error: null, started_at: '2016-02-07T13:11:43Z', ended_at: null, duration: null });
    expectMessage(translate([body]), 'https://updown.io', 'Service is `down`. It returned a None error at <time:2016-02-07T13:11:43+00:00>.');
  });
});

describe('updown: up', () => {
  it('test_updown_check_up_again_event', () => {
    const outcome = translate([upAgain(265)]);
    expectMessage(outcome, 'https://updown.io', 'Service is `up` again after 4 minutes 25 seconds.');
    expect(outcome.messages[0]!.eventType).toBe('up');
  });

  it('test_updown_check_up_event', () => {
    expectMessage(translate([upFirstTime]), 'https://updown.io', 'Service is `up`.');
  });

  it('spells days and hours, singular and plural', () => {
    expectMessage(translate([upAgain(86400 + 2 * 3600 + 1)]), 'https://updown.io', 'Service is `up` again after 1 day 2 hours 1 second.');
  });

  it('says nothing of a zero or missing duration', () => {
    expectMessage(translate([upAgain(0)]), 'https://updown.io', 'Service is `up` again.');
    expectMessage(translate([upAgain(null)]), 'https://updown.io', 'Service is `up` again.');
  });
});

describe('updown: several events', () => {
  it('test_updown_check_up_multiple_events', () => {
    const { messages } = translate([down, upAgain(1)]);
    expect(messages).toEqual([
      { topic: 'https://updown.io', content: 'Service is `down`. It returned a 500 error at <time:2016-02-07T13:11:43+00:00>.', eventType: 'down' },
      { topic: 'https://updown.io', content: 'Service is `up` again after 1 second.', eventType: 'up' },
    ]);
  });
});

describe('updown: unsupported events', () => {
  it('test_unknown_event', () => {
    expectError(() => translate([event('unknown', upFirstTime.downtime)]), UnsupportedWebhookEventTypeError,
      'The \'unknown\' event isn\'t currently supported by the Updown webhook; ignoring');
  });

  it('refuses a check event of another kind', () => {
    refusalOf(() => translate([event('check.ssl_expiration', upFirstTime.downtime)]));
  });
});

describe('updown: malformed bodies', () => {
  it('refuses a body that is not JSON', () => {
    expectError(() => translate('event=check.up'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses a single event not in a list', () => {
    expect(refusalOf(() => translate(down)).message).toBe('payload is not a list');
  });

  it('refuses a missing check', () => {
    const { check: _c, ...body } = down;
    expect(refusalOf(() => translate([body])).message).toBe('payload[0]["check"] is missing');
  });

  it('refuses a duration that is not a number', () => {
    const body = upAgain('long' as unknown as number);
    expect(refusalOf(() => translate([body])).message).toBe('payload[0]["downtime"]["duration"] is not an integer');
  });
});
