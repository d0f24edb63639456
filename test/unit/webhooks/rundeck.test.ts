// Rundeck's execution notifications, against the messages Zulip's zerver/webhooks/rundeck/tests.py
// expects, and the requests it refuses.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { rundeck } from '../../../resolvers/webhooks/integrations/rundeck.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(rundeck, { body });

const LOCAL = 'http://localhost:4440/project/welcome-project-community';
const JOB = {
  id: 'a0296d93-4b10-48d7-8b7d-86ad3f603b85',
  name: 'Global Log Filter Usage',
  group: 'Basic Examples/Basic Workflows',
  project: 'welcome-project-community',
  permalink: `${LOCAL}/job/show/a0296d93-4b10-48d7-8b7d-86ad3f603b85`,
};

function notification(trigger: string, status: string, id: number, extra: Record<string, unknown> = {}) {
  return {
    trigger,
    status,
    executionId: id,
    execution: { id, href: `${LOCAL}/execution/show/${id}`, status, project: 'welcome-project-community', user: 'admin', job: JOB, ...extra },
  };
}

const TOPIC = 'Global Log Filter Usage';
const JOB_LINK = `[Global Log Filter Usage](${JOB.permalink})`;

describe('start', () => {
  it('says the execution has started', () => {
    expectMessage(translate(notification('start', 'running', 3)), TOPIC,
      `${JOB_LINK} execution [#3](${LOCAL}/execution/show/3) for welcome-project-community has started. :running:`);
  });

  it('says a scheduled execution has started', () => {
    const job = { ...JOB, project: 'myproject', permalink: 'https://rundeck.com/project/myproject/job/show/a0296d93-4b10-48d7-8b7d-86ad3f603b85' };
    const payload = notification('start', 'scheduled', 12, {
      href: 'https://rundeck.com/project/myproject/execution/follow/12', project: 'myproject', job,
    });
    expectMessage(translate(payload), TOPIC,
      '[Global Log Filter Usage](https://rundeck.com/project/myproject/job/show/a0296d93-4b10-48d7-8b7d-86ad3f603b85) execution [#12](https://rundeck.com/project/myproject/execution/follow/12) for myproject has started. :running:');
  });
});

describe('success', () => {
  it('says the execution has succeeded', () => {
    expectMessage(translate(notification('success', 'succeeded', 3)), TOPIC,
      `${JOB_LINK} execution [#3](${LOCAL}/execution/show/3) for welcome-project-community has succeeded. :check:`);
  });
});

describe('failure', () => {
  it('says the execution has failed', () => {
    expectMessage(translate(notification('failure', 'failed', 7)), TOPIC,
      `${JOB_LINK} execution [#7](${LOCAL}/execution/show/7) for welcome-project-community has failed. :cross_mark:`);
  });
});

describe('avgduration', () => {
  it('says the execution is running long', () => {
    expectMessage(translate(notification('avgduration', 'running', 6)), TOPIC,
      `${JOB_LINK} execution [#6](${LOCAL}/execution/show/6) for welcome-project-community is running long. :time_ticking:`);
  });
});

describe('refusals', () => {
  it('is registered', () => {
    expect(integrationNamed('rundeck')).toBe(rundeck);
  });

  it('declines a status it has no wording for', () => {
    expectError(() => translate(notification('failure', 'aborted', 8)), UnsupportedWebhookEventTypeError,
      "The 'aborted' event isn't currently supported by the Rundeck webhook; ignoring");
  });

  it('refuses a payload without the job', () => {
    const payload = notification('start', 'running', 3);
    const { job: _job, ...execution } = payload.execution;
    expect(refusalOf(() => translate({ ...payload, execution })).message).toBe('payload["execution"]["job"] is missing');
  });

  it('refuses an execution ID that is not a number', () => {
    const payload = notification('start', 'running', 3, { id: '3' });
    expect(refusalOf(() => translate(payload)).message).toBe('payload["execution"]["id"] is not an integer');
  });

  it('refuses a running execution without a trigger', () => {
    const { trigger: _trigger, ...payload } = notification('start', 'running', 3);
    expect(refusalOf(() => translate(payload)).message).toBe('payload["trigger"] is missing');
  });

  it('refuses a job name that is not a string', () => {
    const payload = notification('start', 'running', 3, { job: { ...JOB, name: 5 } });
    expect(refusalOf(() => translate(payload)).message).toBe('payload["execution"]["job"]["name"] is not a string');
  });

  it('refuses a body that is not JSON', () => {
    expect(refusalOf(() => translate('status=running'))).toBeInstanceOf(InvalidJsonError);
  });
});
