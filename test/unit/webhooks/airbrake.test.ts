// Airbrake's error notifications: the message Zulip's zerver/webhooks/airbrake/tests.py expects, and
// bodies it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { airbrake } from '../../../resolvers/webhooks/integrations/airbrake.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(airbrake, { body });

const errorNotice = {
  error: {
    id: 1705190192091077626,
    error_message: 'Error message from logger',
    error_class: 'ZeroDivisionError',
    file: '/home/app/web/views.py',
    times_occurred: 1,
    project: { id: 125209, name: 'ZulipIntegrationTest' },
  },
  airbrake_error_url: 'https://zulip.airbrake.io/projects/125209/groups/1705190192091077626',
};

describe('airbrake: registration', () => {
  it('is found by its URL name', () => {
    expect(integrationNamed('airbrake')).toBe(airbrake);
    expect(airbrake.displayName).toBe('Airbrake');
    expect(airbrake.eventTypes).toBeNull();
  });
});

describe('airbrake: error', () => {
  it('test_airbrake_error_message', () => {
    expectMessage(translate(errorNotice), 'ZulipIntegrationTest',
      '[ZeroDivisionError](https://zulip.airbrake.io/projects/125209/groups/1705190192091077626): "Error message from logger" occurred.');
  });
});

describe('airbrake: malformed bodies', () => {
  it('refuses a body that is not JSON', () => {
    expectError(() => translate('error=1'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses a missing project', () => {
    const { project: _p, ...error } = errorNotice.error;
    expect(refusalOf(() => translate({ ...errorNotice, error })).message).toBe('payload["error"]["project"] is missing');
  });

  it('refuses a number where the error class is expected', () => {
    const body = { ...errorNotice, error: { ...errorNotice.error, error_class: 3 } };
    expect(refusalOf(() => translate(body)).message).toBe('payload["error"]["error_class"] is not a string');
  });

  it('refuses a list body', () => {
    expect(refusalOf(() => translate([errorNotice])).message).toBe('payload is not a dict');
  });
});
