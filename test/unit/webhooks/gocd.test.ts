// GoCD's stage notifications, against the messages Zulip's zerver/webhooks/gocd/tests.py expects,
// and the requests it refuses.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { gocd } from '../../../resolvers/webhooks/integrations/gocd.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(gocd, { body });

interface Stage {
  name: string;
  state: string;
  result: string;
  'create-time': string;
  'last-transition-time'?: string;
  jobs: { name: string; result: string; state: string }[];
}

function stageEvent(pipeline: string, stage: Stage, repository = 'https://github.com/swayam0322/Test', branch = 'main', revision = '59f3c6e4540b6a89ad5505790e5efdf964e7b837') {
  return {
    type: 'stage',
    data: {
      pipeline: {
        name: pipeline,
        counter: '90',
        group: 'defaultGroup',
        'build-cause': [{
          material: { type: 'git', 'git-configuration': { 'shallow-clone': false, branch, url: repository } },
          changed: false,
          modifications: [{ revision, 'modified-time': 'Jan 31, 2024, 1:56:14 AM', data: {} }],
        }],
        stage: { counter: '1', 'approval-type': 'success', 'approved-by': 'anonymous', ...stage },
      },
    },
  };
}

const passed = stageEvent('Pipeline', {
  name: 'Stage', state: 'Passed', result: 'Passed',
  'create-time': 'Feb 1, 2024, 1:58:13 AM', 'last-transition-time': 'Feb 1, 2024, 1:58:40 AM',
  jobs: [{ name: 'Job', state: 'Completed', result: 'Passed' }],
});

const ZULIP_CI = ['https://github.com/PieterCK/getting-started-repo.git', 'master', '963eb239c7b91eac2e15c727e06e908fd334e6f9'] as const;

describe('stage building', () => {
  it('reports the pipeline being built', () => {
    const payload = stageEvent('Pipeline', {
      name: 'Stage', state: 'Building', result: 'Unknown', 'create-time': 'Feb 1, 2024, 1:58:13 AM',
      jobs: [{ name: 'Job', state: 'Scheduled', result: 'Unknown' }],
    });
    expectMessage(translate(payload), 'Pipeline / Stage', `**Pipeline building**: Pipeline / Stage
- **Commit**: [\`59f3c6e4540\`](https://github.com/swayam0322/Test/commit/59f3c6e4540) on branch \`main\`
- **Started**: <time:Feb 1, 2024, 1:58:13 AM>`);
  });
});

describe('stage completed', () => {
  it('reports a passed build', () => {
    expectMessage(translate(passed), 'Pipeline / Stage', `:green_circle: **Build passed**: Pipeline / Stage
- **Commit**: [\`59f3c6e4540\`](https://github.com/swayam0322/Test/commit/59f3c6e4540) on branch \`main\`
- **Started**: <time:Feb 1, 2024, 1:58:13 AM>
- **Finished**: <time:Feb 1, 2024, 1:58:40 AM>
- **Passed**: \`Job\``);
  });

  it('reports a failed build', () => {
    const payload = stageEvent('pipeline-one', {
      name: 'stage-two', state: 'Failed', result: 'Failed',
      'create-time': 'Aug 28, 2024, 9:30:19 PM', 'last-transition-time': 'Aug 28, 2024, 9:31:00 PM',
      jobs: [{ name: 'task-two', state: 'Completed', result: 'Failed' }],
    }, ...ZULIP_CI);
    expectMessage(translate(payload), 'pipeline-one / stage-two', `:red_circle: **Build failed**: pipeline-one / stage-two
- **Commit**: [\`963eb239c7b\`](https://github.com/PieterCK/getting-started-repo.git/commit/963eb239c7b) on branch \`master\`
- **Started**: <time:Aug 28, 2024, 9:30:19 PM>
- **Finished**: <time:Aug 28, 2024, 9:31:00 PM>
- **Failed**: \`task-two\``);
  });

  it('groups the jobs by result, in the order the results first appear', () => {
    const payload = stageEvent('test-pipeline', {
      name: 'backend-tests', state: 'Failed', result: 'Failed',
      'create-time': 'Aug 29, 2024, 3:59:18 PM', 'last-transition-time': 'Aug 29, 2024, 4:00:15 PM',
      jobs: [
        { name: 'check-backend-lints', state: 'Completed', result: 'Failed' },
        { name: 'check-backend-tests', state: 'Completed', result: 'Passed' },
        { name: 'test-frontend-js', state: 'Completed', result: 'Failed' },
        { name: 'zulip-ci-debian-12', state: 'Completed', result: 'Passed' },
      ],
    }, ...ZULIP_CI);
    expectMessage(translate(payload), 'test-pipeline / backend-tests', `:red_circle: **Build failed**: test-pipeline / backend-tests
- **Commit**: [\`963eb239c7b\`](https://github.com/PieterCK/getting-started-repo.git/commit/963eb239c7b) on branch \`master\`
- **Started**: <time:Aug 29, 2024, 3:59:18 PM>
- **Finished**: <time:Aug 29, 2024, 4:00:15 PM>
- **Failed**: \`check-backend-lints\`, \`test-frontend-js\`
- **Passed**: \`check-backend-tests\`, \`zulip-ci-debian-12\``);
  });
});

describe('other notifications', () => {
  it('says nothing about an agent', () => {
    expect(translate({ type: 'agent', data: { agent_state: 'Idle' } }).messages).toEqual([]);
  });
});

describe('refusals', () => {
  it('is registered', () => {
    expect(integrationNamed('gocd')).toBe(gocd);
  });

  it('refuses a payload without a type', () => {
    expect(refusalOf(() => translate({ data: passed.data })).message).toBe('payload["type"] is missing');
  });

  it('refuses a pipeline without a build cause', () => {
    const pipeline = { ...passed.data.pipeline, 'build-cause': [] };
    expect(refusalOf(() => translate({ ...passed, data: { pipeline } })).message).toBe('payload["data"]["pipeline"]["build-cause"][0] is missing');
  });

  it('refuses a build cause that is not a list', () => {
    const pipeline = { ...passed.data.pipeline, 'build-cause': {} };
    expect(refusalOf(() => translate({ ...passed, data: { pipeline } })).message).toBe('payload["data"]["pipeline"]["build-cause"] is not a list');
  });

  it('refuses a completed stage without its end time', () => {
    const { 'last-transition-time': _t, ...stage } = passed.data.pipeline.stage;
    const pipeline = { ...passed.data.pipeline, stage };
    expect(refusalOf(() => translate({ ...passed, data: { pipeline } })).message)
      .toBe('payload["data"]["pipeline"]["stage"]["last-transition-time"] is missing');
  });

  it('refuses a job name that is not a string', () => {
    const stage = { ...passed.data.pipeline.stage, jobs: [{ name: 7, result: 'Passed' }] };
    const pipeline = { ...passed.data.pipeline, stage };
    expect(refusalOf(() => translate({ ...passed, data: { pipeline } })).message)
      .toBe('payload["data"]["pipeline"]["stage"]["jobs"][0]["name"] is not a string');
  });

  it('refuses a body that is not JSON', () => {
    expect(refusalOf(() => translate('type=stage'))).toBeInstanceOf(InvalidJsonError);
  });
});
