// Bitbucket Cloud's webhooks, against the messages Zulip's zerver/webhooks/bitbucket2/tests.py
// expects. The payloads are trimmed to what the integration reads, in Bitbucket's documented shape.
import { describe, expect, it } from 'vitest';
import {
  BadRequestError, InvalidJsonError, MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { bitbucket2, userInfo } from '../../../resolvers/webhooks/integrations/bitbucket2.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { WildValue } from '../../../resolvers/webhooks/payload.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

function send(event: string | null, payload: unknown, params: Record<string, string> = {}): WebhookOutcome {
  return translateWith(bitbucket2, { body: payload, headers: event === null ? {} : { 'X-Event-Key': event }, params });
}

const unsupported = (event: string) => `The '${event}' event isn't currently supported by the Bitbucket2 webhook; ignoring`;

const REPO_URL = 'https://bitbucket.org/kolaszek/repository-name';
const html = (href: string) => ({ html: { href } });
const user = (displayName: string, nickname = `${displayName} Kolaszek`) => ({
  type: 'user', display_name: displayName, nickname, links: html(`https://bitbucket.org/${displayName.toLowerCase()}/`),
});
const TOMASZ = user('Tomasz');
const REPOSITORY = { type: 'repository', name: 'Repository name', full_name: 'kolaszek/repository-name', links: html(REPO_URL) };

const TOPIC = 'Repository name';
const TOPIC_BRANCH = 'Repository name / master';
const TOPIC_PR = 'Repository name / PR #1 new commit';
const TOPIC_ISSUE = 'Repository name / issue #1 Bug';

describe('push', () => {
  const SHA = '84b96adc644a30fd6465b3d196369d880762afed';
  const ROW = `* first commit ([84b96adc644](${REPO_URL}/commits/${SHA}))`;
  const BRANCH_URL = `${REPO_URL}/branch/master`;
  const ref = (type: 'branch' | 'tag', name: string, hash = SHA) => ({
    type, name, links: html(type === 'tag' ? `${REPO_URL}/commits/tag/${name}` : `${REPO_URL}/branch/${name}`), target: { type: 'commit', hash },
  });
  const commit = (author: Json, hash = SHA, message = 'first commit\n') => ({ type: 'commit', hash, message, author, links: html(`${REPO_URL}/commits/${hash}`) });
  const byUser = (name: string) => ({ raw: `${name} Kolek <tomasz-kolek@o2.pl>`, user: user(name) });
  const change = (extra: Json) => ({ new: ref('branch', 'master'), old: null, created: true, forced: false, truncated: false, closed: false, links: html(BRANCH_URL), commits: [], ...extra });
  const push = (...changes: Json[]) => ({ actor: TOMASZ, repository: REPOSITORY, push: { changes } });

  const ONE = push(change({ commits: [commit(byUser('Tomasz'))] }));
  const ONE_MESSAGE = `Tomasz [pushed](${BRANCH_URL}) 1 commit to branch master.\n\n${ROW}`;
  const SEVERAL = push(change({ commits: ['Ben', 'Tomasz', 'Ben'].map((name) => commit(byUser(name))) }));
  const SEVERAL_MESSAGE = `Tomasz [pushed](${BRANCH_URL}) 3 commits to branch master. Commits by Ben (2) and Tomasz (1).\n\n${ROW}\n${ROW}\n${ROW}`;
  const TEN = ['Tomasz', 'Tomasz', 'Tomasz', 'Tomasz', 'James', 'James', 'James', 'Brendon', 'Brendon', 'Ben'];
  const MANY = push(change({ commits: TEN.map((name) => commit(byUser(name))) }));
  const MANY_MESSAGE = `Tomasz [pushed](${BRANCH_URL}) 10 commits to branch master. Commits by Tomasz (4), James (3), Brendon (2) and others (1).\n\n${Array(10).fill(ROW).join('\n')}`;
  const FORCED = push(change({ old: ref('branch', 'master'), created: false, forced: true, new: ref('branch', 'master', '25f93d22b719e2d678a7ad5ee0ef0d1fcdf39c12'), commits: [commit(byUser('Tomasz'))] }));
  const FORCED_MESSAGE = `Tomasz [force pushed](${BRANCH_URL}) to branch master. Head is now 25f93d22b719e2d678a7ad5ee0ef0d1fcdf39c12.`;

  describe('of commits', () => {
    it('lists the commits', () => {
      expectMessage(send('repo:push', ONE), TOPIC_BRANCH, ONE_MESSAGE, 'push');
    });

    it('credits several committers', () => {
      expectMessage(send('repo:push', SEVERAL), TOPIC_BRANCH, SEVERAL_MESSAGE);
    });

    it('counts committers beyond three as others', () => {
      expectMessage(send('repo:push', MANY), TOPIC_BRANCH, MANY_MESSAGE);
    });

    it('says when Bitbucket left commits out, and credits authors who have no account by their first name', () => {
      const from = '6f161a7bced94430ac8947d87dbf45c6deee3fb0';
      const compare = `${REPO_URL}/branches/compare/${from}..1221f2fda6f1e3654b09f1f3a08390e4cb25bb48`;
      const commits = Array.from({ length: 5 }, () => commit({ raw: 'Tomasz Kolek <tomasz-kolek@go2.pl>' }, from, 'a\n'));
      const payload = push(change({ old: ref('branch', 'master'), created: false, truncated: true, links: html(compare), commits }));
      const row = `* a ([6f161a7bced](${REPO_URL}/commits/${from}))\n`;
      expectMessage(send('repo:push', payload), TOPIC_BRANCH, `Tomasz [pushed](${compare}) 5 commits to branch master.\n\n${row.repeat(5)}[and more commit(s)]`);
    });

    it('says nothing of a push without changes', () => {
      expect(send('repo:push', push()).messages).toEqual([]);
    });
  });

  describe('with the branches option', () => {
    const only = { branches: 'master,development' };
    const others = { branches: 'changes,development' };

    it('sends pushes to the branches named', () => {
      expectMessage(send('repo:push', ONE, only), TOPIC_BRANCH, ONE_MESSAGE);
      expectMessage(send('repo:push', SEVERAL, only), TOPIC_BRANCH, SEVERAL_MESSAGE);
      expectMessage(send('repo:push', MANY, only), TOPIC_BRANCH, MANY_MESSAGE);
      expectMessage(send('repo:push', FORCED, only), TOPIC_BRANCH, FORCED_MESSAGE);
    });

    it('drops pushes to other branches', () => {
      for (const payload of [ONE, SEVERAL, MANY, FORCED]) expect(send('repo:push', payload, others).messages).toEqual([]);
    });

    it('judges a push by its last change, as Zulip does', () => {
      const payload = push(change({ commits: [commit(byUser('Tomasz'))] }), change({ new: ref('tag', 'a'), commits: [] }));
      expect(send('repo:push', payload, others).messages).toEqual([
        { topic: TOPIC_BRANCH, content: ONE_MESSAGE },
        { topic: TOPIC, content: `Tomasz pushed tag [a](${REPO_URL}/commits/tag/a).` },
      ]);
    });
  });

  describe('of branches', () => {
    it('says a branch was force pushed', () => {
      expectMessage(send('repo:push', FORCED), TOPIC_BRANCH, FORCED_MESSAGE);
    });

    it('says a branch was deleted', () => {
      const payload = push(change({ new: null, old: ref('branch', 'master'), created: false, closed: true, links: undefined }));
      expectMessage(send('repo:push', payload), TOPIC_BRANCH, 'Tomasz deleted branch master.');
    });
  });

  describe('of tags', () => {
    const tag = (name: string) => change({ new: ref('tag', name), links: undefined });

    it('says a tag was pushed', () => {
      expectMessage(send('repo:push', push(tag('a'))), TOPIC, `Tomasz pushed tag [a](${REPO_URL}/commits/tag/a).`);
    });

    it('says a tag was removed', () => {
      const payload = push(change({ new: null, old: ref('tag', 'a'), created: false, closed: true, links: undefined }));
      expectMessage(send('repo:push', payload), TOPIC, `Tomasz removed tag [a](${REPO_URL}/commits/tag/a).`);
    });

    it('sends a message for each tag', () => {
      expect(send('repo:push', push(tag('a'), tag('b'))).messages).toEqual([
        { topic: TOPIC, content: `Tomasz pushed tag [a](${REPO_URL}/commits/tag/a).` },
        { topic: TOPIC, content: `Tomasz pushed tag [b](${REPO_URL}/commits/tag/b).` },
      ]);
    });

    it('sends branches and tags pushed together to their own topics', () => {
      const payload = push(change({ commits: [commit(byUser('Tomasz'))] }), tag('a'));
      const outcome = send('repo:push', payload, { branches: 'master,development' });
      expect(outcome.eventType).toBe('push');
      expect(outcome.messages).toEqual([
        { topic: TOPIC_BRANCH, content: ONE_MESSAGE },
        { topic: TOPIC, content: `Tomasz pushed tag [a](${REPO_URL}/commits/tag/a).` },
      ]);
    });
  });
});

describe('fork', () => {
  it('links the fork', () => {
    const payload = { actor: TOMASZ, repository: REPOSITORY, fork: { ...REPOSITORY, name: 'Repository name2', full_name: 'kolaszek/repository-name2', links: html('https://bitbucket.org/kolaszek/repository-name2') } };
    expectMessage(send('repo:fork', payload), TOPIC, 'Tomasz forked the repository into [kolaszek/repository-name2](https://bitbucket.org/kolaszek/repository-name2).', 'fork');
  });
});

describe('commit_comment', () => {
  it('quotes the comment', () => {
    const sha = '32c4ea19aa3af10acd08e419e2c354941a365d74';
    const commit = { type: 'commit', hash: sha, links: html(`${REPO_URL}/commits/${sha}`) };
    const payload = {
      actor: TOMASZ, repository: REPOSITORY, commit: { type: 'base_commit', hash: sha, message: 'c\n' },
      comment: { id: 3354963, user: TOMASZ, commit, content: { raw: 'Nice fix!', markup: 'markdown' }, links: html(`${REPO_URL}/commits/${sha}#comment-3354963`) },
    };
    expectMessage(send('repo:commit_comment_created', payload), TOPIC, `Tomasz [commented](${REPO_URL}/commits/${sha}#comment-3354963) on [32c4ea19aa3](${REPO_URL}/commits/${sha}):\n~~~ quote\nNice fix!\n~~~`, 'commit_comment');
  });
});

describe('change_commit_status', () => {
  it('links the build and the commit', () => {
    const sha = '9fec847784abb10b2fa567ee63b85bd238955d0e';
    const payload = {
      actor: TOMASZ, repository: REPOSITORY,
      commit_status: {
        name: 'Unit Tests (Python)', state: 'SUCCESSFUL', key: 'mybuildtool', url: 'https://my-build-tool.com/builds/MY-PROJECT/BUILD-777', type: 'build',
        links: { commit: { href: `http://api.bitbucket.org/2.0/repositories/tk/test/commit/${sha}` } },
      },
    };
    const expected = `[System mybuildtool](https://my-build-tool.com/builds/MY-PROJECT/BUILD-777) changed status of [9fec847784a](${REPO_URL}/commits/${sha}) to SUCCESSFUL.`;
    expectMessage(send('repo:commit_status_created', payload), TOPIC, expected, 'change_commit_status');
    expectMessage(send('repo:commit_status_updated', payload), TOPIC, expected, 'change_commit_status');
  });
});

describe('issues', () => {
  const ISSUE_URL = `${REPO_URL}/issues/2/bug`;
  const issue = { type: 'issue', id: 1, title: 'Bug', kind: 'bug', state: 'new', content: { raw: 'Such a bug', markup: 'markdown' }, assignee: TOMASZ, reporter: TOMASZ, links: html(ISSUE_URL) };
  const created = { actor: TOMASZ, repository: REPOSITORY, issue };
  const commented = { ...created, comment: { id: 28973596, content: { raw: 'Ok' }, links: html(`${REPO_URL}/issues/2#comment-28973596`) } };
  const updated = { ...created, changes: { status: { old: 'new', new: 'open' } }, comment: commented.comment };

  describe('issue_created', () => {
    it('quotes the issue and names its assignee', () => {
      expectMessage(send('issue:created', created), TOPIC_ISSUE, `Tomasz created [issue #1](${ISSUE_URL}) (assigned to Tomasz):\n\n~~~ quote\nSuch a bug\n~~~`, 'issue_created');
    });

    it('names the issue when the URL fixes the topic', () => {
      const outcome = send('issue:created', created, { topic: 'notifications' });
      expect(outcome.messages[0]!.content).toBe(`Tomasz created [issue #1 Bug](${ISSUE_URL}) (assigned to Tomasz):\n\n~~~ quote\nSuch a bug\n~~~`);
    });

    it('leaves out an assignee and a description the issue has not', () => {
      const payload = { ...created, issue: { ...issue, assignee: null, content: { raw: '' } } };
      expectMessage(send('issue:created', payload), TOPIC_ISSUE, `Tomasz created [issue #1](${ISSUE_URL}).`);
    });
  });

  describe('issue_updated', () => {
    it('says the issue was updated', () => {
      expectMessage(send('issue:updated', updated), TOPIC_ISSUE, `Tomasz updated [issue #1](${ISSUE_URL}).`, 'issue_updated');
    });
  });

  describe('issue_commented', () => {
    it('links the comment', () => {
      expectMessage(send('issue:comment_created', commented), TOPIC_ISSUE, `Tomasz [commented](${REPO_URL}/issues/2#comment-28973596) on [issue #1](${ISSUE_URL}).`, 'issue_commented');
    });

    it('names the issue when the URL fixes the topic', () => {
      const outcome = send('issue:comment_created', commented, { topic: 'notifications' });
      expect(outcome.messages[0]!.content).toBe(`Tomasz [commented](${REPO_URL}/issues/2#comment-28973596) on [issue #1 Bug](${ISSUE_URL}).`);
    });
  });
});

describe('pull requests', () => {
  const PR_URL = `${REPO_URL}/pull-requests/1`;
  const end = (branch: string, hash: string) => ({ branch: { name: branch }, commit: { hash }, repository: REPOSITORY });
  const pullrequest = {
    type: 'pullrequest', id: 1, title: 'new commit', description: 'description', state: 'OPEN',
    source: end('new-branch', '9c833166dcef'), destination: end('master', '32c4ea19aa3a'),
    author: TOMASZ, reviewers: [user('Tomasz Kolek', 'tkolek')], links: html(PR_URL),
  };
  const pr = (extra: Json = {}) => ({ actor: TOMASZ, repository: REPOSITORY, pullrequest: { ...pullrequest, ...extra } });

  describe('pull_request_created', () => {
    const expected = `Tomasz created [PR #1](${PR_URL}) from \`new-branch\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription\n~~~`;

    it('names the branches and the first reviewer, and quotes the description', () => {
      expectMessage(send('pullrequest:created', pr()), TOPIC_PR, expected, 'pull_request_created');
    });

    it('names a reviewer by their display name alone', () => {
      const reviewer = { type: 'user', display_name: 'Tomasz Kolek', links: html('https://bitbucket.org/tkolek/') };
      expectMessage(send('pullrequest:created', pr({ reviewers: [reviewer] })), TOPIC_PR, expected);
    });

    it('names the PR when the URL fixes the topic', () => {
      const outcome = send('pullrequest:created', pr(), { topic: 'notifications' });
      expect(outcome.messages[0]!.content).toBe(`Tomasz created [PR #1 new commit](${PR_URL}) from \`new-branch\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription\n~~~`);
    });

    it('leaves out reviewers and a description the PR has not', () => {
      expectMessage(send('pullrequest:created', pr({ reviewers: [], description: '' })), TOPIC_PR, `Tomasz created [PR #1](${PR_URL}) from \`new-branch\` to \`master\`.`);
    });
  });

  describe('pull_request_updated', () => {
    it('names the first reviewer and quotes the description', () => {
      expectMessage(send('pullrequest:updated', pr()), TOPIC_PR, `Tomasz updated [PR #1](${PR_URL}) (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription\n~~~`, 'pull_request_updated');
    });
  });

  describe('pull_request_approved', () => {
    it('says the PR was approved', () => {
      expectMessage(send('pullrequest:approved', pr()), TOPIC_PR, `Tomasz approved [PR #1](${PR_URL}).`, 'pull_request_approved');
    });

    it('names the PR when the URL fixes the topic', () => {
      expect(send('pullrequest:approved', pr(), { topic: 'notifications' }).messages[0]!.content).toBe(`Tomasz approved [PR #1 new commit](${PR_URL}).`);
    });
  });

  describe('pull_request_unapproved', () => {
    it('says the approval was taken back', () => {
      expectMessage(send('pullrequest:unapproved', pr()), TOPIC_PR, `Tomasz unapproved [PR #1](${PR_URL}).`, 'pull_request_unapproved');
    });
  });

  describe('pull_request_rejected', () => {
    it('says the PR was declined', () => {
      expectMessage(send('pullrequest:rejected', pr({ state: 'DECLINED' })), TOPIC_PR, `Tomasz rejected [PR #1](${PR_URL}).`, 'pull_request_rejected');
    });
  });

  describe('pull_request_fulfilled', () => {
    it('says the PR was merged, from which branch to which', () => {
      expectMessage(send('pullrequest:fulfilled', pr({ state: 'MERGED' })), TOPIC_PR, `Tomasz merged [PR #1](${PR_URL}) from \`new-branch\` to \`master\`.`, 'pull_request_fulfilled');
    });
  });

  describe('comments', () => {
    const COMMENTS_URL = `${REPO_URL}/pull-requests/3`;
    const COMMENT_URL = `${COMMENTS_URL}/_/diff#comment-20576503`;
    const commented = { ...pr({ links: html(COMMENTS_URL) }), comment: { id: 20576503, content: { raw: 'Comment1', markup: 'markdown' }, links: html(COMMENT_URL) } };
    const cases: [event: string, action: string][] = [
      ['comment_created', `[commented](${COMMENT_URL})`],
      ['comment_updated', `updated a [comment](${COMMENT_URL})`],
      ['comment_deleted', `deleted a [comment](${COMMENT_URL})`],
    ];

    for (const [event, action] of cases) {
      describe(`pull_request_${event}`, () => {
        it('links and quotes the comment', () => {
          expectMessage(send(`pullrequest:${event}`, commented), TOPIC_PR, `Tomasz ${action} on [PR #1](${COMMENTS_URL}):\n\n~~~ quote\nComment1\n~~~`, `pull_request_${event}`);
        });

        it('names the PR when the URL fixes the topic', () => {
          const outcome = send(`pullrequest:${event}`, commented, { topic: 'notifications' });
          expect(outcome.messages[0]!.content).toBe(`Tomasz ${action} on [PR #1 new commit](${COMMENTS_URL}):\n\n~~~ quote\nComment1\n~~~`);
        });
      });
    }
  });
});

describe('repo:updated', () => {
  const changes = {
    website: { new: 'http://zulipchat.com', old: '' },
    name: { new: 'new-name', old: 'test-repo' },
    links: { new: {}, old: {} },
    language: { new: 'python', old: '' },
    full_name: { new: 'webhooktest/new-name', old: 'webhooktest/test-repo' },
    slug: { new: 'new-name', old: 'test-repo' },
    description: { new: 'Random description.', old: '' },
  };
  const updated = (extra: Json = {}) => ({
    actor: user('eeshangarg', 'Eeshan Garg'), changes: { ...changes, ...extra },
    repository: { ...REPOSITORY, name: 'new-name', full_name: 'webhooktest/new-name', links: html('https://bitbucket.org/webhooktest/new-name') },
  });

  it('lists the settings that changed, each on its line', () => {
    expectMessage(send('repo:updated', updated()), 'new-name', [
      'eeshangarg changed the website of the **new-name** repo to **http://zulipchat.com**.',
      'eeshangarg changed the name of the **new-name** repo from **test-repo** to **new-name**.',
      'eeshangarg changed the language of the **new-name** repo to **python**.',
      'eeshangarg changed the full name of the **new-name** repo from **webhooktest/test-repo** to **webhooktest/new-name**.',
      'eeshangarg changed the description of the **new-name** repo to **Random description.**',
    ].join('\n'), 'repo:updated');
  });

  it('prints a setting that is not text as Python does', () => {
    const links = { new: { avatar: { href: "https://x.org/a'b" } }, old: { avatar: { href: 'https://x.org/a' } }, };
    const empty = { new: '', old: '' };
    const outcome = send('repo:updated', updated({ website: empty, name: empty, language: empty, full_name: empty, description: empty, links }));
    expect(outcome.messages[0]!.content).toBe(`eeshangarg changed the links of the **new-name** repo from **{'avatar': {'href': 'https://x.org/a'}}** to **{'avatar': {'href': "https://x.org/a'b"}}**`);
  });
});

describe('users', () => {
  it('are named by display name, else nickname, else not at all', () => {
    const info = (value: Json) => userInfo(new WildValue('user', value));
    expect(info({ nickname: 'alice', noisy_field: 'whatever', display_name: 'Alice Smith' })).toBe('Alice Smith');
    expect(info({ nickname: 'alice' })).toBe('alice');
    expect(info({})).toBe('Unknown user');
  });
});

describe('requests Zulip refuses', () => {
  const approved = { actor: TOMASZ, repository: REPOSITORY, pullrequest: { id: 1, title: 'new commit', links: html(`${REPO_URL}/pull-requests/1`) } };

  it('is registered, with Zulip\'s event types and the branches option', () => {
    expect(integrationNamed('bitbucket2')).toBe(bitbucket2);
    expect(bitbucket2.displayName).toBe('Bitbucket2');
    expect(bitbucket2.eventTypes).toHaveLength(17);
    expect(bitbucket2.eventTypes).toContain('repo:updated');
    expect(bitbucket2.configOptions?.map((o) => o.key)).toEqual(['branches']);
  });

  it('refuses an event Zulip has no message for, with 200', () => {
    expectError(() => send('pullrequest:changes_request_created', approved), UnsupportedWebhookEventTypeError, unsupported('pullrequest:changes_request_created'));
    expectError(() => send('pullrequest:constructor', approved), UnsupportedWebhookEventTypeError, unsupported('pullrequest:constructor'));
    expectError(() => send('repo:imported', { actor: TOMASZ, repository: REPOSITORY }), UnsupportedWebhookEventTypeError, unsupported('repo:imported'));
    expectError(() => send('repo:push', [1, 2]), UnsupportedWebhookEventTypeError, unsupported('repo:push'));
  });

  it('refuses a request without the event header where the payload does not tell', () => {
    expectError(() => send(null, approved), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Event-Key'");
    expectError(() => send(null, { actor: TOMASZ, repository: REPOSITORY }), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Event-Key'");
  });

  it('needs no header where the payload tells', () => {
    expect(send(null, { actor: TOMASZ, repository: REPOSITORY, push: { changes: [] } }).eventType).toBe('push');
  });

  it('refuses a body that is not JSON', () => {
    expectError(() => send('repo:push', 'not json'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses payloads of the wrong shape with 400', () => {
    expectError(() => send('pullrequest:approved', { ...approved, repository: undefined }), BadRequestError, 'payload["repository"] is missing');
    expectError(() => send('pullrequest:approved', { ...approved, pullrequest: { ...approved.pullrequest, id: '1' } }), BadRequestError, 'payload["pullrequest"]["id"] is not an integer');
    expectError(() => send('pullrequest:approved', { ...approved, actor: { display_name: 7 } }), BadRequestError, 'payload["actor"]["display_name"] is not a string');
    expectError(() => send('pullrequest:created', approved), BadRequestError, 'payload["pullrequest"]["reviewers"] is missing');
    expectError(() => send('pullrequest:created', { ...approved, pullrequest: { ...approved.pullrequest, reviewers: {} } }), BadRequestError, 'payload["pullrequest"]["source"] is missing');
    expectError(() => send('pullrequest:updated', { ...approved, pullrequest: { ...approved.pullrequest, reviewers: [] } }), BadRequestError, 'payload["pullrequest"]["description"] is missing');
    expectError(() => send('pullrequest:created', { ...approved, pullrequest: { ...approved.pullrequest, reviewers: { a: 1 } } }), BadRequestError, 'payload["pullrequest"]["reviewers"] is not a list');
    expectError(() => send('repo:push', { actor: TOMASZ, repository: REPOSITORY, push: { changes: [{ new: null, old: null }] } }), BadRequestError, 'payload["push"]["changes"][0]["old"] is not a dict');
    expectError(() => send('repo:push', { actor: TOMASZ, repository: REPOSITORY, push: { changes: 'x' } }), BadRequestError, 'payload["push"]["changes"] is not a list');
    expectError(() => send('repo:push', { actor: TOMASZ, repository: REPOSITORY, push: {} }), BadRequestError, 'payload["push"]["changes"] is missing');
    const nameless = {
      new: { type: 'branch', name: 'master' }, forced: false, truncated: false, links: html(REPO_URL),
      commits: [{ hash: 'abc', message: 'm', links: html(REPO_URL), author: { raw: ' ' } }],
    };
    expectError(() => send('repo:push', { actor: TOMASZ, repository: REPOSITORY, push: { changes: [nameless] } }), BadRequestError, 'payload["push"]["changes"][0]["commits"][0]["author"]["raw"] names nobody');
    expectError(() => send('repo:updated', { actor: TOMASZ, repository: REPOSITORY, changes: {} }), BadRequestError, 'payload["changes"]["website"] is missing');
  });
});
