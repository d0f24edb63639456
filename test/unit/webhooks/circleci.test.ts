// CircleCI's webhooks: the messages Zulip's zerver/webhooks/circleci/tests.py expects, for payloads
// trimmed to what the integration reads, and the requests it refuses.
import { describe, it, expect } from 'vitest';
import { BadRequestError, InvalidJsonError } from '../../../resolvers/errors.ts';
import { circleci } from '../../../resolvers/webhooks/integrations/circleci.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(circleci, { body });

const GITHUB_REPO = 'https://github.com/zulip-testing/circleci-webhook-test';
const BITBUCKET_REPO = 'https://bitbucket.org/hariprashant1/circleci-webhook-testing';
const GITLAB_REPO = 'https://gitlab.com/zulip-testing/circleci-webhook-test';

function vcsPipeline(provider: 'github' | 'bitbucket', overrides: { subject?: string | null; branch?: string | null; number?: number; revision?: string } = {}) {
  const subject = overrides.subject === undefined ? 'Fix remove-op on reaction event.' : overrides.subject;
  return {
    id: '877c620f-900a-455b-ad51-1a772b5a3eab',
    number: overrides.number ?? 4,
    trigger: { type: 'webhook' },
    vcs: {
      provider_name: provider,
      target_repository_url: provider === 'github' ? GITHUB_REPO : BITBUCKET_REPO,
      revision: overrides.revision ?? 'a5e30a908224e46626a796d058289475f6d387b5',
      commit: {
        subject,
        author: { name: subject === null ? null : 'Hari Prashant Bhimaraju', email: null },
      },
      branch: overrides.branch === undefined ? 'main' : overrides.branch,
    },
  };
}

const gitlabPipeline = {
  number: 3,
  trigger: { type: 'gitlab' },
  trigger_parameters: {
    gitlab: {
      web_url: GITLAB_REPO,
      commit_author_name: 'Hari Prashant Bhimaraju',
      branch: 'main',
      commit_title: 'app: Enhance message within hello().',
      checkout_sha: 'c31f86994c54672f97b5bd5e544315b7bd40e4c1',
    },
  },
};

function jobCompleted(pipeline: unknown, project = 'circleci-webhook-test', status = 'success') {
  return {
    type: 'job-completed',
    pipeline,
    project: { name: project },
    job: { name: 'build-and-test', status, number: 6 },
  };
}

function workflowCompleted(pipeline: unknown, url: string, status = 'success') {
  return {
    type: 'workflow-completed',
    pipeline,
    project: { name: 'circleci-webhook-test' },
    workflow: { name: 'sample', url, status },
  };
}

describe('circleci: registration', () => {
  it("is found by its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('circleci')).toBe(circleci);
    expect(circleci.displayName).toBe('CircleCI');
    expect(circleci.eventTypes).toEqual(['ping', 'job-completed', 'workflow-completed']);
  });
});

describe('circleci: ping', () => {
  it('test_ping', () => {
    const outcome = translate({ type: 'ping', webhook: { id: '87f2e824', name: 'Testing' } });
    expectMessage(outcome, 'Test event', "Webhook 'Testing' test event successful.", 'ping');
  });

  it('needs the webhook name', () => {
    expect(refusalOf(() => translate({ type: 'ping' })).message).toBe('payload["webhook"] is missing');
  });
});

