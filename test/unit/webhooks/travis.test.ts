// Travis CI's build notifications (a form whose `payload` field is the build as JSON): the
// messages Zulip's zerver/webhooks/travis/tests.py expects, and the requests it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidArgumentError, MissingArgumentError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { travis } from '../../../resolvers/webhooks/integrations/travis.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

/** Travis posts the build as the form field `payload`; the body itself is the urlencoded form. */
const translate = (build: unknown) => {
  const payload = typeof build === 'string' ? build : JSON.stringify(build);
  return translateWith(travis, { body: new URLSearchParams({ payload }).toString(), params: { payload, stream: 'travis' } });
};

const PUSH_TOPIC = 'travis-test / main';
const PR_TOPIC = 'travis-test / PR #1 Add hello header to xyz.txt';

function build(extra: Record<string, unknown> = {}) {
  return {
    id: 277712204,
    number: '1',
    type: 'push',
    state: 'started',
    status_message: 'Pending',
    build_url: 'https://app.travis-ci.com/sathwikshetty33/travis-test/builds/277712204',
    branch: 'main',
    message: 'Add Projects model.\n\nWith its migration.',
    compare_url: 'https://github.com/sathwikshetty33/travis-test/commit/193da1b72346',
    author_name: 'sathwikshetty33',
    pull_request: false,
    pull_request_number: null,
    pull_request_title: null,
    repository: { id: 29853331, name: 'travis-test', owner_name: 'sathwikshetty33', url: null },
    ...extra,
  };
}

const pullRequest = build({
  number: '3',
  type: 'pull_request',
  build_url: 'https://app.travis-ci.com/sathwikshetty33/travis-test/builds/277712246',
  branch: 'main',
  message: 'Add hello header to xyz.txt',
  compare_url: 'https://github.com/sathwikshetty33/travis-test/pull/1',
  author_name: 'Sathwik Shetty',
  pull_request: true,
  pull_request_number: 1,
  pull_request_title: 'Add hello header to xyz.txt',
});

const PUSH_MESSAGE = '**Build [#1](https://app.travis-ci.com/sathwikshetty33/travis-test/builds/277712204)** '
  + 'is **being built** :time_ticking: for commit: [Add Projects model.](https://github.com/sathwikshetty33/travis-test/commit/193da1b72346) by sathwikshetty33.';

const PR_MESSAGE = '**Build [#3](https://app.travis-ci.com/sathwikshetty33/travis-test/builds/277712246)** '
  + 'is **being built** :time_ticking: for commit: [Add hello header to xyz.txt](https://github.com/sathwikshetty33/travis-test/pull/1) by Sathwik Shetty.';

describe('travis: registration', () => {
  it("is found by its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('travis')).toBe(travis);
    expect(travis.displayName).toBe('Travis');
    expect(travis.eventTypes).toEqual(['push', 'pull_request', 'api']);
    expect(travis.configOptions).toBeUndefined();
  });
});

describe('travis: push', () => {
  it('test_travis_message', () => {
    expectMessage(translate(build()), PUSH_TOPIC, PUSH_MESSAGE, 'push');
  });

  it('words every build status as Zulip does', () => {
    const statuses: [string, string][] = [
      ['Passed', '**passed** :check:'],
      ['Fixed', 'was **fixed** :check:'],
      ['Failed', '**failed** :cross_mark:'],
      ['Broken', 'is **broken** :cross_mark:'],
      ['Still Failing', 'is **still failing** :rotating_light:'],
      ['Canceled', 'was **canceled** :no_entry:'],
      ['Errored', '**errored** :cross_mark:'],
    ];
    for (const [status, words] of statuses) {
      expect(translate(build({ status_message: status })).messages[0]!.content)
        .toBe(PUSH_MESSAGE.replace('is **being built** :time_ticking:', words));
    }
  });

  it('says so when the commit has no message', () => {
    for (const message of [null, '', ' \n ']) {
      expect(translate(build({ message })).messages[0]!.content).toContain('for commit: [(no commit message)](');
    }
    const { message: _m, ...noMessage } = build();
    expect(translate(noMessage).messages[0]!.content).toContain('for commit: [(no commit message)](');
  });

  it("cuts the message at Python's line boundaries, after stripping it", () => {
    expect(translate(build({ message: '\n  Fix it\u2028More' })).messages[0]!.content).toContain('for commit: [Fix it](');
  });
});

describe('travis: pull_request', () => {
  it('test_travis_only_pull_request_event', () => {
    expectMessage(translate(pullRequest), PR_TOPIC, PR_MESSAGE, 'pull_request');
  });

  it('prints None for a pull request Travis does not number or name', () => {
    const outcome = translate({ ...pullRequest, pull_request_number: null, pull_request_title: null });
    expect(outcome.messages[0]!.topic).toBe('travis-test / PR #None None');
  });
});

describe('travis: api', () => {
  it('test_travis_api', () => {
    const outcome = translate(build({
      number: '5',
      type: 'api',
      build_url: 'https://app.travis-ci.com/sathwikshetty33/travis-test/builds/277713381',
      message: 'update ci url',
      compare_url: 'https://github.com/sathwikshetty33/travis-test/compare/193da1b723460e185115a27554dfddab7ae0ec6e...2eab9aaa002563c4b8db90a77eac9a1ba4e24643',
    }));
    expectMessage(outcome, PUSH_TOPIC,
      '**Build [#5](https://app.travis-ci.com/sathwikshetty33/travis-test/builds/277713381)** '
      + 'is **being built** :time_ticking: for commit: [update ci url](https://github.com/sathwikshetty33/travis-test/compare/193da1b723460e185115a27554dfddab7ae0ec6e...2eab9aaa002563c4b8db90a77eac9a1ba4e24643) by sathwikshetty33 (triggered by api).',
      'api');
  });

  it('reports other build types (cron) under their branch, with their own event type', () => {
    const outcome = translate(build({ type: 'cron' }));
    expectMessage(outcome, PUSH_TOPIC, PUSH_MESSAGE, 'cron');
  });
});

describe('travis: malformed requests', () => {
  it('needs the payload field, as JSON', () => {
    expectError(() => translateWith(travis, { body: '', params: {} }), MissingArgumentError, "Missing 'payload' argument");
    expectError(() => translate('{"type": '), InvalidArgumentError, 'payload is not valid JSON');
    expect(refusalOf(() => translate('[]')).message).toBe('payload is not a dict');
  });

  it('refuses a build missing a field, or with one of the wrong type', () => {
    const { author_name: _a, ...noAuthor } = build();
    expect(refusalOf(() => translate(noAuthor)).message).toBe('payload["author_name"] is missing');
    expect(refusalOf(() => translate(build({ number: 1 }))).message).toBe('payload["number"] is not a string');
    expect(refusalOf(() => translate(build({ repository: { name: null } }))).message).toBe('payload["repository"]["name"] is not a string');
    expect(refusalOf(() => translate(build({ pull_request_number: '1' }))).message).toBe('payload["pull_request_number"] is not an integer');
  });

  it('refuses a build status it has no words for (Zulip fails with a 500 there)', () => {
    expect(refusalOf(() => translate(build({ status_message: 'constructor' }))).message).toBe('Unknown build status: constructor');
  });
});
