// Gogs' webhooks, against the messages Zulip's zerver/webhooks/gogs/tests.py expects. The payloads
// are trimmed to what the integration reads, in the shape Gogs sends.
import { describe, expect, it } from 'vitest';
import {
  InvalidJsonError, MissingHttpEventHeaderError, ParleyError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { gogs } from '../../../resolvers/webhooks/integrations/gogs.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

function send(event: string | null, payload: unknown, params: Record<string, string> = {}): WebhookOutcome {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = event === null ? {} : { 'X-Gogs-Event': event };
  return gogs.translate(new IncomingWebhookRequest({ body, headers, params }));
}

const user = (name: string) => ({ id: 1, login: name, username: name, full_name: '', email: `${name}@example.com` });
const repo = (owner: string, name: string, host: string) => ({ id: 1, name, full_name: `${owner}/${name}`, html_url: `${host}/${owner}/${name}`, owner: user(owner) });

const JOHN = user('john');
const TRY_GIT = repo('john', 'try-git', 'http://localhost:3000');
const KOSTEK = user('kostekIV');
const TEST = repo('kostekIV', 'test', 'https://try.gogs.io');

describe('push', () => {
  const SHA = 'd8fce16c72a2ff56a5afc8a08645a6ce45491794';
  const COMPARE = `http://localhost:3000/john/try-git/compare/479e6b772b7fba19412457483f50b201286d0103...${SHA}`;
  const ROW = `* Webhook Test ([d8fce16c72a](http://localhost:3000/john/try-git/commit/${SHA}))\n`;
  const commit = (name: string, username = '') => ({
    id: SHA,
    message: 'Webhook Test\n',
    url: `http://localhost:3000/john/try-git/commit/${SHA}`,
    author: { name, email: 'john@example.com', username },
    committer: { name: 'John Doe', email: 'john@example.com', username: '' },
  });
  const push = (commits: unknown[], extra: Json = {}) => ({
    ref: 'refs/heads/master', before: '479e6b772b7fba19412457483f50b201286d0103', after: SHA,
    compare_url: COMPARE, commits, repository: TRY_GIT, pusher: JOHN, sender: JOHN, ...extra,
  });
  const ONE = push([commit('John Doe')]);
  const ONE_MESSAGE = `john [pushed](${COMPARE}) 1 commit to branch master. Commits by John (1).\n\n${ROW.trimEnd()}`;
  const TWO = push([commit('John Doe'), commit('Benjamin')]);
  const TWO_MESSAGE = `john [pushed](${COMPARE}) 2 commits to branch master. Commits by Benjamin (1) and John (1).\n\n${ROW.repeat(2).trimEnd()}`;
  const THIRTY = push(Array.from({ length: 30 }, () => commit('John Doe')));
  const THIRTY_MESSAGE = `john [pushed](${COMPARE}) 30 commits to branch master. Commits by John (30).\n\n${ROW.repeat(20)}[and 10 more commit(s)]`;

  it("credits a commit to the first word of its author's name", () => {
    expectMessage(send('push', ONE), 'try-git / master', ONE_MESSAGE, 'push');
  });

  it('credits several committers', () => {
    expectMessage(send('push', TWO), 'try-git / master', TWO_MESSAGE);
  });

  it('lists twenty commits and counts the rest', () => {
    expectMessage(send('push', THIRTY), 'try-git / master', THIRTY_MESSAGE);
  });

  it("credits the author's Gogs username when there is one", () => {
    expectMessage(send('push', push([commit('John Doe', 'john')])), 'try-git / master', `john [pushed](${COMPARE}) 1 commit to branch master.\n\n${ROW.trimEnd()}`);
  });

  it('keeps pushes to the branches the URL names, and only those', () => {
    const branches = 'master,development';
    expectMessage(send('push', ONE, { branches }), 'try-git / master', ONE_MESSAGE);
    expectMessage(send('push', TWO, { branches }), 'try-git / master', TWO_MESSAGE);
    expectMessage(send('push', THIRTY, { branches }), 'try-git / master', THIRTY_MESSAGE);
    for (const payload of [ONE, TWO, THIRTY]) expect(send('push', payload, { branches: 'changes,development' }).messages).toEqual([]);
  });
});

describe('create', () => {
  const create = (ref: string, refType: string) => ({ ref, ref_type: refType, repository: TRY_GIT, sender: JOHN });

  it('links the new branch', () => {
    expectMessage(send('create', create('my_feature', 'branch')), 'try-git / my_feature', 'john created [my_feature](http://localhost:3000/john/try-git/src/my_feature) branch.', 'create');
  });

  it('words a new tag as Zulip does, as a branch', () => {
    expectMessage(send('create', create('v1.0', 'tag')), 'try-git / v1.0', 'john created [v1.0](http://localhost:3000/john/try-git/src/v1.0) branch.');
  });
});

describe('pull_request', () => {
  const pr = (action: string, fields: Json = {}, extra: Json = {}) => ({
    action,
    number: 1,
    pull_request: {
      id: 1, number: 1, user: JOHN, title: 'Title Text for Pull Request', body: 'Description Text', assignee: null,
      head_branch: 'feature', base_branch: 'master', html_url: 'http://localhost:3000/john/try-git/pulls/1',
      merged: false, merged_by: null, ...fields,
    },
    repository: TRY_GIT,
    sender: JOHN,
    ...extra,
  });
  const TOPIC = 'try-git / PR #1 Title Text for Pull Request';
  // Zulip's fixtures from try.gogs.io, where the pull request's id (the topic's) is not its number.
  const kostekPr = (action: string, fields: Json = {}) => pr(action, {
    id: 1349, number: 2, user: KOSTEK, title: 'Test', body: '', head_branch: 'c', html_url: 'https://try.gogs.io/kostekIV/test/pulls/2', ...fields,
  }, { number: 2, repository: TEST, sender: KOSTEK });

  it('opened', () => {
    expectMessage(send('pull_request', pr('opened')), TOPIC, 'john opened [PR #1](http://localhost:3000/john/try-git/pulls/1) from `feature` to `master`.', 'pull_request');
  });

  it('names the pull request when the URL fixes the topic', () => {
    expectMessage(send('pull_request', pr('opened'), { topic: 'notifications' }), TOPIC, 'john opened [PR #1 Title Text for Pull Request](http://localhost:3000/john/try-git/pulls/1) from `feature` to `master`.');
  });

  it('closed', () => {
    expectMessage(send('pull_request', pr('closed')), TOPIC, 'john closed [PR #1](http://localhost:3000/john/try-git/pulls/1) from `feature` to `master`.');
  });

  it('merged, by whoever merged it', () => {
    const merged = pr('closed', { id: 2, number: 2, html_url: 'http://localhost:3000/john/try-git/pulls/2', user: user('someone'), merged: true, merged_by: JOHN });
    expectMessage(send('pull_request', merged), 'try-git / PR #2 Title Text for Pull Request', 'john merged [PR #2](http://localhost:3000/john/try-git/pulls/2) from `feature` to `master`.');
  });

  it('reopened', () => {
    expectMessage(send('pull_request', kostekPr('reopened', { title: 'reopened' })), 'test / PR #1349 reopened', 'kostekIV reopened [PR #2](https://try.gogs.io/kostekIV/test/pulls/2) from `c` to `master`.');
  });

  it('edited, without the branches', () => {
    expectMessage(send('pull_request', kostekPr('edited')), 'test / PR #1349 Test', 'kostekIV edited [PR #2](https://try.gogs.io/kostekIV/test/pulls/2).');
  });

  it('assigned, naming the assignee', () => {
    expectMessage(send('pull_request', kostekPr('assigned', { assignee: KOSTEK })), 'test / PR #1349 Test', 'kostekIV assigned kostekIV to [PR #2](https://try.gogs.io/kostekIV/test/pulls/2) from `c` to `master`.');
  });

  it('synchronized', () => {
    expectMessage(send('pull_request', kostekPr('synchronized', { assignee: KOSTEK })), 'test / PR #1349 Test', 'kostekIV synchronized [PR #2](https://try.gogs.io/kostekIV/test/pulls/2) from `c` to `master`.');
  });
});

describe('issues', () => {
  const issue = (action: string, fields: Json = {}) => ({
    action,
    number: 3,
    issue: { id: 5267, number: 3, user: KOSTEK, title: 'New test issue', body: 'Test', assignee: null, pull_request: null, ...fields },
    repository: TEST,
    sender: KOSTEK,
  });
  const TOPIC = 'test / issue #3 New test issue';
  const LINK = '[issue #3](https://try.gogs.io/kostekIV/test/issues/3)';

  it('opened', () => {
    expectMessage(send('issues', issue('opened')), TOPIC, `kostekIV opened ${LINK}:\n\n~~~ quote\nTest\n~~~`, 'issues');
  });

  it('reopened', () => {
    expectMessage(send('issues', issue('reopened')), TOPIC, `kostekIV reopened ${LINK}:\n\n~~~ quote\nTest\n~~~`);
  });

  it('edited', () => {
    expectMessage(send('issues', issue('edited', { body: 'Test edit' })), TOPIC, `kostekIV edited ${LINK}:\n\n~~~ quote\nTest edit\n~~~`);
  });

  it('assigned', () => {
    expectMessage(send('issues', issue('assigned', { assignee: KOSTEK })), TOPIC, `kostekIV assigned kostekIV to ${LINK} (assigned to kostekIV):\n\n~~~ quote\nTest\n~~~`);
  });

  it('closed', () => {
    expectMessage(send('issues', issue('closed', { body: 'Closed #3' })), TOPIC, `kostekIV closed ${LINK}:\n\n~~~ quote\nClosed #3\n~~~`);
  });

  it('names the issue when the URL fixes the topic, and quotes no empty body', () => {
    expectMessage(send('issues', issue('opened', { body: '' }), { topic: 'issues' }), TOPIC, 'kostekIV opened [issue #3 New test issue](https://try.gogs.io/kostekIV/test/issues/3).');
  });
});

describe('issue_comment', () => {
  const comment = (action: string, id: number, body: string) => ({
    action,
    issue: { id: 5267, number: 3, user: KOSTEK, title: 'New test issue', body: 'Test', assignee: null },
    comment: { id, html_url: `https://try.gogs.io/kostekIV/test/issues/3#issuecomment-${id}`, user: KOSTEK, body },
    repository: TEST,
    sender: KOSTEK,
  });

  it('created', () => {
    expectMessage(send('issue_comment', comment('created', 3635, 'Test comment')), 'test / issue #3 New test issue', 'kostekIV [commented](https://try.gogs.io/kostekIV/test/issues/3#issuecomment-3635) on [issue #3](https://try.gogs.io/kostekIV/test/issues/3):\n\n~~~ quote\nTest comment\n~~~', 'issue_comment');
  });

  it('edited', () => {
    expectMessage(send('issue_comment', comment('edited', 3634, 'edit comment')), 'test / issue #3 New test issue', 'kostekIV edited a [comment](https://try.gogs.io/kostekIV/test/issues/3#issuecomment-3634) on [issue #3](https://try.gogs.io/kostekIV/test/issues/3):\n\n~~~ quote\nedit comment\n~~~');
  });
});

describe('release', () => {
  it('published', () => {
    const cestrell = user('cestrell');
    const payload = {
      action: 'published',
      release: { id: 620, tag_name: 'v1.4', target_commitish: 'master', name: 'Title', body: 'Content', draft: false, prerelease: false, author: cestrell },
      repository: repo('cestrell', 'zulip_test', 'https://try.gogs.io'),
      sender: cestrell,
    };
    expectMessage(send('release', payload), 'zulip_test / v1.4 Title', 'cestrell published release [Title](https://try.gogs.io/cestrell/zulip_test) for tag v1.4.', 'release');
  });
});

describe('the integration', () => {
  it("is registered, with Zulip's event types and the branches option", () => {
    expect(integrationNamed('gogs')).toBe(gogs);
    expect(gogs.displayName).toBe('Gogs');
    expect(gogs.eventTypes).toEqual(['issue_comment', 'issues', 'create', 'pull_request', 'push', 'release']);
    expect(gogs.configOptions?.map((o) => o.key)).toEqual(['branches']);
  });
});

describe('errors', () => {
  const create = { ref: 'main', ref_type: 'branch', repository: TRY_GIT, sender: JOHN };
  const push = { ref: 'refs/heads/master', compare_url: 'http://localhost:3000/john/try-git/compare/a...b', commits: [], repository: TRY_GIT, sender: JOHN };

  it("refuses events Zulip's Gogs integration does not support", () => {
    for (const event of ['delete', 'fork', 'constructor', '']) {
      expectError(() => send(event, create), UnsupportedWebhookEventTypeError, `The '${event}' event isn't currently supported by the Gogs webhook; ignoring`);
    }
  });

  it('needs the X-Gogs-Event header', () => {
    const error = expectError(() => send(null, create), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Gogs-Event'");
    expect(error.extra).toEqual({ header: 'X-Gogs-Event' });
  });

  it('refuses a body that is not JSON', () => {
    expectError(() => send('push', 'not json'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('push', { ...push, repository: undefined }), ParleyError, 'payload["repository"] is missing');
    expectError(() => send('push', { ...push, commits: undefined }), ParleyError, 'payload["commits"] is missing');
    expectError(() => send('push', { ...push, commits: {} }), ParleyError, 'payload["commits"] is not a list');
    expectError(() => send('push', { ...push, sender: { username: 5 } }), ParleyError, 'payload["sender"]["username"] is not a string');
    expectError(() => send('push', { ...push, commits: [{ id: 'abc', author: { username: '', name: ' ' } }] }), ParleyError, 'payload["commits"][0]["author"]["name"] is empty');
    expectError(() => send('push', [push]), ParleyError, 'payload is not a dict');
    expectError(() => send('push', 'null'), ParleyError, 'payload is not a dict');
    expectError(() => send('pull_request', { action: 'opened', pull_request: { merged: 'no' }, repository: TRY_GIT }), ParleyError, 'payload["pull_request"]["merged"] is not a boolean');
    expectError(() => send('pull_request', { pull_request: { merged: true, merged_by: JOHN, html_url: 'u', number: 1, head_branch: 'a', base_branch: 'b', assignee: null }, repository: TRY_GIT }), ParleyError, 'payload["action"] is missing');
    expectError(() => send('issues', { action: 'opened', issue: null, repository: TEST, sender: KOSTEK }), ParleyError, 'payload["issue"] is not a dict');
    expectError(() => send('issues', { action: 'opened', issue: { number: '3' }, repository: TEST, sender: KOSTEK }), ParleyError, 'payload["issue"]["number"] is not an integer');
    expectError(() => send('release', { action: 'published', release: { author: {} }, repository: TEST }), ParleyError, 'payload["release"]["author"]["username"] is missing');
  });
});