describe('circleci: job-completed', () => {
  it('test_github_job_completed', () => {
    expectMessage(translate(jobCompleted(vcsPipeline('github'), 'main branch - build notifications')), 'main branch - build notifications',
      'Job `build-and-test` within Pipeline #4 has succeeded.\n\n'
      + 'Triggered on [`a5e30a90822: Fix remove-op on reaction event.`](https://github.com/zulip-testing/circleci-webhook-test/commit/a5e30a908224e46626a796d058289475f6d387b5) on branch `main` by Hari Prashant Bhimaraju.',
      'job-completed');
  });

  it('test_bitbucket_job_completed', () => {
    const pipeline = vcsPipeline('bitbucket', { subject: 'app.py edited online with Bitbucket', branch: 'master', revision: '8ab595d2de95767993472837df2cb7884519a92b' });
    expectMessage(translate(jobCompleted(pipeline, 'circleci-webhook-testing')), 'circleci-webhook-testing',
      'Job `build-and-test` within Pipeline #4 has succeeded.\n\n'
      + 'Triggered on [`8ab595d2de9: app.py edited online with Bitbucket`](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/8ab595d2de95767993472837df2cb7884519a92b) on branch `master` by Hari Prashant Bhimaraju.',
      'job-completed');
  });

  it('test_gitlab_job_completed', () => {
    expectMessage(translate(jobCompleted(gitlabPipeline)), 'circleci-webhook-test',
      'Job `build-and-test` within Pipeline #3 has succeeded.\n\n'
      + 'Triggered on [`c31f86994c5: app: Enhance message within hello().`](https://gitlab.com/zulip-testing/circleci-webhook-test/-/commit/c31f86994c54672f97b5bd5e544315b7bd40e4c1) on branch `main` by Hari Prashant Bhimaraju.',
      'job-completed');
  });

  it('words each outcome as Zulip does, and an unknown one as None', () => {
    const first = (status: string) => translate(jobCompleted(gitlabPipeline, 'p', status)).messages[0]!.content.split('\n')[0];
    expect(first('failed')).toBe('Job `build-and-test` within Pipeline #3 has failed.');
    expect(first('canceled')).toBe('Job `build-and-test` within Pipeline #3 was canceled.');
    expect(first('unauthorized')).toBe('Job `build-and-test` within Pipeline #3 was unauthorized.');
    expect(first('error')).toBe('Job `build-and-test` within Pipeline #3 had an error.');
    expect(first('infrastructure_fail')).toBe('Job `build-and-test` within Pipeline #3 None.');
    expect(first('constructor')).toBe('Job `build-and-test` within Pipeline #3 None.');
  });

  it('prints None for a commit without a branch', () => {
    const content = translate(jobCompleted(vcsPipeline('github', { branch: null }))).messages[0]!.content;
    expect(content).toContain('on branch `None` by Hari Prashant Bhimaraju.');
  });
});

describe('circleci: workflow-completed', () => {
  it('test_github_workflow_completed', () => {
    const url = 'https://app.circleci.com/pipelines/github/zulip-testing/circleci-webhook-test/4/workflows/7381218b-d04c-4aa3-b8b8-8c00a9319d1f';
    expectMessage(translate(workflowCompleted(vcsPipeline('github', { subject: '.circleci: Update Webhook URL.' }), url)), 'circleci-webhook-test',
      `Workflow [\`sample\`](${url}) within Pipeline #4 has succeeded.\n\n`
      + 'Triggered on [`a5e30a90822: .circleci: Update Webhook URL.`](https://github.com/zulip-testing/circleci-webhook-test/commit/a5e30a908224e46626a796d058289475f6d387b5) on branch `main` by Hari Prashant Bhimaraju.',
      'workflow-completed');
  });

  it('test_bitbucket_workflow_completed', () => {
    const url = 'https://app.circleci.com/pipelines/bitbucket/hariprashant1/circleci-webhook-testing/4/workflows/fd29ef0c-3e39-4c8f-b1d5-d8be1bab8165';
    const pipeline = vcsPipeline('bitbucket', { subject: 'app.py edited online with Bitbucket', branch: 'master', revision: '8ab595d2de95767993472837df2cb7884519a92b' });
    expectMessage(translate(workflowCompleted(pipeline, url)), 'circleci-webhook-test',
      `Workflow [\`sample\`](${url}) within Pipeline #4 has succeeded.\n\n`
      + 'Triggered on [`8ab595d2de9: app.py edited online with Bitbucket`](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/8ab595d2de95767993472837df2cb7884519a92b) on branch `master` by Hari Prashant Bhimaraju.',
      'workflow-completed');
  });

  it('test_bitbucket_manual_workflow_completed', () => {
    const url = 'https://app.circleci.com/pipelines/bitbucket/hariprashant1/circleci-webhook-testing/2/workflows/baa45986-84db-47a0-bc6c-89e9fe751bc9';
    const pipeline = vcsPipeline('bitbucket', { subject: null, branch: 'master', number: 2, revision: 'cab5eacb4ccee2710529894425341fa20a48fe6a' });
    expectMessage(translate(workflowCompleted(pipeline, url)), 'circleci-webhook-test',
      `Workflow [\`sample\`](${url}) within Pipeline #2 has succeeded.\n\n`
      + "Triggered on `master`'s HEAD on [cab5eacb4cc](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/cab5eacb4ccee2710529894425341fa20a48fe6a).",
      'workflow-completed');
  });

  it('test_github_tag_workflow_completed', () => {
    const url = 'https://app.circleci.com/pipelines/github/prah23/circleci-webhook-test/20/workflows/045c6271-78e2-4802-8a62-f4fa6d25d0c9';
    const pipeline = vcsPipeline('github', { subject: null, branch: null, number: 20, revision: '0e6e66c14e61fbcd95db716b0f30d67dbcce7814' });
    expectMessage(translate(workflowCompleted(pipeline, url)), 'circleci-webhook-test',
      `Workflow [\`sample\`](${url}) within Pipeline #20 has succeeded.\n\n`
      + 'Triggered on the latest tag on [0e6e66c14e6](https://github.com/zulip-testing/circleci-webhook-test/commit/0e6e66c14e61fbcd95db716b0f30d67dbcce7814).',
      'workflow-completed');
  });

  it('test_gitlab_workflow_completed', () => {
    const url = 'https://app.circleci.com/pipelines/circleci/89xcrx7UvWQfzcUPAEmu5Q/63AY3yf3XeUQojmQcGZTtB/3/workflows/b23ceb64-127a-4075-a27c-d204a7a0a3b3';
    expectMessage(translate(workflowCompleted(gitlabPipeline, url)), 'circleci-webhook-test',
      `Workflow [\`sample\`](${url}) within Pipeline #3 has succeeded.\n\n`
      + 'Triggered on [`c31f86994c5: app: Enhance message within hello().`](https://gitlab.com/zulip-testing/circleci-webhook-test/-/commit/c31f86994c54672f97b5bd5e544315b7bd40e4c1) on branch `main` by Hari Prashant Bhimaraju.',
      'workflow-completed');
  });

  it('refuses a workflow URL that is not one', () => {
    expectError(() => translate(workflowCompleted(gitlabPipeline, 'not a url')), BadRequestError, 'payload["workflow"]["url"] is not a URL');
  });
});

