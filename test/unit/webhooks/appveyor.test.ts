// AppVeyor's build notifications, against the messages Zulip's zerver/webhooks/appveyor/tests.py
// expects, and the requests it refuses.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { appveyor } from '../../../resolvers/webhooks/integrations/appveyor.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(appveyor, { body });

function build(eventName: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    eventName,
    eventData: {
      passed: status === 'completed',
      failed: status === 'failed',
      status,
      started: '9/9/2018 7:04 PM',
      finished: '9/9/2018 7:06 PM',
      projectName: 'Hubot-DSC-Resource',
      buildNumber: 59,
      buildVersion: '2.0.59',
      branch: 'master',
      commitId: 'c06e208b47',
      commitDate: '6/12/2018 6:22 PM',
      commitMessage: 'Increment version number.',
      committerName: 'Joe Bloggs',
      buildUrl: 'https://ci.appveyor.com/project/joebloggs/hubot-dsc-resource/build/2.0.59',
      commitUrl: 'https://github.com/joebloggs/Hubot-DSC-Resource/commit/c06e208b47',
      ...extra,
    },
  };
}

const TOPIC = 'Hubot-DSC-Resource';
const message = (status: string, started = '2018-09-09T19:04:00+00:00', finished = '2018-09-09T19:06:00+00:00') => `
[Build Hubot-DSC-Resource 2.0.59 ${status}](https://ci.appveyor.com/project/joebloggs/hubot-dsc-resource/build/2.0.59):
* **Commit**: [c06e208b47: Increment version number.](https://github.com/joebloggs/Hubot-DSC-Resource/commit/c06e208b47) by Joe Bloggs
* **Started**: <time:${started}>
* **Finished**: <time:${finished}>
`.trim();

describe('build_success', () => {
  it('reports the completed build', () => {
    expectMessage(translate(build('build_success', 'completed')), TOPIC, message('completed'));
  });

  it('reads times as Python strptime does: midnight and noon, leading zeros', () => {
    const payload = build('build_success', 'completed', { started: '12/31/2018 12:59 AM', finished: '01/01/2019 12:00 pm' });
    expectMessage(translate(payload), TOPIC, message('completed', '2018-12-31T00:59:00+00:00', '2019-01-01T12:00:00+00:00'));
  });
});

describe('build_failure', () => {
  it('reports the failed build', () => {
    expectMessage(translate(build('build_failure', 'failed')), TOPIC, message('failed'));
  });
});

describe('refusals', () => {
  it('is registered', () => {
    expect(integrationNamed('appveyor')).toBe(appveyor);
  });

  it('refuses a payload without eventData', () => {
    expect(refusalOf(() => translate({ eventName: 'build_success' })).message).toBe('payload["eventData"] is missing');
  });

  it('refuses a payload without the commit date, as Zulip does', () => {
    const payload = build('build_success', 'completed', { commitDate: undefined });
    expect(refusalOf(() => translate(payload)).message).toBe('payload["eventData"]["commitDate"] is missing');
  });

  it('refuses a build version that is not a string', () => {
    const payload = build('build_success', 'completed', { buildVersion: 2.0 });
    expect(refusalOf(() => translate(payload)).message).toBe('payload["eventData"]["buildVersion"] is not a string');
  });

  it.each(['2018-09-09T19:04:00Z', '9/31/2018 7:04 PM', '13/1/2018 7:04 PM', '9/9/2018 19:04', '9/9/2018 7:04 PM extra'])(
    'refuses the time %s',
    (started) => {
      expect(refusalOf(() => translate(build('build_success', 'completed', { started }))).httpStatus).toBe(400);
    },
  );

  it('refuses a body that is not JSON', () => {
    expect(refusalOf(() => translate('{"eventData":'))).toBeInstanceOf(InvalidJsonError);
  });
});
