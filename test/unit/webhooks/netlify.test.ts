// Netlify's deploy notifications, against the messages Zulip's zerver/webhooks/netlify/tests.py
// expects. The payloads are trimmed to what the integration reads, in the shape Netlify sends.
import { describe, expect, it } from 'vitest';
import {
  InvalidJsonError, MissingHttpEventHeaderError, ParleyError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { netlify } from '../../../resolvers/webhooks/integrations/netlify.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (event: string | null, payload: unknown): WebhookOutcome =>
  translateWith(netlify, { body: payload, headers: event === null ? {} : { 'X-Netlify-Event': event } });

const deploy = (state: string, extra: Record<string, unknown> = {}) => ({
  id: '5b78192ac9659217dbf7c9aa', state, name: 'objective-jepsen-35fbb2', url: 'http://objective-jepsen-35fbb2.netlify.com',
  admin_url: 'https://app.netlify.com/sites/objective-jepsen-35fbb2', error_message: null, branch: 'master', locked: null, ...extra,
});
const BUILD = 'The build [objective-jepsen-35fbb2](http://objective-jepsen-35fbb2.netlify.com) on branch master';

describe('deploy_building', () => {
  it("tells the build's state", () => {
    expectMessage(send('deploy_building', deploy('building')), 'master', `${BUILD} is now building.`, 'deploy_building');
  });
});

describe('deploy_created', () => {
  it("tells the build's state", () => {
    expectMessage(send('deploy_created', deploy('ready')), 'master', `${BUILD} is now ready.`, 'deploy_created');
  });
});

describe('deploy_failed', () => {
  it("gives Netlify's error", () => {
    const error = "failed during stage 'building site': Build script returned non-zero exit code: 127";
    expectMessage(send('deploy_failed', deploy('error', { error_message: error })), 'master', `${BUILD} ${error}`, 'deploy_failed');
  });
});

describe('deploy_locked', () => {
  it('says the deploy is locked', () => {
    expectMessage(send('deploy_locked', deploy('ready', { locked: true })), 'master', `${BUILD} is now locked.`, 'deploy_locked');
  });
});

describe('deploy_unlocked', () => {
  it('says the deploy is unlocked', () => {
    expectMessage(send('deploy_unlocked', deploy('ready', { locked: false })), 'master', `${BUILD} is now unlocked.`, 'deploy_unlocked');
  });
});

describe('refusals', () => {
  it('is registered under its URL name, with the event types Zulip names', () => {
    expect(integrationNamed('netlify')).toBe(netlify);
    expect(netlify.displayName).toBe('Netlify');
    expect(netlify.eventTypes).toEqual(['deploy_failed', 'deploy_locked', 'deploy_unlocked', 'deploy_building', 'deploy_created']);
  });

  it('refuses events Zulip does not support', () => {
    for (const event of ['deploy_request_pending', 'constructor']) {
      expectError(() => send(event, deploy('ready')), UnsupportedWebhookEventTypeError, `The '${event}' event isn't currently supported by the Netlify webhook; ignoring`);
    }
  });

  it('refuses a request without the event header', () => {
    expectError(() => send(null, deploy('ready')), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Netlify-Event'");
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('deploy_created', 'not json'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send('deploy_created', [deploy('ready')]), ParleyError, 'payload is not a dict');
    expectError(() => send('deploy_failed', deploy('error')), ParleyError, 'payload["error_message"] is not a string');
    expectError(() => send('deploy_created', deploy('ready', { name: 3 })), ParleyError, 'payload["name"] is not a string');
    expectError(() => send('deploy_locked', { ...deploy('ready'), state: undefined }), ParleyError, 'payload["state"] is missing');
    expectError(() => send('deploy_locked', { ...deploy('ready'), branch: undefined }), ParleyError, 'payload["branch"] is missing');
  });
});
