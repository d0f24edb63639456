// GitHub's webhooks, against the messages Zulip's zerver/webhooks/github/tests.py expects. The
// payloads are trimmed to what the integration reads, in GitHub's documented shape.
import { describe, expect, it } from 'vitest';
import {
  InvalidJsonError, MissingHttpEventHeaderError, ParleyError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { github, githubSponsors } from '../../../resolvers/webhooks/integrations/github/index.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { Integration, WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

function send(event: string | null, payload: unknown, params: Record<string, string> = {}, integration: Integration = github): WebhookOutcome {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = event === null ? {} : { 'X-GitHub-Event': event };
  return integration.translate(new IncomingWebhookRequest({ body, headers, params }));
}

function expectIgnored(outcome: WebhookOutcome): void {
  expect(outcome.messages).toEqual([]);
}

const user = (login: string) => ({ login, html_url: `https://github.com/${login}` });
const repo = (fullName: string, isPrivate = false) => ({
  name: fullName.split('/')[1],
  full_name: fullName,
  html_url: `https://github.com/${fullName}`,
  private: isPrivate,
});

const BAXTER_REPO = repo('baxterthehacker/public-repo');
const BAXTER = user('baxterthehacker');
const TOPIC_REPO = 'public-repo';
const TOPIC_ISSUE = 'public-repo / issue #2 Spelling error in the README file';
const TOPIC_PR = 'public-repo / PR #1 Update the README with new information';
const TOPIC_BRANCH = 'public-repo / changes';

describe('ping', () => {
  it('says the webhook is configured, in the repository topic', () => {
    const payload = { zen: 'Design for failure.', hook_id: 1, hook: { type: 'Repository' }, repository: repo('TomaszKolek/public-repo'), sender: user('TomaszKolek') };
    expectMessage(send('ping', payload), TOPIC_REPO, 'GitHub webhook has been successfully configured by TomaszKolek.', 'ping');
  });

  it("uses the organization's name for an organization's webhook", () => {
    const payload = { zen: 'Keep it logically awesome.', hook: { type: 'Organization' }, organization: { login: 'zulip-test-org' }, sender: user('eeshangarg') };
    expectMessage(send('ping', payload), 'zulip-test-org', 'GitHub webhook has been successfully configured by eeshangarg.');
  });
});

describe('push', () => {
  const COMPARE = 'https://github.com/baxterthehacker/public-repo/compare/9049f1265b7d...0d1a26e67d8f';
  const SHA = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';
  const ROW = `* Update README.md ([0d1a26e67d8](https://github.com/baxterthehacker/public-repo/commit/${SHA}))\n`;
  const commit = (author: string, username: string | null = author) => ({
    id: SHA,
    message: 'Update README.md\n\nThe second paragraph is not listed.',
    url: `https://github.com/baxterthehacker/public-repo/commit/${SHA}`,
    author: { name: author, email: `${author}@example.com`, ...(username === null ? {} : { username }) },
  });
  const push = (commits: unknown[], extra: Json = {}) => ({
    ref: 'refs/heads/changes', before: '9049f1265b7d61be4a8904a9a27120d2064dab3b', after: SHA,
    created: false, deleted: false, forced: false, compare: COMPARE, commits,
    repository: BAXTER_REPO, sender: BAXTER, ...extra,
  });
  const byMany = (counts: [string, number][]) => counts.flatMap(([name, n]) => Array.from({ length: n }, () => commit(name)));
  const ONE = push([commit('baxterthehacker')]);
  const ONE_MESSAGE = `baxterthehacker [pushed](${COMPARE}) 1 commit to branch changes.\n\n${ROW.trimEnd()}`;
  const SIX = push(byMany([['Tomasz', 3], ['Ben', 2], ['baxterthehacker', 1]]));
  const TEN = push(byMany([['Tomasz', 4], ['Ben', 3], ['James', 2], ['Zoe', 1]]));
  const FIFTY = push(byMany([['baxterthehacker', 50]]));

  it('lists a commit', () => {
    expectMessage(send('push', ONE), TOPIC_BRANCH, ONE_MESSAGE, 'push_commits');
  });

  it("credits a committer without a GitHub account by name", () => {
    const payload = {
      ...push([{ ...commit('John Snow', null), id: '2e8cf535fb38a3dab2476cdf856efda904ad4c94', url: 'https://github.com/eeshangarg/public-repo/commit/2e8cf535fb38a3dab2476cdf856efda904ad4c94', message: 'Update the README' }]),
      compare: 'https://github.com/eeshangarg/public-repo/compare/0383613da871...2e8cf535fb38',
      repository: repo('eeshangarg/public-repo'), sender: user('eeshangarg'),
    };
    expectMessage(send('push', payload), TOPIC_BRANCH, 'eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/0383613da871...2e8cf535fb38) 1 commit to branch changes. Commits by John Snow (1).\n\n* Update the README ([2e8cf535fb3](https://github.com/eeshangarg/public-repo/commit/2e8cf535fb38a3dab2476cdf856efda904ad4c94))');
  });

  it('credits several committers, most commits first', () => {
    expectMessage(send('push', SIX), TOPIC_BRANCH, `baxterthehacker [pushed](${COMPARE}) 6 commits to branch changes. Commits by Tomasz (3), Ben (2) and baxterthehacker (1).\n\n${ROW.repeat(6).trimEnd()}`);
  });

  it('counts committers beyond three as others', () => {
    expectMessage(send('push', TEN), TOPIC_BRANCH, `baxterthehacker [pushed](${COMPARE}) 10 commits to branch changes. Commits by Tomasz (4), Ben (3), James (2) and others (1).\n\n${ROW.repeat(10).trimEnd()}`);
  });

  it('lists twenty commits and counts the rest', () => {
    expectMessage(send('push', FIFTY), TOPIC_BRANCH, `baxterthehacker [pushed](${COMPARE}) 50 commits to branch changes.\n\n${ROW.repeat(20)}[and 30 more commit(s)]`);
  });

  it('names the repository with include_repository_name', () => {
    const params = { include_repository_name: 'true' };
    expectMessage(send('push', ONE, params), TOPIC_BRANCH, `baxterthehacker [pushed](${COMPARE}) 1 commit to branch changes of [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).\n\n${ROW.trimEnd()}`);
    expectMessage(send('push', SIX, params), TOPIC_BRANCH, `baxterthehacker [pushed](${COMPARE}) 6 commits to branch changes of [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo). Commits by Tomasz (3), Ben (2) and baxterthehacker (1).\n\n${ROW.repeat(6).trimEnd()}`);
  });

  it('keeps pushes to the branches the URL names, and only those', () => {
    for (const branches of ['master,changes', ' master , changes ']) {
      expectMessage(send('push', ONE, { branches }), TOPIC_BRANCH, ONE_MESSAGE);
      expect(send('push', FIFTY, { branches }).messages).toHaveLength(1);
      expect(send('push', TEN, { branches }).messages).toHaveLength(1);
    }
    for (const payload of [ONE, SIX, TEN, FIFTY]) expectIgnored(send('push', payload, { branches: 'master,development' }));
  });

  it('reports a deleted branch', () => {
    const payload = { ...push([], { ref: 'refs/heads/feature', deleted: true, compare: 'https://github.com/eeshangarg/public-repo/compare/2e8cf535fb38...000000000000' }), repository: repo('eeshangarg/public-repo'), sender: user('eeshangarg') };
    expectMessage(send('push', payload), 'public-repo / feature', 'eeshangarg [deleted](https://github.com/eeshangarg/public-repo/compare/2e8cf535fb38...000000000000) the branch feature.');
  });

  it('reports a branch pushed without new commits', () => {
    const payload = { ...push([], { ref: 'refs/heads/feature', created: true, compare: 'https://github.com/eeshangarg/public-repo/compare/feature' }), repository: repo('eeshangarg/public-repo'), sender: user('eeshangarg') };
    expectMessage(send('push', payload), 'public-repo / feature', 'eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/feature) the branch feature.');
  });

  it('reports force pushes', () => {
    const sha = '971d76ca309446a9c20381f6271cea8a59b4e40a';
    const forced = {
      ref: 'refs/heads/temp', created: false, deleted: false, forced: true,
      compare: 'https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094',
      commits: [{ id: sha, message: 'log: Add important.txt which is useful for logging errors.', url: `https://github.com/sbansal1999/zulip/commit/${sha}`, author: { name: 'Shlok', email: 's@example.com', username: 'sbansal1999' } }],
      repository: repo('sbansal1999/zulip'), sender: user('sbansal1999'),
    };
    expectMessage(send('push', forced), 'zulip / temp', `sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/${sha}))`);
    const removed = { ...forced, commits: [], compare: 'https://github.com/sbansal1999/zulip/compare/2084a91af9ca...9a8749ea8fe7' };
    expectMessage(send('push', removed), 'zulip / temp', 'sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/2084a91af9ca...9a8749ea8fe7) the branch temp.');
  });

  it('reports tags pushed and removed, whatever the branches option', () => {
    const tag = push([], { ref: 'refs/tags/abc', created: true });
    expectMessage(send('push', tag, { branches: 'master' }), TOPIC_REPO, 'baxterthehacker pushed tag abc.', 'push_tags');
    expectMessage(send('push', { ...tag, created: false, deleted: true }), TOPIC_REPO, 'baxterthehacker removed tag abc.');
    expectMessage(send('push', { ...tag, ref: 'refs/tags/v1.0!' }), TOPIC_REPO, 'baxterthehacker pushed tag v1.0!');
  });

  it("ignores the merge queue's pushes", () => {
    expectIgnored(send('push', push([commit('baxterthehacker')], { ref: 'refs/heads/gh-readonly-queue/main/pr-1-abcdef' })));
  });

  it('ignores private repositories with ignore_private_repositories', () => {
    const payload = { ...ONE, repository: repo('baxterthehacker/public-repo', true) };
    expectIgnored(send('push', payload, { ignore_private_repositories: 'true' }));
    expectMessage(send('push', payload, { ignore_private_repositories: 'false' }), TOPIC_BRANCH, ONE_MESSAGE);
    expectMessage(send('push', payload), TOPIC_BRANCH, ONE_MESSAGE);
    expectMessage(send('push', ONE, { ignore_private_repositories: 'true' }), TOPIC_BRANCH, ONE_MESSAGE);
  });
});

describe('create and delete', () => {
  it('reports a created tag', () => {
    const payload = { ref: '0.0.1', ref_type: 'tag', master_branch: 'master', repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('create', payload), TOPIC_REPO, 'baxterthehacker created tag 0.0.1.', 'create');
  });

  it('reports a deleted tag', () => {
    const payload = { ref: 'simple-tag', ref_type: 'tag', repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('delete', payload), TOPIC_REPO, 'baxterthehacker deleted tag simple-tag.', 'delete');
  });
});

const PR = {
  number: 1, title: 'Update the README with new information', html_url: 'https://github.com/baxterthehacker/public-repo/pull/1',
  body: 'This is a pretty simple change that we need to pull into master.', assignee: null, merged: false, active_lock_reason: null,
  head: { label: 'baxterthehacker:changes', ref: 'changes' }, base: { label: 'baxterthehacker:master', ref: 'master' },
};
const prEvent = (action: string, extra: Json = {}, pr: Json = {}) => ({
  action, number: 1, pull_request: { ...PR, ...pr }, repository: BAXTER_REPO, sender: BAXTER, ...extra,
});

describe('pull_request', () => {
  it('reports an opened PR with its branches and description', () => {
    expectMessage(send('pull_request', prEvent('opened')), TOPIC_PR, 'baxterthehacker opened [PR #1](https://github.com/baxterthehacker/public-repo/pull/1) from `baxterthehacker:changes` to `baxterthehacker:master`:\n\n~~~ quote\nThis is a pretty simple change that we need to pull into master.\n~~~', 'opened_pull_request');
  });

  it('names the PR in the message when the URL fixes the topic', () => {
    expectMessage(send('pull_request', prEvent('opened'), { topic: 'notifications' }), TOPIC_PR, 'baxterthehacker opened [PR #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1) from `baxterthehacker:changes` to `baxterthehacker:master`:\n\n~~~ quote\nThis is a pretty simple change that we need to pull into master.\n~~~');
  });

  it('mentions a preassigned assignee', () => {
    const payload = {
      ...prEvent('opened', {}, {
        number: 4, title: 'Improve README', html_url: 'https://github.com/eeshangarg/Scheduler/pull/4', body: null, assignee: user('eeshangarg'),
        head: { label: 'eeshangarg:improve-readme-2' }, base: { label: 'eeshangarg:master' },
      }),
      repository: repo('eeshangarg/Scheduler'), sender: user('eeshangarg'),
    };
    expectMessage(send('pull_request', payload), 'Scheduler / PR #4 Improve README', 'eeshangarg opened [PR #4](https://github.com/eeshangarg/Scheduler/pull/4) from `eeshangarg:improve-readme-2` to `eeshangarg:master` (assigned to eeshangarg).');
  });

  it('reports a reopened PR without its description', () => {
    expectMessage(send('pull_request', prEvent('reopened')), TOPIC_PR, 'baxterthehacker reopened [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).', 'opened_pull_request');
  });

  it('reports pushes to a PR as updates', () => {
    const expected = 'baxterthehacker updated [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).';
    expectMessage(send('pull_request', prEvent('synchronize')), TOPIC_PR, expected, 'updated_pull_request');
    expectMessage(send('pull_request', prEvent('synchronize', {}, { body: 'A body that is not news' })), TOPIC_PR, expected);
  });

  it('reports an edit, quoting a changed description', () => {
    expectMessage(send('pull_request', prEvent('edited', { changes: { title: { from: 'Old' } } })), TOPIC_PR, 'baxterthehacker edited [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).', 'updated_pull_request');
    const payload = {
      ...prEvent('edited', { changes: { body: { from: 'PR' } } }, { body: 'PR EDITED', html_url: 'https://github.com/cozyrohan/public-repo/pull/1' }),
      repository: repo('cozyrohan/public-repo'), sender: user('cozyrohan'),
    };
    expectMessage(send('pull_request', payload), TOPIC_PR, 'cozyrohan edited [PR #1](https://github.com/cozyrohan/public-repo/pull/1):\n\n~~~ quote\nPR EDITED\n~~~');
  });

  it('reports a PR closed or merged', () => {
    expectMessage(send('pull_request', prEvent('closed')), TOPIC_PR, 'baxterthehacker closed without merge [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).', 'closed_pull_request');
    expectMessage(send('pull_request', prEvent('closed'), { topic: 'notifications' }), TOPIC_PR, 'baxterthehacker closed without merge [PR #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1).');
    expectMessage(send('pull_request', prEvent('closed', {}, { merged: true })), TOPIC_PR, 'baxterthehacker merged [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).');
  });

  it("ignores a private repository's merge with ignore_private_repositories", () => {
    expectIgnored(send('pull_request', { ...prEvent('closed', {}, { merged: true }), repository: repo('baxterthehacker/public-repo', true) }, { ignore_private_repositories: 'true' }));
  });

  it('reports assignments', () => {
    expectMessage(send('pull_request', prEvent('assigned', { assignee: BAXTER })), TOPIC_PR, 'baxterthehacker assigned baxterthehacker to [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).', 'assigned_or_unassigned_pull_request');
    expectMessage(send('pull_request', prEvent('assigned', { assignee: BAXTER }), { topic: 'notifications' }), TOPIC_PR, 'baxterthehacker assigned baxterthehacker to [PR #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1).');
    const unassigned = {
      ...prEvent('unassigned', { assignee: user('eeshangarg') }, { title: 'Mention that Zulip rocks!', html_url: 'https://github.com/zulip-test-org/helloworld/pull/1' }),
      repository: repo('zulip-test-org/helloworld'), sender: user('eeshangarg'),
    };
    expectMessage(send('pull_request', unassigned), 'helloworld / PR #1 Mention that Zulip rocks!', 'eeshangarg unassigned eeshangarg from [PR #1](https://github.com/zulip-test-org/helloworld/pull/1).');
    // A title ending in punctuation ends the sentence.
    expectMessage(send('pull_request', unassigned, { topic: 'notifications' }), 'helloworld / PR #1 Mention that Zulip rocks!', 'eeshangarg unassigned eeshangarg from [PR #1 Mention that Zulip rocks!](https://github.com/zulip-test-org/helloworld/pull/1)');
  });

  it('reports a PR ready for review', () => {
    const payload = { ...prEvent('ready_for_review', {}, { number: 2, title: 'Test', html_url: 'https://github.com/Hypro999/temp-test-github-webhook/pull/2' }), repository: repo('Hypro999/temp-test-github-webhook'), sender: user('Hypro999') };
    expectMessage(send('pull_request', payload), 'temp-test-github-webhook / PR #2 Test', '**Hypro999** has marked [PR #2](https://github.com/Hypro999/temp-test-github-webhook/pull/2) as ready for review.', 'pull_request_ready_for_review');
  });

  it('reports review requests, of a user or a team', () => {
    const payload = {
      ...prEvent('review_requested', { requested_reviewer: user('showell') }, { title: 'This is just a test commit', html_url: 'https://github.com/eeshangarg/Scheduler/pull/1' }),
      repository: repo('eeshangarg/Scheduler'), sender: user('eeshangarg'),
    };
    expectMessage(send('pull_request', payload), 'Scheduler / PR #1 This is just a test commit', '**eeshangarg** requested [showell](https://github.com/showell) for a review on [PR #1](https://github.com/eeshangarg/Scheduler/pull/1).', 'pull_request_review_requested');
    expectMessage(send('pull_request', payload, { topic: 'notifications' }), 'Scheduler / PR #1 This is just a test commit', '**eeshangarg** requested [showell](https://github.com/showell) for a review on [PR #1 This is just a test commit](https://github.com/eeshangarg/Scheduler/pull/1).');
    const team = {
      ...prEvent('review_requested', { requested_team: { name: 'authority', html_url: 'https://github.com/orgs/test-org965/teams/authority' } }, { number: 4, title: 'testing webhook', html_url: 'https://github.com/test-org965/webhook-test/pull/4' }),
      repository: repo('test-org965/webhook-test'), sender: user('singhsourabh'),
    };
    expectMessage(send('pull_request', team), 'webhook-test / PR #4 testing webhook', '**singhsourabh** requested [authority](https://github.com/orgs/test-org965/teams/authority) for a review on [PR #4](https://github.com/test-org965/webhook-test/pull/4).');
  });

  it('reports locking and auto merge', () => {
    const tushar = (action: string, pr: Json = {}) => ({ ...prEvent(action, {}, { html_url: 'https://github.com/tushar912/public-repo/pull/1', ...pr }), repository: repo('tushar912/public-repo'), sender: user('tushar912') });
    expectMessage(send('pull_request', tushar('locked', { active_lock_reason: 'off-topic' })), TOPIC_PR, 'tushar912 has locked [PR #1](https://github.com/tushar912/public-repo/pull/1) as off-topic and limited conversation to collaborators.', 'locked_or_unlocked_pull_request');
    expectMessage(send('pull_request', tushar('unlocked')), TOPIC_PR, 'tushar912 has unlocked [PR #1](https://github.com/tushar912/public-repo/pull/1).');
    expectMessage(send('pull_request', tushar('auto_merge_enabled')), TOPIC_PR, 'tushar912 has enabled auto merge for [PR #1](https://github.com/tushar912/public-repo/pull/1).', 'pull_request_auto_merge');
    expectMessage(send('pull_request', tushar('auto_merge_disabled')), TOPIC_PR, 'tushar912 has disabled auto merge for [PR #1](https://github.com/tushar912/public-repo/pull/1).');
  });

  it('ignores the actions Zulip ignores (labels among them)', () => {
    for (const action of ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled']) {
      expectIgnored(send('pull_request', { action }));
    }
  });

  it('refuses the actions Zulip has no message for', () => {
    expectError(() => send('pull_request', prEvent('milestoned')), UnsupportedWebhookEventTypeError, "The 'pull_request:milestoned' event isn't currently supported by the GitHub webhook; ignoring");
  });
});

describe('pull_request_review', () => {
  const review = (body: string | null, action = 'submitted', extra: Json = {}) => ({
    ...prEvent(action, extra), review: { id: 2626884, body, state: 'approved', html_url: 'https://github.com/baxterthehacker/public-repo/pull/1#pullrequestreview-2626884', user: BAXTER },
  });

  it('quotes the review', () => {
    expectMessage(send('pull_request_review', review('Looks great!')), TOPIC_PR, 'baxterthehacker submitted [PR review](https://github.com/baxterthehacker/public-repo/pull/1#pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~', 'pull_request_review');
    expectMessage(send('pull_request_review', review('Looks great!'), { topic: 'notifications' }), TOPIC_PR, 'baxterthehacker submitted [PR review for #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1#pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~');
  });

  it('reports a review without a body', () => {
    const payload = {
      action: 'submitted', pull_request: { ...PR, number: 1581, title: 'grn_db_value_lock: unlock GRN_TYPE object before returning' },
      review: { body: null, html_url: 'https://github.com/groonga/groonga/pull/1581#pullrequestreview-1483047907' },
      repository: repo('groonga/groonga'), sender: user('kou'),
    };
    expectMessage(send('pull_request_review', payload), 'groonga / PR #1581 grn_db_value_lock: unlock GRN_TYPE obj...', 'kou submitted [PR review](https://github.com/groonga/groonga/pull/1581#pullrequestreview-1483047907).');
  });

  it("ignores GitHub's duplicate edit without changes", () => {
    expectIgnored(send('pull_request_review', review('Looks great!', 'edited', { changes: {} })));
    expectIgnored(send('pull_request_review', review('Looks great!', 'edited')));
  });
});

describe('pull_request_review_comment', () => {
  const comment = (action: string, extra: Json = {}) => ({
    ...prEvent(action, extra),
    comment: { id: 29724692, body: 'Maybe you should use more emojji on this line.', html_url: 'https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692', user: BAXTER },
  });

  it('quotes a new comment', () => {
    expectMessage(send('pull_request_review_comment', comment('created')), TOPIC_PR, 'baxterthehacker created [PR review comment](https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emojji on this line.\n~~~', 'pull_request_review_comment');
    expectMessage(send('pull_request_review_comment', comment('created'), { topic: 'notifications' }), TOPIC_PR, 'baxterthehacker created [PR review comment on #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emojji on this line.\n~~~');
  });

  it('mentions an edit without quoting it, and skips an edit that changed nothing', () => {
    expectMessage(send('pull_request_review_comment', comment('edited', { changes: { body: { from: 'Maybe' } } })), TOPIC_PR, 'baxterthehacker edited [PR review comment](https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692).');
    expectIgnored(send('pull_request_review_comment', comment('edited', { changes: { body: { from: 'Maybe you should use more emojji on this line.' } } })));
  });
});

const ISSUE = { number: 2, title: 'Spelling error in the README file', html_url: 'https://github.com/baxterthehacker/public-repo/issues/2', body: "It looks like you accidentally spelled 'commit' with two 't's.", user: BAXTER };

describe('issues', () => {
  const testingGh = (action: string, issue: Json, extra: Json = {}) => ({
    action, issue: { ...issue, html_url: `https://github.com/sbansal1999/testing-gh/issues/${issue['number']}`, body: 'Some body' },
    repository: repo('sbansal1999/testing-gh'), sender: user('sbansal1999'), ...extra,
  });
  const SEVEN = { number: 7, title: 'Testing when issue assigned!' };
  const NINE = { number: 9, title: 'idk man' };
  const SIX = { number: 6, title: 'This is a sample issue to test GH Integration Func' };
  const MILESTONE = { title: 'some_random_milestone', html_url: 'https://github.com/sbansal1999/testing-gh/milestone/1' };

  it('quotes an opened issue', () => {
    const payload = { action: 'opened', issue: ISSUE, repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('issues', payload), TOPIC_ISSUE, "baxterthehacker opened [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nIt looks like you accidentally spelled 'commit' with two 't's.\n~~~", 'issues');
    expectMessage(send('issues', payload, { topic: 'notifications' }), TOPIC_ISSUE, "baxterthehacker opened [issue #2 Spelling error in the README file](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nIt looks like you accidentally spelled 'commit' with two 't's.\n~~~");
  });

  it('reports closing and reopening', () => {
    const payload = { action: 'closed', issue: { ...ISSUE, body: null }, repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('issues', payload), TOPIC_ISSUE, 'baxterthehacker closed [issue #2](https://github.com/baxterthehacker/public-repo/issues/2).', 'issues');
    expectMessage(send('issues', { ...payload, action: 'reopened' }), TOPIC_ISSUE, 'baxterthehacker reopened [issue #2](https://github.com/baxterthehacker/public-repo/issues/2).');
  });

  it('reports assignments', () => {
    const assigned = testingGh('assigned', SEVEN, { assignee: user('sbansal1999') });
    expectMessage(send('issues', assigned), 'testing-gh / issue #7 Testing when issue assigned!', 'sbansal1999 assigned sbansal1999 to [issue #7](https://github.com/sbansal1999/testing-gh/issues/7).', 'issues');
    expectMessage(send('issues', assigned, { topic: 'notifications' }), 'testing-gh / issue #7 Testing when issue assigned!', 'sbansal1999 assigned sbansal1999 to [issue #7 Testing when issue assigned!](https://github.com/sbansal1999/testing-gh/issues/7)');
    const unassigned = testingGh('unassigned', NINE, { assignee: user('sbansal1999') });
    expectMessage(send('issues', unassigned), 'testing-gh / issue #9 idk man', 'sbansal1999 unassigned sbansal1999 from [issue #9](https://github.com/sbansal1999/testing-gh/issues/9).');
    expectMessage(send('issues', unassigned, { topic: 'notifications' }), 'testing-gh / issue #9 idk man', 'sbansal1999 unassigned sbansal1999 from [issue #9 idk man](https://github.com/sbansal1999/testing-gh/issues/9).');
  });

  it('reports labels', () => {
    const labeled = testingGh('labeled', NINE, { label: { name: 'bug' } });
    expectMessage(send('issues', labeled), 'testing-gh / issue #9 idk man', '[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9](https://github.com/sbansal1999/testing-gh/issues/9).', 'issue_labeled_or_unlabeled');
    expectMessage(send('issues', labeled, { topic: 'notifications' }), 'testing-gh / issue #9 idk man', '[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9 idk man](https://github.com/sbansal1999/testing-gh/issues/9).');
    expectMessage(send('issues', { ...labeled, action: 'unlabeled' }), 'testing-gh / issue #9 idk man', '[sbansal1999](https://github.com/sbansal1999) removed the bug label from [Issue #9](https://github.com/sbansal1999/testing-gh/issues/9).');
  });

  it('reports milestones', () => {
    const milestoned = testingGh('milestoned', SIX, { milestone: MILESTONE });
    const topic = 'testing-gh / issue #6 This is a sample issue to test GH I...';
    expectMessage(send('issues', milestoned), topic, '[sbansal1999](https://github.com/sbansal1999) added milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) to [issue #6](https://github.com/sbansal1999/testing-gh/issues/6).', 'issue_milestoned_or_demilestoned');
    expectMessage(send('issues', milestoned, { topic: 'notifications' }), topic, '[sbansal1999](https://github.com/sbansal1999) added milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) to [issue #6 This is a sample issue to test GH Integration Func](https://github.com/sbansal1999/testing-gh/issues/6).');
    expectMessage(send('issues', { ...milestoned, action: 'demilestoned' }), topic, '[sbansal1999](https://github.com/sbansal1999) removed milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) from [issue #6](https://github.com/sbansal1999/testing-gh/issues/6).');
  });

  it('reports transfers, from both ends', () => {
    const transferred = {
      action: 'transferred',
      issue: { number: 4, title: 'Fixture collection', html_url: 'https://github.com/CrisisCollab/TestWebhook/issues/4', body: null },
      changes: {
        new_repository: { name: 'admin-frontend-mvp', full_name: 'CrisisCollab/admin-frontend-mvp' },
        new_issue: { number: 4, html_url: 'https://github.com/CrisisCollab/admin-frontend-mvp/issues/4' },
      },
      repository: repo('CrisisCollab/TestWebhook'), sender: user('Aditya8840'),
    };
    expectMessage(send('issues', transferred), 'TestWebhook / issue #4 Fixture collection', 'Aditya8840 transferred [issue #4 Fixture collection](https://github.com/CrisisCollab/TestWebhook/issues/4) to [CrisisCollab/admin-frontend-mvp/#4](https://github.com/CrisisCollab/admin-frontend-mvp/issues/4).', 'issues_transferred');
    const opened = {
      action: 'opened',
      issue: { number: 4, title: 'Fixture collection', html_url: 'https://github.com/CrisisCollab/admin-frontend-mvp/issues/4', body: null },
      changes: {
        old_repository: { name: 'TestWebhook', full_name: 'CrisisCollab/TestWebhook' },
        old_issue: { number: 4, html_url: 'https://github.com/CrisisCollab/TestWebhook/issues/4' },
      },
      repository: repo('CrisisCollab/admin-frontend-mvp'), sender: user('Aditya8840'),
    };
    expectMessage(send('issues', opened), 'admin-frontend-mvp / issue #4 Fixture collection', '[Issue #4 Fixture collection](https://github.com/CrisisCollab/admin-frontend-mvp/issues/4) was transferred from [CrisisCollab/TestWebhook#4](https://github.com/CrisisCollab/TestWebhook/issues/4).', 'issues_opened_via_transfer');
  });
});

describe('issue_comment', () => {
  const COMMENT = { id: 99262140, body: "You are totally right! I'll get this fixed right away.", html_url: 'https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140', user: BAXTER };
  const payload = { action: 'created', issue: ISSUE, comment: COMMENT, repository: BAXTER_REPO, sender: BAXTER };

  it('quotes a comment on an issue', () => {
    expectMessage(send('issue_comment', payload), TOPIC_ISSUE, "baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140) on [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nYou are totally right! I'll get this fixed right away.\n~~~", 'issue_comment');
    expectMessage(send('issue_comment', payload, { topic: 'notifications' }), TOPIC_ISSUE, "baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140) on [issue #2 Spelling error in the README file](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nYou are totally right! I'll get this fixed right away.\n~~~");
  });

  it('reports a deleted comment', () => {
    const deleted = {
      action: 'deleted',
      issue: { number: 5, title: 'This is a new issue', html_url: 'https://github.com/eeshangarg/Scheduler/issues/5' },
      comment: { body: 'This is a comment on this new issue.', html_url: 'https://github.com/eeshangarg/Scheduler/issues/5#issuecomment-425164194' },
      repository: repo('eeshangarg/Scheduler'), sender: user('eeshangarg'),
    };
    expectMessage(send('issue_comment', deleted), 'Scheduler / issue #5 This is a new issue', 'eeshangarg deleted a [comment](https://github.com/eeshangarg/Scheduler/issues/5#issuecomment-425164194) on [issue #5](https://github.com/eeshangarg/Scheduler/issues/5):\n\n~~~ quote\nThis is a comment on this new issue.\n~~~');
  });

  it("uses the PR's topic for a comment on a PR", () => {
    const onPr = {
      action: 'created',
      issue: { number: 1, title: 'Update the README with new information', html_url: 'https://github.com/sbansal1999/public-repo/pull/1', pull_request: { html_url: 'https://github.com/sbansal1999/public-repo/pull/1' } },
      comment: { body: 'Some comment', html_url: 'https://github.com/sbansal1999/public-repo/pull/1#issuecomment-1631445420' },
      repository: repo('sbansal1999/public-repo'), sender: user('sbansal1999'),
    };
    expectMessage(send('issue_comment', onPr), TOPIC_PR, 'sbansal1999 [commented](https://github.com/sbansal1999/public-repo/pull/1#issuecomment-1631445420) on [PR #1](https://github.com/sbansal1999/public-repo/pull/1):\n\n~~~ quote\nSome comment\n~~~');
  });

  it('skips an edit that changed nothing, and reports one that did', () => {
    expectIgnored(send('issue_comment', { ...payload, action: 'edited', changes: { body: { from: COMMENT.body } } }));
    expectMessage(send('issue_comment', { ...payload, action: 'edited', changes: { body: { from: 'You are right' } } }), TOPIC_ISSUE, "baxterthehacker edited a [comment](https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140) on [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nYou are totally right! I'll get this fixed right away.\n~~~");
  });
});

describe('commit_comment', () => {
  it('quotes the comment', () => {
    const payload = {
      action: 'created',
      comment: { html_url: 'https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b#commitcomment-11056394', commit_id: '9049f1265b7d61be4a8904a9a27120d2064dab3b', body: 'This is a really good change! :+1:' },
      repository: BAXTER_REPO, sender: BAXTER,
    };
    expectMessage(send('commit_comment', payload), TOPIC_REPO, 'baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b#commitcomment-11056394) on [9049f1265b7](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b):\n~~~ quote\nThis is a really good change! :+1:\n~~~', 'commit_comment');
  });
});

describe('release', () => {
  const release = (name: string | null) => ({
    action: 'published',
    release: { tag_name: '0.0.1', name, html_url: 'https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1' },
    repository: BAXTER_REPO, sender: BAXTER,
  });

  it('names the release by its name, or else its tag', () => {
    const expected = 'baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.';
    expectMessage(send('release', release(null)), TOPIC_REPO, expected, 'release');
    expectMessage(send('release', release('0.0.1')), TOPIC_REPO, expected);
  });
});

describe('star and watch', () => {
  it('reports a star', () => {
    const payload = { action: 'created', starred_at: '2019-05-15T15:20:40Z', repository: repo('Codertocat/Hello-World'), sender: user('Codertocat') };
    expectMessage(send('star', payload), 'Hello-World', '[Codertocat](https://github.com/Codertocat) starred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).', 'star');
    expectMessage(send('star', { ...payload, action: 'deleted' }), 'Hello-World', '[Codertocat](https://github.com/Codertocat) unstarred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).');
  });

  it('reports a watch as a star', () => {
    const payload = { action: 'started', repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('watch', payload), TOPIC_REPO, 'baxterthehacker starred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).', 'watch');
  });
});

describe('fork', () => {
  it('links the fork', () => {
    const payload = { forkee: { name: 'public-repo', full_name: 'baxterandthehackers/public-repo', html_url: 'https://github.com/baxterandthehackers/public-repo' }, repository: BAXTER_REPO, sender: user('baxterandthehackers') };
    expectMessage(send('fork', payload), TOPIC_REPO, 'baxterandthehackers forked [public-repo](https://github.com/baxterandthehackers/public-repo).', 'fork');
  });
});

describe('repository, member, public, team_add', () => {
  const ORG_REPO = repo('baxterandthehackers/public-repo');

  it('reports a created repository, unless private and ignored', () => {
    const payload = { action: 'created', repository: ORG_REPO, sender: BAXTER };
    const expected = 'baxterthehacker created the repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo).';
    expectMessage(send('repository', payload), TOPIC_REPO, expected, 'repository');
    const privately = { ...payload, repository: repo('baxterandthehackers/public-repo', true) };
    expectMessage(send('repository', privately), TOPIC_REPO, expected);
    expectIgnored(send('repository', privately, { ignore_private_repositories: 'true' }));
  });

  it('reports a member added', () => {
    const payload = { action: 'added', member: user('octocat'), repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('member', payload), TOPIC_REPO, 'baxterthehacker added [octocat](https://github.com/octocat) to [public-repo](https://github.com/baxterthehacker/public-repo).', 'member');
  });

  it('reports a repository made public', () => {
    expectMessage(send('public', { repository: BAXTER_REPO, sender: BAXTER }), TOPIC_REPO, 'baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.', 'public');
  });

  it('reports a repository added to a team', () => {
    const payload = { team: { name: 'github' }, repository: ORG_REPO, sender: BAXTER };
    expectMessage(send('team_add', payload), TOPIC_REPO, 'The repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo) was added to team github.', 'team_add');
  });
});

describe('membership and team', () => {
  it("reports team membership in the organization's topic", () => {
    const payload = { action: 'added', scope: 'team', member: user('kdaigle'), team: { name: 'Contractors' }, organization: { login: 'baxterandthehackers' }, sender: BAXTER };
    expectMessage(send('membership', payload), 'baxterandthehackers organization', 'baxterthehacker added [kdaigle](https://github.com/kdaigle) to the Contractors team.', 'membership');
    expectMessage(send('membership', { ...payload, action: 'removed' }), 'baxterandthehackers organization', 'baxterthehacker removed [kdaigle](https://github.com/kdaigle) from the Contractors team.');
  });

  it('reports team edits', () => {
    const team = { name: 'Testing', description: 'A temporary team so that I can get some webhook fixtures!', privacy: 'closed' };
    expectMessage(send('team', { action: 'edited', changes: { description: { from: '' } }, team, sender: user('Hypro999') }), 'team Testing', '**Hypro999** changed the team description to:\n\n~~~ quote\nA temporary team so that I can get some webhook fixtures!\n~~~', 'team');
    expectMessage(send('team', { action: 'edited', changes: { name: { from: 'Testing' } }, team: { ...team, name: 'Testing Team' }, sender: user('Hypro999') }), 'team Testing Team', 'Team `Testing` was renamed to `Testing Team`.');
    expectMessage(send('team', { action: 'edited', changes: { privacy: { from: 'closed' } }, team: { ...team, name: 'Testing Team', privacy: 'secret' }, sender: user('Hypro999') }), 'team Testing Team', 'Team visibility changed to `secret`');
    expectMessage(send('team', { action: 'edited', changes: { bogus_key2: {}, bogus_key1: {} }, team: { name: 'My Team' } }), 'team My Team', 'Team has changes to `bogus_key1/bogus_key2` data.');
  });

  it('ignores the team actions Zulip ignores, refuses new ones', () => {
    for (const action of ['added_to_repository', 'created', 'deleted', 'removed_from_repository']) expectIgnored(send('team', { action }));
    expectError(() => send('team', { action: 'renamed' }), UnsupportedWebhookEventTypeError, "The 'unsupported team action renamed' event isn't currently supported by the GitHub webhook; ignoring");
  });
});

describe('status, check_run, page_build, deployment, gollum', () => {
  it('reports a commit status, linking its target', () => {
    const payload = { sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b', state: 'success', target_url: null, commit: { html_url: 'https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b' }, repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('status', payload), TOPIC_REPO, '[9049f1265b7](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed its status to success.', 'status');
    expectMessage(send('status', { ...payload, target_url: 'https://example.com/build/status' }), TOPIC_REPO, '[9049f1265b7](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed its status to [success](https://example.com/build/status).');
  });

  it('reports a completed check run and ignores one in progress', () => {
    const payload = {
      action: 'completed',
      check_run: { name: 'randscape', status: 'completed', conclusion: 'success', html_url: 'http://github.com/github/hello-world/runs/4', head_sha: 'd6fde92930d4715a2b49857d24b940956b26d2d3' },
      repository: { name: 'hello-world', full_name: 'github/hello-world', html_url: 'http://github.com/github/hello-world', private: false },
      sender: user('octocat'),
    };
    expectMessage(send('check_run', payload), 'hello-world / checks', 'Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))', 'check_run');
    expectIgnored(send('check_run', { ...payload, action: 'created', check_run: { ...payload.check_run, status: 'in_progress', conclusion: null } }));
  });

  it('reports a Pages build', () => {
    const payload = { build: { status: 'built', error: { message: null }, pusher: BAXTER }, repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('page_build', payload), TOPIC_REPO, 'GitHub Pages build, triggered by baxterthehacker, has finished building.', 'page_build');
    expectMessage(send('page_build', { ...payload, build: { ...payload.build, status: 'errored', error: { message: 'Something went wrong.' } } }), TOPIC_REPO, 'GitHub Pages build, triggered by baxterthehacker, has failed: \n~~~ quote\nSomething went wrong.\n~~~.');
  });

  it('reports deployments in the environment topic', () => {
    const payload = { deployment: { environment: 'production' }, repository: BAXTER_REPO, sender: BAXTER };
    expectMessage(send('deployment', payload), 'public-repo / Deployment on production', 'baxterthehacker created new deployment.', 'deployment');
    expectMessage(send('deployment_status', { ...payload, deployment_status: { state: 'success' } }), 'public-repo / Deployment on production', 'Deployment changed status to success.', 'deployment_status');
  });

  it('lists wiki pages', () => {
    const page = { page_name: 'Home', title: 'Home', action: 'created', html_url: 'https://github.com/baxterthehacker/public-repo/wiki/Home' };
    expectMessage(send('gollum', { pages: [page, page], repository: BAXTER_REPO, sender: user('jasonrudolph') }), 'public-repo / wiki pages', 'jasonrudolph:\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)', 'gollum');
  });
});

describe('discussion', () => {
  const TOPIC = 'webhook-tester discussion #3: Tips for Writing Clear and ...';
  const URL = 'https://github.com/Niloth-p/webhook-tester/discussions/3';
  const BODY = "Writing good commit messages is an art, but it's also an important part of maintaining a clear and understandable project history.";
  const discussion = (action: string, extra: Json = {}, fields: Json = {}) => ({
    action,
    discussion: { number: 3, title: 'Tips for Writing Clear and Concise Commit Messages', html_url: URL, body: BODY, category: { name: 'General' }, active_lock_reason: null, state_reason: null, ...fields },
    repository: repo('Niloth-p/webhook-tester'), sender: user('Niloth-p'), ...extra,
  });

  it('quotes a new discussion', () => {
    expectMessage(send('discussion', discussion('created')), TOPIC, `Niloth-p created [discussion #3](${URL}) in General:\n\n~~~ quote\n### Tips for Writing Clear and Concise Commit Messages\n${BODY}\n~~~`, 'discussion');
  });

  it('reports the generic actions', () => {
    for (const action of ['pinned', 'unpinned', 'reopened', 'unlocked']) {
      expectMessage(send('discussion', discussion(action)), TOPIC, `Niloth-p ${action} [discussion #3](${URL}).`);
    }
  });

  it('reports closing, locking and deleting', () => {
    expectMessage(send('discussion', { ...discussion('closed', {}, { state_reason: 'resolved' }), sender: user('Cordelia') }), TOPIC, `Cordelia closed [discussion #3](${URL}) as resolved.`);
    expectMessage(send('discussion', discussion('locked', {}, { active_lock_reason: 'resolved' })), TOPIC, `Niloth-p locked [discussion #3](${URL}) as resolved.`);
    expectMessage(send('discussion', discussion('deleted')), TOPIC, 'Niloth-p deleted discussion #3.');
  });

  it('reports edits of the title or the body', () => {
    expectMessage(send('discussion', discussion('edited', { changes: { title: { from: 'Tips' } } }, { title: 'Tips for Writing Good Commit Messages' })), 'webhook-tester discussion #3: Tips for Writing Good Commi...', `Niloth-p edited the title of [discussion #3](${URL}):\n\n~~~ quote\n### Tips for Writing Good Commit Messages\n~~~`);
    expectMessage(send('discussion', discussion('edited', { changes: { body: { from: 'Writing' } } })), TOPIC, `Niloth-p edited [discussion #3](${URL}):\n\n~~~ quote\n${BODY}\n~~~`);
  });

  it('reports labels, categories and transfers', () => {
    expectMessage(send('discussion', discussion('labeled', { label: { name: 'enhancement' } })), TOPIC, `Niloth-p added the enhancement label to [discussion #3](${URL}).`);
    expectMessage(send('discussion', discussion('unlabeled', { label: { name: 'enhancement' } })), TOPIC, `Niloth-p removed the enhancement label from [discussion #3](${URL}).`);
    const recategorized = discussion('category_changed', { changes: { category: { from: { name: 'General' } } } }, { category: { name: 'Ideas' } });
    expectMessage(send('discussion', recategorized), TOPIC, `Niloth-p changed the category of [discussion #3](${URL}) from General to Ideas.`);
    expectMessage(send('discussion', recategorized, { topic: 'discussions' }), TOPIC, `Niloth-p changed the category of [discussion #3 Tips for Writing Clear and Concise Commit Messages](${URL}) from General to Ideas.`);
    const transferred = discussion('transferred', { changes: { new_repository: { name: 'another-webhook-tester' }, new_discussion: { number: 1 } } });
    expectMessage(send('discussion', transferred), TOPIC, `Niloth-p transferred discussion #3 from webhook-tester to another-webhook-tester as [discussion #1](${URL}).`);
  });

  it('reports answers', () => {
    const fields = { number: 5, title: 'Understanding Project Directory Structure', html_url: 'https://github.com/Niloth-p/webhook-tester/discussions/5' };
    const answer = { id: 11460065, html_url: 'https://github.com/Niloth-p/webhook-tester/discussions/5#discussioncomment-11460065', body: "If you're looking for a detailed explanation, see CONTRIBUTING.md." };
    const topic = 'webhook-tester discussion #5: Understanding Project Direc...';
    expectMessage(send('discussion', discussion('answered', { answer }, fields)), topic, `Niloth-p marked [comment #11460065](https://github.com/Niloth-p/webhook-tester/discussions/5#discussioncomment-11460065) as the answer:\n\n~~~ quote\n${answer.body}\n~~~`);
    const oldAnswer = { ...answer, id: 11460059, html_url: 'https://github.com/Niloth-p/webhook-tester/discussions/5#discussioncomment-11460059' };
    expectMessage(send('discussion', { ...discussion('unanswered', { old_answer: oldAnswer }, fields), sender: user('Cordelia') }), topic, 'Cordelia marked [comment #11460059](https://github.com/Niloth-p/webhook-tester/discussions/5#discussioncomment-11460059) as not the answer.');
  });

  it('refuses an action it has no sentence for', () => {
    expectError(() => send('discussion', discussion('frobnicated')), UnsupportedWebhookEventTypeError, "The 'discussion:frobnicated' event isn't currently supported by the GitHub webhook; ignoring");
  });
});

describe('discussion_comment', () => {
  const payload = (action: string, body: string) => ({
    action,
    comment: { body, html_url: 'https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416' },
    discussion: { number: 20, title: 'Lets discuss', html_url: 'https://github.com/sbansal1999/testing-gh/discussions/20' },
    repository: repo('sbansal1999/testing-gh'), sender: user('sbansal1999'),
    ...(action === 'edited' ? { changes: { body: { from: body } } } : {}),
  });

  it('quotes comments, even edits that changed nothing', () => {
    expectMessage(send('discussion_comment', payload('created', 'some random comment')), 'testing-gh discussion #20: Lets discuss', 'sbansal1999 [commented](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment\n~~~', 'discussion_comment');
    expectMessage(send('discussion_comment', payload('created', 'some random comment'), { topic: 'notifications' }), 'testing-gh discussion #20: Lets discuss', 'sbansal1999 [commented](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20 Lets discuss](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment\n~~~');
    expectMessage(send('discussion_comment', payload('edited', 'some random comment edited')), 'testing-gh discussion #20: Lets discuss', 'sbansal1999 edited a [comment](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment edited\n~~~');
  });
});

describe('GitHub Sponsors', () => {
  const sponsorship = (extra: Json = {}) => ({
    sponsorship: { privacy_level: 'private', tier: { name: '$5 a month' } }, sender: user('monalisa'), ...extra,
  });

  it('is served at githubsponsors with the same event types', () => {
    expect(integrationNamed('githubsponsors')).toBe(githubSponsors);
    expect(githubSponsors.eventTypes).toEqual(github.eventTypes);
  });

  it('reports sponsorships in the sponsors topic', () => {
    const cases: [string, Json, string][] = [
      ['cancelled', {}, 'monalisa cancelled their $5 a month subscription.'],
      ['created', {}, 'monalisa subscribed for $5 a month.'],
      ['pending_cancellation', { effective_date: '2020-01-05T00:00:00+00:00' }, "monalisa's $5 a month subscription will be cancelled on January 05, 2020."],
      ['pending_tier_change', { effective_date: '2019-12-30T00:00:00+00:00', changes: { tier: { from: { name: '$10 a month' } } } }, "monalisa's subscription will change from $10 a month to $5 a month on December 30, 2019."],
      ['tier_changed', { changes: { tier: { from: { name: '$10 a month' } } } }, 'monalisa changed their subscription from $10 a month to $5 a month.'],
      ['edited', { changes: { privacy_level: { from: 'public' } } }, 'monalisa changed who can see their sponsorship from public to private.'],
    ];
    for (const [event, extra, expected] of cases) {
      expectMessage(send(event, { action: event, ...sponsorship(extra) }, {}, githubSponsors), 'sponsors', expected, event);
    }
  });

  it('refuses an effective date that is not one', () => {
    expectError(() => send('pending_cancellation', { action: 'pending_cancellation', ...sponsorship({ effective_date: '2020-02-30T00:00:00Z' }) }), ParleyError, 'payload["effective_date"] is not a date');
  });
});

describe('ignored events', () => {
  it('says nothing about the events Zulip ignores', () => {
    for (const event of ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'repository_vulnerability_alert']) {
      expectIgnored(send(event, {}));
    }
  });
});

describe('the integration', () => {
  it("is registered, with Zulip's event types and URL options", () => {
    expect(integrationNamed('github')).toBe(github);
    expect(github.displayName).toBe('GitHub');
    expect(github.eventTypes).toContain('push_commits');
    expect(github.eventTypes).toContain('opened_pull_request');
    expect(github.eventTypes).toHaveLength(46);
    expect(github.configOptions?.map((o) => o.key)).toEqual(['branches', 'ignore_private_repositories', 'include_repository_name']);
  });
});

describe('errors', () => {
  const push = { ref: 'refs/heads/main', created: false, deleted: false, forced: false, compare: 'https://example.com', commits: [], repository: BAXTER_REPO, sender: BAXTER };

  it("refuses events Zulip's GitHub integration does not support", () => {
    expectError(() => send('workflow_run', { action: 'completed', workflow_run: {}, repository: BAXTER_REPO, sender: BAXTER }), UnsupportedWebhookEventTypeError, "The 'workflow_run:completed' event isn't currently supported by the GitHub webhook; ignoring");
    expectError(() => send('security_advisory', {}), UnsupportedWebhookEventTypeError, "The 'security_advisory:???' event isn't currently supported by the GitHub webhook; ignoring");
    expectError(() => send('constructor', {}), UnsupportedWebhookEventTypeError, "The 'constructor:???' event isn't currently supported by the GitHub webhook; ignoring");
    expectError(() => send('pull_request', prEvent('toString')), UnsupportedWebhookEventTypeError, "The 'pull_request:toString' event isn't currently supported by the GitHub webhook; ignoring");
  });

  it('needs the X-GitHub-Event header', () => {
    const error = expectError(() => send(null, push), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-GitHub-Event'");
    expect(error.extra).toEqual({ header: 'X-GitHub-Event' });
  });

  it('refuses a body that is not JSON', () => {
    expectError(() => send('push', 'not json'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    const { commits: _, ...withoutCommits } = push;
    expectError(() => send('push', withoutCommits), ParleyError, 'payload["commits"] is missing');
    expectError(() => send('push', { ...push, sender: { login: 5 } }), ParleyError, 'payload["sender"]["login"] is not a string');
    expectError(() => send('push', { ...push, commits: [{ id: 'abc' }] }), ParleyError, 'payload["commits"][0]["author"] is missing');
    expectError(() => send('push', { ...push, repository: { name: 'public-repo' } }), ParleyError, 'payload["repository"]["private"] is missing');
    expectError(() => send('push', [push]), ParleyError, 'payload is not a dict');
    expectError(() => send('pull_request', prEvent('opened', {}, { number: '1' })), ParleyError, 'payload["pull_request"]["number"] is not an integer');
    expectError(() => send('issues', { action: 'opened', issue: null, repository: BAXTER_REPO, sender: BAXTER }), ParleyError, 'payload["issue"] is not a dict');
    expectError(() => send('ping', 'null'), ParleyError, 'payload is not a dict');
  });

  it('refuses URL options that are not booleans', () => {
    expectError(() => send('push', push, { ignore_private_repositories: 'yes' }), ParleyError, 'ignore_private_repositories is not valid JSON');
    expectError(() => send('push', push, { include_repository_name: '1' }), ParleyError, 'include_repository_name is not a boolean');
  });
});