describe('circleci: other event types and providers', () => {
  it('refuses an unknown type as Zulip does (check_string_in), not as an unsupported event', () => {
    const body = { ...jobCompleted(gitlabPipeline), type: 'job-started' };
    expectError(() => translate(body), BadRequestError, 'Invalid payload["type"]');
  });

  it('refuses pipelines triggered through another provider', () => {
    const pipeline = { ...gitlabPipeline, trigger: { type: 'api' } };
    expectError(() => translate(jobCompleted(pipeline)), BadRequestError, "Projects using this version control system provider aren't supported");
  });
});

describe('circleci: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expectError(() => translate('type=ping'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate(['ping'])).message).toBe('payload is not a dict');
  });

  it('refuses missing keys and values of the wrong type', () => {
    expect(refusalOf(() => translate({ webhook: { name: 'x' } })).message).toBe('payload["type"] is missing');
    expect(refusalOf(() => translate({ type: 7 })).message).toBe('payload["type"] is not a string');
    const { project: _p, ...noProject } = jobCompleted(gitlabPipeline);
    expect(refusalOf(() => translate(noProject)).message).toBe('payload["project"] is missing');
    expect(refusalOf(() => translate(jobCompleted({ ...gitlabPipeline, number: '3' }))).message).toBe('payload["pipeline"]["number"] is not an integer');
    expect(refusalOf(() => translate(jobCompleted({ number: 3, trigger: { type: 'gitlab' } }))).message).toBe('payload["pipeline"]["trigger_parameters"] is missing');
    const pipeline = vcsPipeline('github');
    pipeline.vcs.commit.author = null as never;
    expect(refusalOf(() => translate(jobCompleted(pipeline))).message).toBe('payload["pipeline"]["vcs"]["commit"]["author"] is not a dict');
    expect(refusalOf(() => translate(jobCompleted(vcsPipeline('github', { subject: 5 as never })))).message)
      .toBe('payload["pipeline"]["vcs"]["commit"]["subject"] is not a string');
  });
});
