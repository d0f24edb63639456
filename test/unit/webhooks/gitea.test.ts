// Gitea's webhooks, against the messages Zulip's zerver/webhooks/gitea/tests.py expects. The payloads
// are trimmed to what the integration reads, in the shape Gitea sends. Gitea shares the Gogs
// translation (gogs.test.ts); these tests cover what it reads differently and Zulip's Gitea cases.
import { describe, expect, it } from 'vitest';
import {
  InvalidJsonError, MissingHttpEventHeaderError, ParleyError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { gitea } from '../../../resolvers/webhooks/integrations/gitea.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

function send(event: string | null, payload: unknown, params: Record<string, string> = {}, header = 'X-Gitea-Event'): WebhookOutcome {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = event === null ? {} : { [header]: event };
  return gitea.translate(new IncomingWebhookRequest({ body, headers, params }));
}

const user = (name: string) => ({ id: 21818, login: name, username: name, full_name: '', email: `${name}@example.com` });
const repo = (owner: string, name: string, host = 'https://try.gitea.io') => ({
  id: 14576, name, full_name: `${owner}/${name}`, html_url: `${host}/${owner}/${name}`, owner: user(owner), private: false,
});

const KOSTEK = user('kostekIV');
const TEST = repo('kostekIV', 'test');
const ISSUE_3 = 'https://try.gitea.io/kostekIV/test/issues/3';

describe('push', () => {
  const shas = [
    '2ec0c971d04723523aa20f2b378f8b419b47d4ec', '6cb1701c8b0114ad716f4cd49153076e7109cb85', '6773eabc0778a3e38997c06a13f5f0c48b67e5dc',
    '337402cf675ce7082ddcd23d06a116c85241825a', '0a38cad3fac3a13bb78b738d13f15ce9cc3343fa',
  ];
  const COMPARE = 'https://try.gitea.io/kostekIV/test/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...2ec0c971d04723523aa20f2b378f8b419b47d4ec';
  const payload = {
    ref: 'refs/heads/d',
    before: '21138d2ca0ce18f8e037696fdbe1b3f0c211f630',
    after: shas[0],
    compare_url: COMPARE,
    commits: shas.map((id) => ({
      id, message: 'commit\n', url: `https://try.gitea.io/kostekIV/test/commit/${id}`,
      author: { name: 'kostekIV', email: 'koscis.j@gmail.com', username: 'kostekIV' },
      committer: { name: 'kostekIV', email: 'koscis.j@gmail.com', username: 'kostekIV' },
    })),
    repository: TEST,
    pusher: KOSTEK,
    sender: KOSTEK,
  };
  const MESSAGE = `kostekIV [pushed](${COMPARE}) 5 commits to branch d.\n\n${shas.map((id) => `* commit ([${id.slice(0, 11)}](https://try.gitea.io/kostekIV/test/commit/${id}))`).join('\n')}`;

  it('lists the commits, crediting no one else when the pusher made them all', () => {
    expectMessage(send('push', payload), 'test / d', MESSAGE, 'push');
  });

  it('keeps pushes to the branches the URL names, and only those', () => {
    expectMessage(send('push', payload, { branches: 'd' }), 'test / d', MESSAGE);
    expect(send('push', payload, { branches: 'changes,development' }).messages).toEqual([]);
  });
});

describe('create', () => {
  it('links the new branch', () => {
    const payload = { sha: '01efc1fe09d4fba25397a386a6c623fd12eadd79', ref: 'test-branch', ref_type: 'branch', repository: TEST, sender: KOSTEK };
    expectMessage(send('create', payload), 'test / test-branch', 'kostekIV created [test-branch](https://try.gitea.io/kostekIV/test/src/test-branch) branch.', 'create');
  });
});

describe('pull_request', () => {
  const branch = (ref: string) => ({ label: ref, ref, sha: '01efc1fe09d4fba25397a386a6c623fd12eadd79', repo_id: 14576 });
  const pr = (action: string, fields: Json = {}, extra: Json = {}) => ({
    action,
    number: 5,
    pull_request: {
      id: 1906, number: 5, user: KOSTEK, title: 'test 2', body: '', assignee: null, assignees: null,
      html_url: 'https://try.gitea.io/kostekIV/test/pulls/5', merged: false, merged_by: null,
      base: branch('master'), head: branch('d'), ...fields,
    },
    repository: TEST,
    sender: KOSTEK,
    ...extra,
  });
  const TOPIC = 'test / PR #1906 test 2';

  it('opened', () => {
    const opened = pr('opened', { id: 1905, number: 4, title: 'New pr', html_url: 'https://try.gitea.io/kostekIV/test/pulls/4', head: branch('test-branch') });
    expectMessage(send('pull_request', opened), 'test / PR #1905 New pr', 'kostekIV opened [PR #4](https://try.gitea.io/kostekIV/test/pulls/4) from `test-branch` to `master`.', 'pull_request');
  });

  it('merged, by whoever merged it', () => {
    const merged = pr('closed', {
      id: 1905, number: 1905, title: 'Fix remove-op on reaction event', html_url: 'https://try.gitea.io/kostekIV/test/pulls/4',
      merged: true, merged_by: KOSTEK, base: branch('main'), head: branch('reaction-metadata'),
    }, { repository: repo('kostekIV', 'zulip-terminal'), sender: user('someone') });
    expectMessage(send('pull_request', merged), 'zulip-terminal / PR #1905 Fix remove-op on reaction event', 'kostekIV merged [PR #1905](https://try.gitea.io/kostekIV/test/pulls/4) from `reaction-metadata` to `main`.');
  });

  it('edited, without the branches', () => {
    expectMessage(send('pull_request', pr('edited')), TOPIC, 'kostekIV edited [PR #5](https://try.gitea.io/kostekIV/test/pulls/5).');
  });

  it('reopened', () => {
    expectMessage(send('pull_request', pr('reopened')), TOPIC, 'kostekIV reopened [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master`.');
  });

  it('closed', () => {
    expectMessage(send('pull_request', pr('closed')), TOPIC, 'kostekIV closed [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master`.');
  });

  it('credits the sender, not the author', () => {
    const closed = pr('closed', {
      id: 126085, number: 1, title: 'PR closed', user: user('Celebi_datatransfer'), html_url: 'https://gitea.com/Aneesh-Hegde/test-repo/pulls/1',
      base: branch('main'), head: branch('main'),
    }, { sender: user('Aneesh-Hegde') });
    expectMessage(send('pull_request', closed), 'test / PR #126085 PR closed', 'Aneesh-Hegde closed [PR #1](https://gitea.com/Aneesh-Hegde/test-repo/pulls/1) from `main` to `main`.');
  });

  it('assigned, naming the assignee', () => {
    expectMessage(send('pull_request', pr('assigned', { assignee: KOSTEK, assignees: [KOSTEK] })), TOPIC, 'kostekIV assigned kostekIV to [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master` (assigned to kostekIV).');
  });

  it('leaves out branches the payload does not give', () => {
    const { head: _, ...withoutHead } = pr('opened').pull_request;
    expectMessage(send('pull_request', { ...pr('opened'), pull_request: withoutHead }), TOPIC, 'kostekIV opened [PR #5](https://try.gitea.io/kostekIV/test/pulls/5).');
  });

  it('names the pull request when the URL fixes the topic', () => {
    expectMessage(send('pull_request', pr('synchronized'), { topic: 'PRs' }), TOPIC, 'kostekIV synchronized [PR #5 test 2](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master`.');
  });
});

describe('issues', () => {
  const issue = (action: string, title: string, assignee: unknown = KOSTEK) => ({
    action,
    number: 3,
    issue: {
      id: 8184, number: 3, user: KOSTEK, title, body: 'Test body', assignee,
      assignees: assignee === null ? null : [assignee], state: 'open', pull_request: null,
    },
    repository: TEST,
    sender: KOSTEK,
  });
  const QUOTE = ':\n\n~~~ quote\nTest body\n~~~';

  it('opened', () => {
    expectMessage(send('issues', issue('opened', 'Test issue', null)), 'test / issue #3 Test issue', `kostekIV opened [issue #3](${ISSUE_3})${QUOTE}`, 'issues');
  });

  it('edited', () => {
    expectMessage(send('issues', issue('edited', 'Test issue 2')), 'test / issue #3 Test issue 2', `kostekIV edited [issue #3](${ISSUE_3}) (assigned to kostekIV)${QUOTE}`);
  });

  it('closed', () => {
    expectMessage(send('issues', issue('closed', 'Test issue 2')), 'test / issue #3 Test issue 2', `kostekIV closed [issue #3](${ISSUE_3}) (assigned to kostekIV)${QUOTE}`);
  });

  it('assigned', () => {
    expectMessage(send('issues', issue('assigned', 'Test issue')), 'test / issue #3 Test issue', `kostekIV assigned kostekIV to [issue #3](${ISSUE_3}) (assigned to kostekIV)${QUOTE}`);
  });

  it('reopened', () => {
    expectMessage(send('issues', issue('reopened', 'Test issue 2')), 'test / issue #3 Test issue 2', `kostekIV reopened [issue #3](${ISSUE_3}) (assigned to kostekIV)${QUOTE}`);
  });
});

describe('issue_comment', () => {
  const comment = (action: string, issueNumber: number, title: string, commentUrl: string, body: string) => ({
    action,
    issue: { id: 8184, number: issueNumber, user: KOSTEK, title, body: '', assignee: null },
    comment: { id: 24400, html_url: commentUrl, user: KOSTEK, body },
    repository: TEST,
    sender: KOSTEK,
  });

  it('created', () => {
    const payload = comment('created', 3, 'Test issue', `${ISSUE_3}#issuecomment-24400`, 'test comment');
    expectMessage(send('issue_comment', payload), 'test / issue #3 Test issue', `kostekIV [commented](${ISSUE_3}#issuecomment-24400) on [issue #3](${ISSUE_3}):\n\n~~~ quote\ntest comment\n~~~`, 'issue_comment');
  });

  it("created on a pull request, which Zulip's topic still calls an issue", () => {
    const payload = comment('created', 1, 'dummy', 'https://try.gitea.io/kostekIV/test/pulls/1/files#issuecomment-24399', 'test comment');
    expectMessage(send('issue_comment', payload), 'test / issue #1 dummy', 'kostekIV [commented](https://try.gitea.io/kostekIV/test/pulls/1/files#issuecomment-24399) on [issue #1](https://try.gitea.io/kostekIV/test/issues/1):\n\n~~~ quote\ntest comment\n~~~');
  });

  it('edited', () => {
    const payload = comment('edited', 3, 'Test issue 2', `${ISSUE_3}#issuecomment-24400`, 'edit test comment');
    expectMessage(send('issue_comment', payload), 'test / issue #3 Test issue 2', `kostekIV edited a [comment](${ISSUE_3}#issuecomment-24400) on [issue #3](${ISSUE_3}):\n\n~~~ quote\nedit test comment\n~~~`);
  });
});

describe('release', () => {
  it('published', () => {
    const payload = { action: 'published', release: { tag_name: 'v1.0', name: 'First', author: KOSTEK }, repository: TEST, sender: KOSTEK };
    expectMessage(send('release', payload), 'test / v1.0 First', 'kostekIV published release [First](https://try.gitea.io/kostekIV/test) for tag v1.0.', 'release');
  });
});

describe('the integration', () => {
  it('is registered, with the branches option and, as in Zulip, no declared event types', () => {
    expect(integrationNamed('gitea')).toBe(gitea);
    expect(gitea.displayName).toBe('Gitea');
    expect(gitea.eventTypes).toBeNull();
    expect(gitea.configOptions?.map((o) => o.key)).toEqual(['branches']);
  });
});

describe('errors', () => {
  const deleted = { ref: 'test-branch-to-delete', ref_type: 'branch', pusher_type: 'user', repository: TEST, sender: KOSTEK };

  it("refuses events Zulip's Gitea integration does not support", () => {
    for (const event of ['delete', 'pull_request_comment', 'toString']) {
      expectError(() => send(event, deleted), UnsupportedWebhookEventTypeError, `The '${event}' event isn't currently supported by the Gitea webhook; ignoring`);
    }
  });

  it('needs the X-Gitea-Event header, whatever else says the event', () => {
    for (const header of [null, 'X-Gogs-Event', 'X-Forgejo-Event']) {
      const error = expectError(() => send(header === null ? null : 'create', deleted, {}, header ?? undefined), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Gitea-Event'");
      expect(error.extra).toEqual({ header: 'X-Gitea-Event' });
    }
  });

  it('refuses a body that is not JSON', () => {
    expectError(() => send('push', '{"ref":'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    const pr = { action: 'opened', pull_request: { assignee: null, merged: false, html_url: 'u', number: 1, title: 't', id: 1 }, repository: TEST, sender: KOSTEK };
    expectError(() => send('pull_request', { ...pr, pull_request: { ...pr.pull_request, assignee: undefined } }), ParleyError, 'payload["pull_request"]["assignee"] is missing');
    expectError(() => send('pull_request', { ...pr, sender: { login: 'kostekIV' } }), ParleyError, 'payload["sender"]["username"] is missing');
    expectError(() => send('pull_request', { ...pr, pull_request: { ...pr.pull_request, head: null } }), ParleyError, 'payload["pull_request"]["head"] is not a dict');
    expectError(() => send('pull_request', { ...pr, pull_request: { ...pr.pull_request, base: { ref: 7 } } }), ParleyError, 'payload["pull_request"]["base"]["ref"] is not a string');
    expectError(() => send('pull_request', { ...pr, pull_request: { ...pr.pull_request, id: 1.5 } }), ParleyError, 'payload["pull_request"]["id"] is not an integer');
    expectError(() => send('pull_request', { ...pr, pull_request: { ...pr.pull_request, assignee: { login: ['x'] } } }), ParleyError, 'payload["pull_request"]["assignee"]["login"] is not a string');
    expectError(() => send('create', { ...deleted, repository: { name: null } }), ParleyError, 'payload["repository"]["name"] is not a string');
    expectError(() => send('issue_comment', { action: 'created', comment: 'hi', issue: {}, repository: TEST, sender: KOSTEK }), ParleyError, 'payload["comment"] is not a dict');
  });
});
