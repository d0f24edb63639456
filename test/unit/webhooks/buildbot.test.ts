// Buildbot's Zulip reporter: the messages Zulip's zerver/webhooks/buildbot/tests.py expects, and the
// requests it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { buildbot } from '../../../resolvers/webhooks/integrations/buildbot.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(buildbot, { body });

const started = {
  event: 'new',
  buildid: 33,
  buildername: 'runtests',
  url: 'http://exampleurl.com/#builders/1/builds/33',
  project: 'buildbot-hello',
  timestamp: 1553910544,
};

const finished = (results: unknown, extra: Record<string, unknown> = {}) => ({ ...started, event: 'finished', timestamp: 1553910552, results, ...extra });

describe('buildbot: registration', () => {
  it("is found by its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('buildbot')).toBe(buildbot);
    expect(buildbot.displayName).toBe('Buildbot');
    expect(buildbot.eventTypes).toEqual(['new', 'finished']);
  });
});

describe('buildbot: new', () => {
  it('test_build_started', () => {
    expectMessage(translate(started), 'buildbot-hello',
      'Build [#33](http://exampleurl.com/#builders/1/builds/33) for **runtests** started.', 'new');
  });
});

describe('buildbot: finished', () => {
  it('test_build_success', () => {
    expectMessage(translate(finished(0)), 'buildbot-hello',
      'Build [#33](http://exampleurl.com/#builders/1/builds/33) (result: success) for **runtests** finished.', 'finished');
  });

  it('test_build_failure (an empty project is the general topic)', () => {
    const body = finished(2, { buildid: 34, url: 'http://exampleurl.com/#builders/1/builds/34', project: '' });
    expectMessage(translate(body), 'general',
      'Build [#34](http://exampleurl.com/#builders/1/builds/34) (result: failure) for **runtests** finished.', 'finished');
  });

  it('test_build_cancelled', () => {
    const body = finished(6, { buildid: 10434, url: 'https://ci.example.org/#builders/79/builds/307', project: 'zulip/zulip-zapier', buildername: 'AMD64 Ubuntu 18.04 Python 3' });
    expectMessage(translate(body), 'zulip/zulip-zapier',
      'Build [#10434](https://ci.example.org/#builders/79/builds/307) (result: cancelled) for **AMD64 Ubuntu 18.04 Python 3** finished.', 'finished');
  });

  it("names every result code, counting negative ones from the end as Python's tuple does", () => {
    const result = (code: number) => /\(result: (\w+)\)/.exec(translate(finished(code)).messages[0]!.content)![1];
    expect([1, 3, 4, 5].map(result)).toEqual(['warnings', 'skipped', 'exception', 'retry']);
    expect(result(-1)).toBe('cancelled');
    expect(result(-7)).toBe('success');
  });

  it('refuses a result code out of range, or a finished build without one', () => {
    expect(refusalOf(() => translate(finished(7))).message).toBe('Invalid payload["results"]');
    expect(refusalOf(() => translate(finished(-8))).message).toBe('Invalid payload["results"]');
    expect(refusalOf(() => translate(finished('success'))).message).toBe('payload["results"] is not an integer');
    const { results: _r, ...noResults } = finished(0);
    expect(refusalOf(() => translate(noResults)).message).toBe('payload["results"] is missing');
  });
});

describe('buildbot: other events', () => {
  it('are not supported', () => {
    expectError(() => translate({ ...started, event: 'stepStarted' }), UnsupportedWebhookEventTypeError,
      "The 'stepStarted' event isn't currently supported by the Buildbot webhook; ignoring");
  });
});

describe('buildbot: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expectError(() => translate('event=new'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate('"new"')).message).toBe('payload is not a dict');
  });

  it('refuses missing keys and values of the wrong type', () => {
    const { project: _p, ...noProject } = started;
    expect(refusalOf(() => translate(noProject)).message).toBe('payload["project"] is missing');
    expect(refusalOf(() => translate({ ...started, project: null })).message).toBe('payload["project"] is not a string');
    expect(refusalOf(() => translate({ ...started, buildid: '33' })).message).toBe('payload["buildid"] is not an integer');
    expect(refusalOf(() => translate({ ...started, event: 1 })).message).toBe('payload["event"] is not a string');
  });
});
