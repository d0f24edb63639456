// Semaphore's notifications, Classic and 2.0: the messages Zulip's zerver/webhooks/semaphore/tests.py
// expects, and the requests it refuses.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { semaphore } from '../../../resolvers/webhooks/integrations/semaphore.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(semaphore, { body });

const COMMIT = {
  id: 'a490b8d508ebbdab1d77a5c2aefa35ceb2d62daf',
  url: 'https://github.com/donquixote/knighthood/commit/a490b8d508ebbdab1d77a5c2aefa35ceb2d62daf',
  author_name: 'Don Quixote',
  author_email: 'don@lamancha.com',
  message: 'Create user account for Rocinante\n\nThe user is an admin user',
};

function classic(event: string, extra: Record<string, unknown> = {}) {
  return {
    branch_name: 'master',
    project_name: 'knighthood',
    result: 'passed',
    event,
    build_url: 'https://semaphoreci.com/donquixote/knighthood/branches/master/builds/314',
    build_number: 314,
    commit: COMMIT,
    ...extra,
  };
}

const deploy = classic('deploy', {
  build_url: undefined,
  server_name: 'lamancha-271',
  number: 17,
  html_url: 'https://semaphoreci.com/donquixote/knighthood/servers/lamancha-271/deploys/17',
  build_html_url: 'https://semaphoreci.com/donquixote/knighthood/branches/master/builds/314',
});

const REPO = 'https://github.com/renderedtext/notifications';

function semaphore2(revision: Record<string, unknown>, workflowId: string, result: string, repoUrl = REPO) {
  return {
    version: '1.0.0',
    organization: { name: 'semaphore' },
    project: { name: 'notifications' },
    repository: { url: repoUrl, slug: 'renderedtext/notifications' },
    revision: {
      sender: { login: 'radwo', email: '' },
      tag: null,
      pull_request: null,
      branch: null,
      commit_sha: '2d9f5fcec1ca7c68fa7bd44dd58ec4ff65814563',
      commit_message: 'Implement webhooks for SemaphoreCI\n\nThis implements the webhooks for Semaphore2',
      ...revision,
    },
    workflow: { id: workflowId },
    pipeline: { name: 'Notifications', result, state: 'done' },
  };
}

const push = (repoUrl = REPO) => semaphore2({
  reference_type: 'branch',
  branch: { name: 'rw/webhook_impl', commit_range: '36ebdf6e906c...2d9f5fcec1ca' },
}, 'acabe58e-4bcc-4d39-be06-e98d71917703', 'stopped', repoUrl);

const pullRequest = (repoUrl = REPO) => semaphore2({
  reference_type: 'pull_request',
  pull_request: { number: '3', name: 'Testing PR notifications', branch_name: 'test-notifications' },
}, '84383f37-d025-4811-b719-61c6acc92a1e', 'failed', repoUrl);

const tag = (repoUrl = REPO, referenceType = 'tag') => semaphore2({
  reference_type: referenceType,
  tag: { name: 'v1.0.1' },
}, 'a8704319-2422-4828-9b11-6b2afa3554e6', 'stopped', repoUrl);

describe('semaphore: registration', () => {
  it("is found by its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('semaphore')).toBe(semaphore);
    expect(semaphore.displayName).toBe('Semaphore');
    expect(semaphore.eventTypes).toEqual(['build', 'tag', 'unknown', 'branch', 'deploy', 'pull_request']);
  });
});

describe('semaphore: build (Classic)', () => {
  it('test_semaphore_build', () => {
    expectMessage(translate(classic('build', { commit: { ...COMMIT, message: 'Create user account for Rocinante' } })), 'knighthood/master',
      '[Build 314](https://semaphoreci.com/donquixote/knighthood/branches/master/builds/314) passed:\n'
      + '* **Commit**: [a490b8d508e: Create user account for Rocinante](https://github.com/donquixote/knighthood/commit/a490b8d508ebbdab1d77a5c2aefa35ceb2d62daf)\n'
      + '* **Author**: don@lamancha.com',
      'build');
  });

  it('names the project alone when there is no branch', () => {
    expect(translate(classic('build', { branch_name: '' })).messages[0]!.topic).toBe('knighthood');
  });
});

describe('semaphore: deploy (Classic)', () => {
  it('test_semaphore_deploy', () => {
    expectMessage(translate(deploy), 'knighthood/master',
      '[Deploy 17](https://semaphoreci.com/donquixote/knighthood/servers/lamancha-271/deploys/17) of [build 314](https://semaphoreci.com/donquixote/knighthood/branches/master/builds/314) passed:\n'
      + '* **Commit**: [a490b8d508e: Create user account for Rocinante](https://github.com/donquixote/knighthood/commit/a490b8d508ebbdab1d77a5c2aefa35ceb2d62daf)\n'
      + '* **Author**: don@lamancha.com\n'
      + '* **Server**: lamancha-271',
      'deploy');
  });
});

describe('semaphore: unknown (Classic)', () => {
  it('test_semaphore_unknown', () => {
    expectMessage(translate({ ...deploy, event: 'unknown' }), 'knighthood/master', 'unknown: passed', 'unknown');
  });
});

