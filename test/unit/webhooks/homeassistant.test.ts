// Home Assistant's notifications, against the messages Zulip's zerver/webhooks/homeassistant/tests.py expects.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError } from '../../../resolvers/errors.ts';
import { homeassistant } from '../../../resolvers/webhooks/integrations/homeassistant.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown) => translateWith(homeassistant, { body: payload });

describe('notifications', () => {
  it('goes to the homeassistant topic without a title', () => {
    expectMessage(send({ message: 'The sun will be shining today!' }), 'homeassistant', 'The sun will be shining today!');
  });

  it("goes to the notification's title", () => {
    const outcome = send({ topic: 'Weather forecast', message: 'It will be 30 degrees Celsius out there today!' });
    expectMessage(outcome, 'Weather forecast', 'It will be 30 degrees Celsius out there today!');
    expect(outcome.eventType).toBeUndefined();
  });
});

describe('refusals', () => {
  it("is registered under its URL name, with Zulip's name", () => {
    expect(integrationNamed('homeassistant')).toBe(homeassistant);
    expect(homeassistant.displayName).toBe('HomeAssistant');
    expect(homeassistant.eventTypes).toBeNull();
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('not json'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send(['message']), ParleyError, 'payload is not a dict');
    expectError(() => send({ topic: 'Weather' }), ParleyError, 'payload["message"] is missing');
    expectError(() => send({ message: 3 }), ParleyError, 'payload["message"] is not a string');
    expectError(() => send({ message: 'hi', topic: null }), ParleyError, 'payload["topic"] is not a string');
  });
});