describe('semaphore: branch (2.0 push)', () => {
  it('test_semaphore2_push', () => {
    expectMessage(translate(push()), 'notifications/rw/webhook_impl',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/acabe58e-4bcc-4d39-be06-e98d71917703) pipeline **stopped**:\n'
      + '* **Commit**: [(2d9f5fcec1c)](https://github.com/renderedtext/notifications/commit/2d9f5fcec1ca7c68fa7bd44dd58ec4ff65814563) Implement webhooks for SemaphoreCI\n'
      + '* **Branch**: rw/webhook_impl\n'
      + '* **Author**: [radwo](https://github.com/radwo)',
      'branch');
  });

  it('test_semaphore2_push_non_gh_repo', () => {
    expectMessage(translate(push('https://gitlab.com/renderedtext/notifications')), 'notifications/rw/webhook_impl',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/acabe58e-4bcc-4d39-be06-e98d71917703) pipeline **stopped**:\n'
      + '* **Commit**: (2d9f5fcec1c) Implement webhooks for SemaphoreCI\n'
      + '* **Branch**: rw/webhook_impl\n'
      + '* **Author**: radwo',
      'branch');
  });

  it("reads the host as Python's urlsplit does", () => {
    const isGithub = (url: string) => translate(push(url)).messages[0]!.content.includes('[radwo](');
    expect(isGithub('https://user@GitHub.com:443/renderedtext/notifications')).toBe(true);
    expect(isGithub('https://github.com.evil.example/x')).toBe(false);
    expect(isGithub('github.com/renderedtext/notifications')).toBe(false);
    expect(isGithub('https://[::1]/x')).toBe(false);
  });
});

describe('semaphore: pull_request (2.0)', () => {
  it('test_semaphore_pull_request', () => {
    expectMessage(translate(pullRequest()), 'notifications/test-notifications',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/84383f37-d025-4811-b719-61c6acc92a1e) pipeline **failed**:\n'
      + '* **Pull request**: [Testing PR notifications](https://github.com/renderedtext/notifications/pull/3)\n'
      + '* **Branch**: test-notifications\n'
      + '* **Author**: [radwo](https://github.com/radwo)',
      'pull_request');
  });

  it('test_semaphore_pull_request_non_gh_repo', () => {
    expectMessage(translate(pullRequest('https://bitbucket.org/renderedtext/notifications')), 'notifications/test-notifications',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/84383f37-d025-4811-b719-61c6acc92a1e) pipeline **failed**:\n'
      + '* **Pull request**: Testing PR notifications (#3)\n'
      + '* **Branch**: test-notifications\n'
      + '* **Author**: radwo',
      'pull_request');
  });
});

describe('semaphore: tag (2.0)', () => {
  it('test_semaphore_tag', () => {
    expectMessage(translate(tag()), 'notifications',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **stopped**:\n'
      + '* **Tag**: [v1.0.1](https://github.com/renderedtext/notifications/tree/v1.0.1)\n'
      + '* **Author**: [radwo](https://github.com/radwo)',
      'tag');
  });

  it('test_semaphore_tag_non_gh_repo', () => {
    expectMessage(translate(tag('https://gitlab.com/renderedtext/notifications')), 'notifications',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **stopped**:\n'
      + '* **Tag**: v1.0.1\n'
      + '* **Author**: radwo',
      'tag');
  });
});

describe('semaphore: other 2.0 reference types', () => {
  it('test_semaphore_unknown_event', () => {
    expectMessage(translate(tag(REPO, 'unknown')), 'notifications',
      '[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **stopped** for unknown event',
      'unknown');
  });
});

describe('semaphore: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expectError(() => translate('event=build'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate(['event'])).message).toBe('payload is not a dict');
  });

  it('refuses missing keys and values of the wrong type', () => {
    expect(refusalOf(() => translate(classic('build', { build_number: '314' }))).message).toBe('payload["build_number"] is not an integer');
    expect(refusalOf(() => translate(classic('build', { commit: { ...COMMIT, id: null } }))).message).toBe('payload["commit"]["id"] is not a string');
    const { build_html_url: _b, ...noBuildUrl } = deploy as Record<string, unknown>;
    expect(refusalOf(() => translate(noBuildUrl)).message).toBe('payload["build_html_url"] is missing');
    expect(refusalOf(() => translate({})).message).toBe('payload["repository"] is missing');
    expect(refusalOf(() => translate(semaphore2({ reference_type: 'branch' }, 'w', 'passed'))).message).toBe('payload["revision"]["branch"] is not a dict');
    expect(refusalOf(() => translate(semaphore2({ reference_type: 'pull_request', pull_request: { number: 3, name: 'x', branch_name: 'b' } }, 'w', 'passed'))).message)
      .toBe('payload["revision"]["pull_request"]["number"] is not a string');
  });

  it('accepts an empty commit message (Zulip fails with a 500 there)', () => {
    expect(translate(classic('build', { commit: { ...COMMIT, message: '' } })).messages[0]!.content).toContain('[a490b8d508e: ](');
  });
});
