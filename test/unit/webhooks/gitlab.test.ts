// GitLab's webhooks, against the messages Zulip's zerver/webhooks/gitlab/tests.py expects. The
// payloads are trimmed to what the integration reads, in GitLab's documented shape.
import { describe, expect, it } from 'vitest';
import {
  BadRequestError, InvalidJsonError, MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { gitlab } from '../../../resolvers/webhooks/integrations/gitlab.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

function send(event: string | null, payload: unknown, params: Record<string, string> = {}): WebhookOutcome {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = event === null ? {} : { 'X-Gitlab-Event': event };
  return gitlab.translate(new IncomingWebhookRequest({ body, headers, params }));
}

/** With a topic in the URL the framework sends to that topic; only the content matters. */
function expectContent(outcome: WebhookOutcome, content: string): void {
  expect(outcome.messages).toHaveLength(1);
  expect(outcome.messages[0]!.content).toBe(content);
}

const unsupported = (event: string) => `The '${event}' event isn't currently supported by the GitLab webhook; ignoring`;

const project = (name: string, webUrl: string) => ({ name, web_url: webUrl, homepage: webUrl });
const user = (name: string, username = name.toLowerCase().replace(/ /g, '')) => ({ name, username });

const TK_URL = 'https://gitlab.com/tomaszkolek0/my-awesome-project';
const TK_PROJECT = project('my-awesome-project', TK_URL);
const TK = user('Tomasz Kolek', 'tomaszkolek0');
const TK_TAG = `[[my-awesome-project](${TK_URL})] `;

describe('Push Hook', () => {
  const BEFORE = '5fcdd5551fc3085df79bece2c32b1400802ac407';
  const AFTER = 'eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9';
  const B_SHA = '66abd2da28809ffa128ed0447965cf11d7f863a7';
  const COMPARE = `${TK_URL}/-/compare/${BEFORE}...${AFTER}`;
  const commit = (id: string, message: string, author = 'Tomasz Kolek') => ({ id, message, url: `${TK_URL}/commit/${id}`, author: { name: author, email: 'x@example.com' } });
  const push = (commits: unknown[], extra: Json = {}) => ({
    object_kind: 'push', event_name: 'push', before: BEFORE, after: AFTER, ref: 'refs/heads/tomek', checkout_sha: AFTER,
    user_name: 'Tomasz Kolek', project: TK_PROJECT, commits, total_commits_count: commits.length, ...extra,
  });
  const TWO = push([commit(B_SHA, 'b\n'), commit(AFTER, 'c\n')]);
  const TWO_MESSAGE = `Tomasz Kolek [pushed](${COMPARE}) 2 commits to branch tomek.\n\n* b ([66abd2da288](${TK_URL}/commit/${B_SHA}))\n* c ([eb6ae1e591e](${TK_URL}/commit/${AFTER}))`;
  const FIFTY = push(Array.from({ length: 50 }, () => commit(B_SHA, 'b')));
  const FIFTY_MESSAGE = `Tomasz Kolek [pushed](${COMPARE}) 50 commits to branch tomek.\n\n${`* b ([66abd2da288](${TK_URL}/commit/${B_SHA}))\n`.repeat(20)}[and 30 more commit(s)]`;

  it('lists the commits', () => {
    expectMessage(send('Push Hook', TWO), 'my-awesome-project / tomek', TWO_MESSAGE, 'Push Hook');
  });

  it('names the project when the URL fixes the topic', () => {
    expectContent(send('Push Hook', TWO, { topic: 'Specific topic' }), TK_TAG + TWO_MESSAGE);
  });

  it('says a branch was pushed without commits', () => {
    const url = 'https://gitlab.com/eeshangarg/my-awesome-project';
    const payload = {
      ...push([]), before: '0000000000000000000000000000000000000000', after: '68d7a5528cf423dfaac37dd62a56ac9cc8a884e3',
      ref: 'refs/heads/changes', user_name: 'Eeshan Garg', project: project('my-awesome-project', url),
    };
    expectMessage(send('Push Hook', payload), 'my-awesome-project / changes', `Eeshan Garg [pushed](${url}/-/compare/0000000000000000000000000000000000000000...68d7a5528cf423dfaac37dd62a56ac9cc8a884e3) the branch changes.`);
  });

  it('credits several committers', () => {
    const payload = push([commit(B_SHA, 'b\n', 'Ben'), commit(AFTER, 'c\n')]);
    expectMessage(send('Push Hook', payload), 'my-awesome-project / tomek', `Tomasz Kolek [pushed](${COMPARE}) 2 commits to branch tomek. Commits by Ben (1) and Tomasz Kolek (1).\n\n* b ([66abd2da288](${TK_URL}/commit/${B_SHA}))\n* c ([eb6ae1e591e](${TK_URL}/commit/${AFTER}))`);
  });

  it('counts committers beyond three as others', () => {
    const authors = ['Ben', 'baxterthehacker', 'Ben', 'James', 'baxterthehacker', 'Ben', 'Tomasz Kolek'];
    const payload = push(authors.map((name) => commit(AFTER, 'b\n', name)));
    const row = `* b ([eb6ae1e591e](${TK_URL}/commit/${AFTER}))\n`;
    expectMessage(send('Push Hook', payload), 'my-awesome-project / tomek', `Tomasz Kolek [pushed](${COMPARE}) 7 commits to branch tomek. Commits by Ben (3), baxterthehacker (2), James (1) and others (1).\n\n${row.repeat(7).trimEnd()}`);
  });

  it('lists twenty commits and counts the rest', () => {
    expectMessage(send('Push Hook', FIFTY), 'my-awesome-project / tomek', FIFTY_MESSAGE);
  });

  it('keeps pushes to the branches the URL names, and only those', () => {
    expectMessage(send('Push Hook', TWO, { branches: 'master,tomek' }), 'my-awesome-project / tomek', TWO_MESSAGE);
    expectMessage(send('Push Hook', FIFTY, { branches: 'master,tomek' }), 'my-awesome-project / tomek', FIFTY_MESSAGE);
    expect(send('Push Hook', TWO, { branches: 'master,development' })).toEqual({ messages: [] });
    expect(send('Push Hook', FIFTY, { branches: 'master,development' })).toEqual({ messages: [] });
  });

  it('says a branch was deleted', () => {
    const payload = push([], { after: '0000000000000000000000000000000000000000', checkout_sha: null });
    expectMessage(send('Push Hook', payload), 'my-awesome-project / tomek', 'Tomasz Kolek deleted branch tomek.');
  });
});

describe('Tag Push Hook', () => {
  const tag = (checkoutSha: string | null) => ({
    object_kind: 'tag_push', ref: 'refs/tags/xyz', checkout_sha: checkoutSha, user_name: 'Tomasz Kolek', project: TK_PROJECT,
    before: '0000000000000000000000000000000000000000', after: '64d2e7ac7bf5bc1e6bb2db8e4bf6e0d4c4c6e4b1', commits: [],
  });

  it('says a tag was pushed', () => {
    expectMessage(send('Tag Push Hook', tag('64d2e7ac7bf5bc1e6bb2db8e4bf6e0d4c4c6e4b1')), 'my-awesome-project', 'Tomasz Kolek pushed tag xyz.', 'Tag Push Hook');
  });

  it('says a tag was removed', () => {
    expectMessage(send('Tag Push Hook', tag(null)), 'my-awesome-project', 'Tomasz Kolek removed tag xyz.');
  });
});

const issue = (attributes: Json, extra: Json = {}) => ({
  object_kind: 'issue', user: TK, project: TK_PROJECT,
  object_attributes: { iid: 1, title: 'Issue title', url: `${TK_URL}/issues/1`, description: 'Issue description', state: 'opened', ...attributes },
  ...extra,
});

describe('Issue Hook', () => {
  const TOPIC = 'my-awesome-project / issue #1 Issue title';
  const CREATED = `Tomasz Kolek created [issue #1](${TK_URL}/issues/1):\n\n~~~ quote\nIssue description\n~~~`;

  it('quotes a new issue', () => {
    expectMessage(send('Issue Hook', issue({ action: 'open' })), TOPIC, CREATED, 'Issue Hook open');
  });

  it('takes an issue without an action for a new one', () => {
    expectMessage(send('Issue Hook', issue({})), TOPIC, CREATED, 'Issue Hook open');
  });

  it('names the issue and the project when the URL fixes the topic', () => {
    expectContent(send('Issue Hook', issue({ action: 'open' }), { topic: 'notifications' }), `${TK_TAG}Tomasz Kolek created [issue #1 Issue title](${TK_URL}/issues/1):\n\n~~~ quote\nIssue description\n~~~`);
  });

  it('names the assignee', () => {
    expectMessage(send('Issue Hook', issue({ action: 'open' }, { assignee: TK })), TOPIC, `Tomasz Kolek created [issue #1](${TK_URL}/issues/1) (assigned to Tomasz Kolek):\n\n~~~ quote\nIssue description\n~~~`);
  });

  describe('with several assignees', () => {
    const url = 'https://gitlab.com/adambirds/zulip-gitlab-test';
    const payload = (names: string[]) => ({
      object_kind: 'issue', user: user('Adam Birds'), project: project('Zulip GitLab Test', url),
      object_attributes: { iid: 2, title: 'Zulip Test Issue 2', url: `${url}/issues/2`, description: 'Zulip Test Issue 2', action: 'open' },
      assignees: names.map((name) => user(name)),
      assignee: user(names[0]!),
    });

    it('names two', () => {
      expectMessage(send('Issue Hook', payload(['Adam Birds', 'Eeshan Garg'])), 'Zulip GitLab Test / issue #2 Zulip Test Issue 2', `Adam Birds created [issue #2](${url}/issues/2) (assigned to Adam Birds and Eeshan Garg):\n\n~~~ quote\nZulip Test Issue 2\n~~~`);
    });

    it('names three', () => {
      expectMessage(send('Issue Hook', payload(['Adam Birds', 'Eeshan Garg', 'Tim Abbott'])), 'Zulip GitLab Test / issue #2 Zulip Test Issue 2', `Adam Birds created [issue #2](${url}/issues/2) (assigned to Adam Birds, Eeshan Garg and Tim Abbott):\n\n~~~ quote\nZulip Test Issue 2\n~~~`);
    });
  });

  it("leaves out the description's hidden comments", () => {
    const url = 'https://gitlab.com/eeshangarg/public-repo';
    const payload = {
      object_kind: 'issue', user: user('Eeshan Garg'), project: project('public-repo', url),
      object_attributes: {
        iid: 3, title: 'New Issue with hidden comment', url: `${url}/issues/3`, action: 'open',
        description: 'This description actually has a hidden comment in it!\n\n<!-- This is the hidden comment,\nspanning two lines. -->\n',
      },
    };
    expectMessage(send('Issue Hook', payload), 'public-repo / issue #3 New Issue with hidden comment', `Eeshan Garg created [issue #3](${url}/issues/3):\n\n~~~ quote\nThis description actually has a hidden comment in it!\n~~~`);
  });

  it('quotes nothing for an issue without a description', () => {
    const url = 'https://gitlab.com/eeshangarg/my-awesome-project';
    const payload = {
      object_kind: 'issue', user: user('Eeshan Garg'), project: project('my-awesome-project', url),
      object_attributes: { iid: 7, title: 'Issue without description', url: `${url}/issues/7`, description: null, action: 'open' },
    };
    expectMessage(send('Issue Hook', payload), 'my-awesome-project / issue #7 Issue without description', `Eeshan Garg created [issue #7](${url}/issues/7).`);
  });

  it('says an issue was updated, closed or reopened', () => {
    const topic = 'my-awesome-project / issue #1 Issue title_new';
    for (const [action, verb] of [['update', 'updated'], ['close', 'closed'], ['reopen', 'reopened']] as const) {
      expectMessage(send('Issue Hook', issue({ action, title: 'Issue title_new' })), topic, `Tomasz Kolek ${verb} [issue #1](${TK_URL}/issues/1).`, `Issue Hook ${action}`);
    }
  });

  it('names the updated issue when the URL fixes the topic', () => {
    expectContent(send('Issue Hook', issue({ action: 'update', title: 'Issue title_new' }), { topic: 'notifications' }), `${TK_TAG}Tomasz Kolek updated [issue #1 Issue title_new](${TK_URL}/issues/1).`);
  });
});

describe('Confidential Issue Hook', () => {
  const url = 'https://gitlab.example.co.uk/joe.bloggs/testing';
  const confidential = (attributes: Json, extra: Json = {}) => ({
    object_kind: 'issue', user: user('Joe Bloggs', 'joe.bloggs'), project: project('testing', url),
    object_attributes: { iid: 1, title: 'Testing', url: `${url}/issues/1`, description: 'Testing', confidential: true, ...attributes },
    ...extra,
  });

  it('quotes a new issue', () => {
    expectMessage(send('Confidential Issue Hook', confidential({ action: 'open' })), 'testing / issue #1 Testing', `Joe Bloggs created [issue #1](${url}/issues/1):\n\n~~~ quote\nTesting\n~~~`, 'Confidential Issue Hook open');
  });

  it('names the assignee', () => {
    const payload = confidential({ action: 'open', iid: 2, url: `${url}/issues/2` }, { assignees: [user('Joe Bloggs', 'joe.bloggs')] });
    expectMessage(send('Confidential Issue Hook', payload), 'testing / issue #2 Testing', `Joe Bloggs created [issue #2](${url}/issues/2) (assigned to Joe Bloggs):\n\n~~~ quote\nTesting\n~~~`);
  });

  it("leaves out the description's hidden comments", () => {
    const payload = confidential({ action: 'open', description: 'This description actually has a hidden comment in it!\n<!-- a hidden comment -->' });
    expectMessage(send('Confidential Issue Hook', payload), 'testing / issue #1 Testing', `Joe Bloggs created [issue #1](${url}/issues/1):\n\n~~~ quote\nThis description actually has a hidden comment in it!\n~~~`);
  });

  it('says an issue was updated, closed or reopened', () => {
    expectMessage(send('Confidential Issue Hook', confidential({ action: 'update' })), 'testing / issue #1 Testing', `Joe Bloggs updated [issue #1](${url}/issues/1).`, 'Confidential Issue Hook update');
    expectMessage(send('Confidential Issue Hook', confidential({ action: 'close', title: 'Testing Test' })), 'testing / issue #1 Testing Test', `Joe Bloggs closed [issue #1](${url}/issues/1).`, 'Confidential Issue Hook close');
    expectMessage(send('Confidential Issue Hook', confidential({ action: 'reopen', title: 'Testing Test' })), 'testing / issue #1 Testing Test', `Joe Bloggs reopened [issue #1](${url}/issues/1).`, 'Confidential Issue Hook reopen');
  });
});

describe('Note Hook', () => {
  const SB_URL = 'https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration';
  const SB_TAG = `[[testing-zulip-gitlab-integration](${SB_URL})] `;
  const note = (noteableType: string, noteUrl: string, text: string, extra: Json = {}, attributes: Json = {}) => ({
    object_kind: 'note', event_type: 'note', user: user('Satyam Bansal', 'sbansal1999'),
    project: project('testing-zulip-gitlab-integration', SB_URL),
    repository: { name: 'testing-zulip-gitlab-integration', homepage: SB_URL },
    object_attributes: { id: 1, note: text, noteable_type: noteableType, url: noteUrl, ...attributes },
    ...extra,
  });

  describe('on a commit', () => {
    it('quotes the comment', () => {
      const sha = '82689ddf00fd7bdadb5c2afb3b94bd555edc9d01';
      const payload = note('Commit', `${SB_URL}/-/commit/${sha}#note_1406241063`, 'Wow what a beautiful commit.', { commit: { id: sha, message: 'Add file', url: `${SB_URL}/-/commit/${sha}` } });
      expectMessage(send('Note Hook', payload), 'testing-zulip-gitlab-integration', `Satyam Bansal [commented](${SB_URL}/-/commit/${sha}#note_1406241063) on [82689ddf00f](${SB_URL}/-/commit/${sha}):\n~~~ quote\nWow what a beautiful commit.\n~~~`, 'Note Hook Commit');
    });
  });

  describe('on a merge request', () => {
    const payload = note('MergeRequest', `${SB_URL}/-/merge_requests/1#note_1406328457`, 'I am not sure if this new feature is even required or not.', {
      merge_request: { iid: 1, title: 'add new-feature', url: `${SB_URL}/-/merge_requests/1` },
    });
    const MESSAGE = `Satyam Bansal [commented](${SB_URL}/-/merge_requests/1#note_1406328457) on [MR #1](${SB_URL}/-/merge_requests/1):\n\n~~~ quote\nI am not sure if this new feature is even required or not.\n~~~`;

    it('quotes the comment', () => {
      expectMessage(send('Note Hook', payload), 'testing-zulip-gitlab-integration / MR #1 add new-feature', MESSAGE, 'Note Hook MergeRequest');
    });

    it('leaves the title out of the topic with use_merge_request_title=false', () => {
      expectMessage(send('Note Hook', payload, { use_merge_request_title: 'false' }), 'testing-zulip-gitlab-integration / MR #1', MESSAGE);
    });

    it('names the merge request and the project when the URL fixes the topic', () => {
      expectContent(send('Note Hook', payload, { topic: 'notifications' }), `${SB_TAG}Satyam Bansal [commented](${SB_URL}/-/merge_requests/1#note_1406328457) on [MR #1 add new-feature](${SB_URL}/-/merge_requests/1):\n\n~~~ quote\nI am not sure if this new feature is even required or not.\n~~~`);
    });
  });

  describe('on an issue', () => {
    const issueNote = (id: number, text: string) => note('Issue', `${SB_URL}/-/issues/1#note_${id}`, text, {
      issue: { iid: 1, title: 'Add more lines', url: `${SB_URL}/-/issues/1`, confidential: false },
    });

    it('quotes the comment', () => {
      expectMessage(send('Note Hook', issueNote(1406279810, 'This is again a random comment.')), 'testing-zulip-gitlab-integration / issue #1 Add more lines', `Satyam Bansal [commented](${SB_URL}/-/issues/1#note_1406279810) on [issue #1](${SB_URL}/-/issues/1):\n\n~~~ quote\nThis is again a random comment.\n~~~`, 'Note Hook Issue');
    });

    it('quotes a confidential comment', () => {
      expectMessage(send('Confidential Note Hook', issueNote(1406130881, 'Some more comments')), 'testing-zulip-gitlab-integration / issue #1 Add more lines', `Satyam Bansal [commented](${SB_URL}/-/issues/1#note_1406130881) on [issue #1](${SB_URL}/-/issues/1):\n\n~~~ quote\nSome more comments\n~~~`, 'Confidential Note Hook Issue');
    });

    it('names the issue and the project when the URL fixes the topic', () => {
      expectContent(send('Note Hook', issueNote(1406279810, 'This is again a random comment.'), { topic: 'notifications' }), `${SB_TAG}Satyam Bansal [commented](${SB_URL}/-/issues/1#note_1406279810) on [issue #1 Add more lines](${SB_URL}/-/issues/1):\n\n~~~ quote\nThis is again a random comment.\n~~~`);
    });
  });

  describe('on a design', () => {
    const design = note('DesignManagement::Design', null as unknown as string, 'hello', {}, {
      id: 1458583152, position: { new_path: 'designs/issue-1/Screenshot.png', position_type: 'image' },
    });
    const DESIGN = `${SB_URL}/-/issues/1/designs/Screenshot.png`;
    const MESSAGE = `Satyam Bansal [commented](${DESIGN}#note_1458583152) on design [Screenshot.png](${DESIGN}):\n\n~~~ quote\nhello\n~~~`;

    it('quotes the comment, linking the design found from its path', () => {
      expectMessage(send('Note Hook', design), 'testing-zulip-gitlab-integration / design Screenshot.png', MESSAGE, 'Note Hook DesignManagement::Design');
      expectMessage(send('Confidential Note Hook', design), 'testing-zulip-gitlab-integration / design Screenshot.png', MESSAGE, 'Confidential Note Hook DesignManagement::Design');
    });

    it('names the project when the URL fixes the topic', () => {
      expectContent(send('Note Hook', design, { topic: 'notifications' }), SB_TAG + MESSAGE);
    });

    it("refuses a path that is not a design's", () => {
      const payload = note('DesignManagement::Design', '', 'hello', {}, { id: 1, position: { new_path: 'designs/Screenshot.png' } });
      expectError(() => send('Note Hook', payload), BadRequestError, 'payload["object_attributes"]["position"]["new_path"] is not a design\'s path');
    });
  });

  describe('on a snippet', () => {
    it('builds the URL of a snippet GitLab did not send one for', () => {
      const payload = {
        object_kind: 'note', user: TK, project: TK_PROJECT,
        object_attributes: { id: 14172058, note: 'Nice snippet', noteable_type: 'Snippet', url: `${TK_URL}/snippets/2#note_14172058` },
        snippet: { id: 2, title: 'test', file_name: 'README.md' },
      };
      expectMessage(send('Note Hook', payload), 'my-awesome-project / snippet #2 test', `Tomasz Kolek [commented](${TK_URL}/snippets/2#note_14172058) on [snippet #2](${TK_URL}/-/snippets/2):\n\n~~~ quote\nNice snippet\n~~~`, 'Note Hook Snippet');
    });

    const snippet = note('Snippet', `${SB_URL}/-/snippets/2547713#note_1424268837`, 'some comment', {
      snippet: { id: 2547713, title: 'a very new new feature', url: `${SB_URL}/-/snippets/2547713` },
    });

    it('quotes the comment', () => {
      expectMessage(send('Note Hook', snippet), 'testing-zulip-gitlab-integration / snippet #2547713 a ver...', `Satyam Bansal [commented](${SB_URL}/-/snippets/2547713#note_1424268837) on [snippet #2547713](${SB_URL}/-/snippets/2547713):\n\n~~~ quote\nsome comment\n~~~`);
    });

    it('names the snippet and the project when the URL fixes the topic', () => {
      expectContent(send('Note Hook', snippet, { topic: 'notifications' }), `${SB_TAG}Satyam Bansal [commented](${SB_URL}/-/snippets/2547713#note_1424268837) on [snippet #2547713 a very new new feature](${SB_URL}/-/snippets/2547713):\n\n~~~ quote\nsome comment\n~~~`);
    });
  });

  it('refuses notes on what Zulip does not support', () => {
    expectError(() => send('Confidential Note Hook', note('MergeRequest', '', 'x')), UnsupportedWebhookEventTypeError, unsupported('Confidential Note Hook MergeRequest'));
    expectError(() => send('Note Hook', note('constructor', '', 'x')), UnsupportedWebhookEventTypeError, unsupported('Note Hook constructor'));
  });
});

const mergeRequest = (attributes: Json, extra: Json = {}) => ({
  object_kind: 'merge_request', event_type: 'merge_request', user: TK, project: TK_PROJECT,
  object_attributes: {
    iid: 2, title: 'NEW MR', url: `${TK_URL}/merge_requests/2`, source_branch: 'tomek', target_branch: 'master',
    description: 'description of merge request', state: 'opened', ...attributes,
  },
  ...extra,
});

const MR3 = { iid: 3, title: 'New Merge Request', url: `${TK_URL}/merge_requests/3` };

describe('Merge Request Hook', () => {
  const CREATED = `Tomasz Kolek created [MR #2](${TK_URL}/merge_requests/2) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`;

  it('quotes a new merge request, with its branches', () => {
    expectMessage(send('Merge Request Hook', mergeRequest({ action: 'open' })), 'my-awesome-project / MR #2 NEW MR', CREATED, 'Merge Request Hook open');
  });

  it('names the merge request and the project when the URL fixes the topic', () => {
    expectContent(send('Merge Request Hook', mergeRequest({ action: 'open' }), { topic: 'notifications' }), `${TK_TAG}Tomasz Kolek created [MR #2 NEW MR](${TK_URL}/merge_requests/2) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`);
  });

  it('names the assignee', () => {
    expectMessage(send('Merge Request Hook', mergeRequest({ ...MR3, action: 'open' }, { assignee: TK })), 'my-awesome-project / MR #3 New Merge Request', `Tomasz Kolek created [MR #3](${TK_URL}/merge_requests/3) from \`tomek\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription of merge request\n~~~`);
  });

  it('names every assignee', () => {
    const url = 'https://gitlab.com/Hypro999/demo-project';
    const hemanth = user('Hemanth V. Alluri', 'Hypro999');
    const payload = {
      object_kind: 'merge_request', user: hemanth, project: project('Demo Project', url),
      object_attributes: {
        iid: 1, title: 'Make a trivial change to the README.', url: `${url}/-/merge_requests/1`, source_branch: 'devel', target_branch: 'master',
        description: 'A trivial change that should probably be ignored.', action: 'open',
      },
      assignees: [hemanth, hemanth],
    };
    expectMessage(send('Merge Request Hook', payload), 'Demo Project / MR #1 Make a trivial change to the README.', `Hemanth V. Alluri created [MR #1](${url}/-/merge_requests/1) from \`devel\` to \`master\` (assigned to Hemanth V. Alluri and Hemanth V. Alluri):\n\n~~~ quote\nA trivial change that should probably be ignored.\n~~~`);
  });

  describe('closed', () => {
    const closed = mergeRequest({ action: 'close', state: 'closed' });
    const MESSAGE = `Tomasz Kolek closed [MR #2](${TK_URL}/merge_requests/2).`;

    it('says so', () => {
      expectMessage(send('Merge Request Hook', closed), 'my-awesome-project / MR #2 NEW MR', MESSAGE, 'Merge Request Hook close');
    });

    it('leaves the title out of the topic with use_merge_request_title=false', () => {
      expectMessage(send('Merge Request Hook', closed, { use_merge_request_title: 'false' }), 'my-awesome-project / MR #2', MESSAGE);
      expectMessage(send('Merge Request Hook', closed, { use_merge_request_title: 'true' }), 'my-awesome-project / MR #2 NEW MR', MESSAGE);
    });

    it('names the merge request and the project when the URL fixes the topic', () => {
      expectContent(send('Merge Request Hook', closed, { topic: 'notifications' }), `${TK_TAG}Tomasz Kolek closed [MR #2 NEW MR](${TK_URL}/merge_requests/2).`);
    });
  });

  describe('reviews', () => {
    const eeshan = (action: string) => ({
      object_kind: 'merge_request', user: user('Eeshan Garg'), project: project('my-awesome-project', 'https://gitlab.com/eeshangarg/my-awesome-project'),
      object_attributes: { iid: 1, title: 'Update the README with author name', url: 'https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1', action },
    });
    const TOPIC = 'my-awesome-project / MR #1 Update the README with author ...';

    it('says a merge request was reopened, approved or unapproved', () => {
      expectMessage(send('Merge Request Hook', eeshan('reopen')), TOPIC, 'Eeshan Garg reopened [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).', 'Merge Request Hook reopen');
      expectMessage(send('Merge Request Hook', eeshan('approved')), TOPIC, 'Eeshan Garg approved [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).', 'Merge Request Hook approved');
      expectMessage(send('Merge Request Hook', eeshan('unapproved')), TOPIC, 'Eeshan Garg unapproved [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).', 'Merge Request Hook unapproved');
    });

    it("says a reviewer added or removed their approval", () => {
      const sumit = (action: string) => ({
        object_kind: 'merge_request', user: user('Sumit Bhanushali'), project: project('my-awesome-project', 'https://gitlab.com/sumitb16/my-awesome-project'),
        object_attributes: { iid: 1, title: 'Update the README', url: 'https://gitlab.com/sumitb16/my-awesome-project/merge_requests/1', action },
      });
      expectMessage(send('Merge Request Hook', sumit('approval')), 'my-awesome-project / MR #1 Update the README', 'Sumit Bhanushali added their approval for [MR #1](https://gitlab.com/sumitb16/my-awesome-project/merge_requests/1).', 'Merge Request Hook approval');
      expectMessage(send('Merge Request Hook', sumit('unapproval')), 'my-awesome-project / MR #1 Update the README', 'Sumit Bhanushali removed their approval for [MR #1](https://gitlab.com/sumitb16/my-awesome-project/merge_requests/1).', 'Merge Request Hook unapproval');
    });
  });

  it('quotes an updated description', () => {
    const payload = mergeRequest({ ...MR3, action: 'update', description: 'updated desc' }, { assignees: [TK] });
    expectMessage(send('Merge Request Hook', payload), 'my-awesome-project / MR #3 New Merge Request', `Tomasz Kolek updated [MR #3](${TK_URL}/merge_requests/3) (assigned to Tomasz Kolek):\n\n~~~ quote\nupdated desc\n~~~`, 'Merge Request Hook update');
  });

  it('says commits were added when the update moved the branch', () => {
    const payload = mergeRequest({ ...MR3, action: 'update', oldrev: '6ef047571374c96a2bf13361efd914126b48e1d0' }, { assignees: [TK] });
    expectMessage(send('Merge Request Hook', payload), 'my-awesome-project / MR #3 New Merge Request', `Tomasz Kolek added commit(s) to [MR #3](${TK_URL}/merge_requests/3).`, 'Merge Request Hook update');
  });

  it('says a merge request was merged, with its branches', () => {
    expectMessage(send('Merge Request Hook', mergeRequest({ ...MR3, action: 'merge', state: 'merged' })), 'my-awesome-project / MR #3 New Merge Request', `Tomasz Kolek merged [MR #3](${TK_URL}/merge_requests/3) from \`tomek\` to \`master\`.`, 'Merge Request Hook merge');
  });
});

describe('Wiki Page Hook', () => {
  const wiki = (action: string) => ({
    object_kind: 'wiki_page', user: TK, project: TK_PROJECT, wiki: { web_url: `${TK_URL}/wikis/home` },
    object_attributes: { title: 'how to', content: 'how to', slug: 'how-to', url: `${TK_URL}/wikis/how-to`, action },
  });

  it('says a page was created or updated', () => {
    expectMessage(send('Wiki Page Hook', wiki('create')), 'my-awesome-project', `Tomasz Kolek created [wiki page "how to"](${TK_URL}/wikis/how-to).`, 'Wiki Page Hook create');
    expectMessage(send('Wiki Page Hook', wiki('update')), 'my-awesome-project', `Tomasz Kolek updated [wiki page "how to"](${TK_URL}/wikis/how-to).`, 'Wiki Page Hook update');
  });

  it('refuses a deleted page, as Zulip does', () => {
    expectError(() => send('Wiki Page Hook', wiki('delete')), UnsupportedWebhookEventTypeError, unsupported('Wiki Page Hook delete'));
  });
});

describe('Job Hook and Build Hook', () => {
  const job = (status: string) => ({
    object_kind: 'build', ref: 'master', tag: false, build_name: 'job_name', build_stage: 'test', build_status: status,
    user: TK, repository: { name: 'my-awesome-project', homepage: 'https://gitlab.com/TomaszKolek/my-awesome-project' },
  });

  it('says a build was created, started or changed status, under either name', () => {
    for (const header of ['Job Hook', 'Build Hook']) {
      expectMessage(send(header, job('created')), 'my-awesome-project / master', 'Build job_name from test stage was created.', header);
      expectMessage(send(header, job('running')), 'my-awesome-project / master', 'Build job_name from test stage started.', header);
      expectMessage(send(header, job('success')), 'my-awesome-project / master', 'Build job_name from test stage changed status to success.', header);
    }
  });

  const triggered = {
    object_kind: 'build', ref: 'gitlab-script-trigger', build_name: 'test', build_stage: 'test', build_status: 'created',
    project_name: 'gitlab-org/gitlab-test', repository: { name: 'gitlab_test', homepage: 'http://192.168.64.1:3005/gitlab-org/gitlab-test' },
  };

  it("names the job's repository and ref", () => {
    expectMessage(send('Job Hook', triggered), 'gitlab_test / gitlab-script-trigger', 'Build test from test stage was created.');
  });

  it('names the repository when the URL fixes the topic', () => {
    expectContent(send('Job Hook', triggered, { topic: 'provided topic' }), '[[gitlab_test](http://192.168.64.1:3005/gitlab-org/gitlab-test)] Build test from test stage was created.');
  });
});

describe('Pipeline Hook', () => {
  const URL = 'https://gitlab.com/TomaszKolek/my-awesome-project';
  const pipeline = (status: string, builds: [number, string, string][]) => ({
    object_kind: 'pipeline', user: TK, project: project('my-awesome-project', URL),
    object_attributes: { id: 4414206, ref: 'master', tag: false, status },
    builds: builds.map(([id, name, buildStatus]) => ({ id, stage: 'test', name, status: buildStatus, artifacts_file: { filename: null, size: null } })),
  });

  it('lists the builds of a new, started or finished pipeline', () => {
    expectMessage(send('Pipeline Hook', pipeline('pending', [[4541113, 'job_name2', 'pending'], [4541112, 'job_name', 'created']])), 'my-awesome-project / master', `[Pipeline (4414206)](${URL}/-/pipelines/4414206) was created with build(s):\n* [job_name2](${URL}/-/jobs/4541113) - pending\n* [job_name](${URL}/-/jobs/4541112) - created.`, 'Pipeline Hook');
    expectMessage(send('Pipeline Hook', pipeline('running', [[4541112, 'job_name', 'running'], [4541113, 'job_name2', 'pending']])), 'my-awesome-project / master', `[Pipeline (4414206)](${URL}/-/pipelines/4414206) started with build(s):\n* [job_name](${URL}/-/jobs/4541112) - running\n* [job_name2](${URL}/-/jobs/4541113) - pending.`);
    expectMessage(send('Pipeline Hook', pipeline('success', [[4541113, 'job_name2', 'success'], [4541112, 'job_name', 'success']])), 'my-awesome-project / master', `[Pipeline (4414206)](${URL}/-/pipelines/4414206) changed status to success with build(s):\n* [job_name2](${URL}/-/jobs/4541113) - success\n* [job_name](${URL}/-/jobs/4541112) - success.`);
  });

  it('links the artifacts builds made', () => {
    const url = 'https://gitlab.example.com/group1/onlysomeproject';
    const jobs: [number, string, string | null][] = [
      [58592, 'cleanup:cleanup docker image', null], [58591, 'pages', 'artifacts.zip'], [58590, 'black+pytest:future environment', null],
      [58589, 'docs:anaconda environment', 'sphinx-docs.zip'], [58588, 'pytest:current environment', null], [58587, 'black:current environment', null],
      [58586, 'setup:docker image', null],
    ];
    const payload = {
      object_kind: 'pipeline', user: user('Someone'), project: project('onlysomeproject', url),
      object_attributes: { id: 22668, ref: 'test/links-in-zulip-pipeline-message', status: 'success' },
      // The last build predates artifacts in pipeline payloads.
      builds: jobs.map(([id, name, filename], i) => ({ id, name, status: 'success', ...(i === 6 ? {} : { artifacts_file: { filename, size: filename ? 7049623 : null } }) })),
    };
    const job = (id: number, name: string) => `* [${name}](${url}/-/jobs/${id}) - success\n`;
    const artifact = (id: number, file: string) => `  * built artifact: *${file}* [[Browse](${url}/-/jobs/${id}/artifacts/browse)|[Download](${url}/-/jobs/${id}/artifacts/download)]\n`;
    const list = jobs.map(([id, name, file]) => job(id, name) + (file ? artifact(id, file) : '')).join('').slice(0, -1);
    expectMessage(send('Pipeline Hook', payload), 'onlysomeproject / test/links-in-zulip-pipeline-message', `[Pipeline (22668)](${url}/-/pipelines/22668) changed status to success with build(s):\n${list}.`);
  });

  it('refuses artifacts that are not an object', () => {
    const payload = pipeline('success', [[1, 'job', 'success']]);
    (payload.builds[0] as Json).artifacts_file = null;
    expectError(() => send('Pipeline Hook', payload), BadRequestError, 'payload["builds"][0]["artifacts_file"] is not a dict');
  });
});

describe('Test Hook', () => {
  it('says the webhook works', () => {
    const payload = issue({ title: 'New issue that needs to be fixed' }, { project: project('public-repo', 'https://gitlab.com/eeshangarg/public-repo') });
    expectMessage(send('Test Hook', payload), 'public-repo', 'Webhook for **public-repo** has been configured successfully! :tada:', 'Test Hook');
  });
});

describe('System Hook', () => {
  it('reads a push by its event_name', () => {
    const url = 'http://test.example.com/gitlab/gitlab';
    const sha = 'c5feabde2d8cd023215af4d2ceeb7a64839fc428';
    const payload = {
      object_kind: 'push', event_name: 'push', before: '95790bf891e76fee5e1747ab589903a6a1f80f22', after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      ref: 'refs/heads/master', user_name: 'John Smith', project: project('gitlab', url),
      commits: [{ id: sha, message: 'Add simple search to projects in public area\n\ncommit message body', url: `https://test.example.com/gitlab/gitlab/-/commit/${sha}`, author: { name: 'Test User' } }],
    };
    expectMessage(send('System Hook', payload), 'gitlab / master', `John Smith [pushed](${url}/-/compare/95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7) 1 commit to branch master. Commits by Test User (1).\n\n* Add simple search to projects in public area ([c5feabde2d8](https://test.example.com/gitlab/gitlab/-/commit/${sha}))`, 'Push Hook');
    expect(send('System Hook', payload, { branches: 'main' })).toEqual({ messages: [] });
  });

  it('reads merge requests by their object_kind', () => {
    expectMessage(send('System Hook', mergeRequest({ action: 'open' })), 'my-awesome-project / MR #2 NEW MR', `Tomasz Kolek created [MR #2](${TK_URL}/merge_requests/2) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`, 'Merge Request Hook open');
    expectContent(send('System Hook', mergeRequest({ action: 'open' }), { topic: 'notifications' }), `${TK_TAG}Tomasz Kolek created [MR #2 NEW MR](${TK_URL}/merge_requests/2) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`);
    expectMessage(send('System Hook', mergeRequest({ ...MR3, action: 'open' }, { assignee: TK })), 'my-awesome-project / MR #3 New Merge Request', `Tomasz Kolek created [MR #3](${TK_URL}/merge_requests/3) from \`tomek\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription of merge request\n~~~`);
    expectMessage(send('System Hook', mergeRequest({ action: 'close' })), 'my-awesome-project / MR #2 NEW MR', `Tomasz Kolek closed [MR #2](${TK_URL}/merge_requests/2).`, 'Merge Request Hook close');
    expectContent(send('System Hook', mergeRequest({ action: 'close' }), { topic: 'notifications' }), `${TK_TAG}Tomasz Kolek closed [MR #2 NEW MR](${TK_URL}/merge_requests/2).`);
    expectMessage(send('System Hook', mergeRequest({ ...MR3, action: 'merge' })), 'my-awesome-project / MR #3 New Merge Request', `Tomasz Kolek merged [MR #3](${TK_URL}/merge_requests/3) from \`tomek\` to \`master\`.`, 'Merge Request Hook merge');
  });

  it('refuses the system events Zulip has no message for', () => {
    const payload = { event_name: 'repository_update', user_name: 'Tomasz Kolek', project: TK_PROJECT, changes: [] };
    expectError(() => send('System Hook', payload), UnsupportedWebhookEventTypeError, unsupported('Repository Update Hook'));
    expectError(() => send('System Hook', { event_name: 'project_create' }), UnsupportedWebhookEventTypeError, unsupported('Project Create Hook'));
    expectError(() => send('System Hook', { event_name: 'user_add_to_team__extra' }), UnsupportedWebhookEventTypeError, unsupported('User Add To Team Hook'));
  });
});

describe('Release Hook', () => {
  const URL = 'https://example.com/gitlab-org/release-webhook-example';
  const release = (action: string) => ({
    object_kind: 'release', action, name: 'v1.1', tag: 'v1.1', description: '## v1.1 (2024-09-06)\n\n- Feature added',
    url: `${URL}/-/releases/v1.1`, project: project('release-webhook-example', URL),
  });
  const QUOTE = '\n~~~ quote\n## v1.1 (2024-09-06)\n\n- Feature added\n~~~';

  it('quotes a created or updated release', () => {
    expectMessage(send('Release Hook', release('create')), 'release-webhook-example', `Release [v1.1](${URL}/-/releases/v1.1) for tag v1.1 was created.${QUOTE}`, 'Release Hook');
    expectMessage(send('Release Hook', release('update')), 'release-webhook-example', `Release [v1.1](${URL}/-/releases/v1.1) for tag v1.1 was updated.${QUOTE}`);
  });

  it('names the project when the URL fixes the topic', () => {
    expectContent(send('Release Hook', release('create'), { topic: 'Specific topic' }), `[[release-webhook-example](${URL})] Release [v1.1](${URL}/-/releases/v1.1) for tag v1.1 was created.${QUOTE}`);
  });

  it('says a release was deleted, without a link', () => {
    expectMessage(send('Release Hook', release('delete')), 'release-webhook-example', 'Release v1.1 for tag v1.1 was deleted.');
  });

  it('quotes nothing for a release without a description', () => {
    const { description: _, ...payload } = release('create');
    expectMessage(send('Release Hook', payload), 'release-webhook-example', `Release [v1.1](${URL}/-/releases/v1.1) for tag v1.1 was created.`);
  });
});

describe('Feature Flag Hook', () => {
  const flag = (active: boolean) => ({
    object_kind: 'feature_flag', user: user('Varun Kolanu', 'kolanuvarun739'), project: project('sample', 'https://gitlab.com/kolanuvarun/sample'),
    object_attributes: { id: 6, name: 'sample-feature-flag', description: '', active },
  });

  it('says a flag was activated or deactivated', () => {
    expectMessage(send('Feature Flag Hook', flag(true)), 'sample', 'kolanuvarun739 activated the feature flag [sample-feature-flag](https://gitlab.com/kolanuvarun/sample/-/feature_flags).', 'Feature Flag Hook');
    expectMessage(send('Feature Flag Hook', flag(false)), 'sample', 'kolanuvarun739 deactivated the feature flag [sample-feature-flag](https://gitlab.com/kolanuvarun/sample/-/feature_flags).');
  });
});

describe('Resource Access Token Hook', () => {
  const token = { user_id: 90, created_at: '2024-01-24 16:27:40 UTC', id: 25, name: 'acd', expires_at: '2024-01-26' };

  it("warns of a project token's expiry", () => {
    const payload = { object_kind: 'access_token', event_name: 'expiring_access_token', project: project('Flight', 'https://example.com/flightjs/Flight'), object_attributes: token };
    expectMessage(send('Resource Access Token Hook', payload), 'Flight', 'The access token [acd](https://example.com/flightjs/Flight/-/settings/access_tokens) will expire on Jan 26, 2024.', 'Resource Access Token Hook');
  });

  it("warns of a group token's expiry, in the group's topic", () => {
    const payload = { object_kind: 'access_token', event_name: 'expiring_access_token', group: { group_name: 'Twitter', group_path: 'twitter', group_id: 35 }, object_attributes: token };
    expectMessage(send('Resource Access Token Hook', payload), 'Twitter', 'The access token [acd](https://gitlab.com/groups/twitter/-/settings/access_tokens) will expire on Jan 26, 2024.');
  });

  it('refuses an expiry that is not a date', () => {
    const payload = { object_kind: 'access_token', project: project('Flight', 'https://example.com/flightjs/Flight'), object_attributes: { ...token, expires_at: '2024-02-30' } };
    expectError(() => send('Resource Access Token Hook', payload), BadRequestError, 'payload["object_attributes"]["expires_at"] is not a date');
  });
});

describe('Deployment Hook', () => {
  const deployment = (status: string, job: number) => ({
    object_kind: 'deployment', status, deployable_url: `https://gitlab.com/vedant8600317/test/-/jobs/${job}`, environment: 'production',
    project: project('test', 'https://gitlab.com/vedant8600317/test'), short_sha: '58793660',
    user: user('Vedant Joshi', 'theofficialvedantjoshi'), user_url: 'https://gitlab.com/theofficialvedantjoshi',
    commit_url: 'https://gitlab.com/vedant8600317/test/-/commit/58793660b22d6ceacbdc23b28a0562bca339702c', commit_title: 'Update .gitlab-ci.yml file', ref: 'master',
  });

  it('says a deployment started, with its commit', () => {
    expectMessage(send('Deployment Hook', deployment('running', 9905389091)), 'test / production', '[Vedant Joshi](https://gitlab.com/theofficialvedantjoshi) started a new [deployment](https://gitlab.com/vedant8600317/test/-/jobs/9905389091):\n> [5879366](https://gitlab.com/vedant8600317/test/-/commit/58793660b22d6ceacbdc23b28a0562bca339702c) Update .gitlab-ci.yml file', 'Deployment Hook');
  });

  it('says how a deployment ended', () => {
    expectMessage(send('Deployment Hook', deployment('success', 9905389091)), 'test / production', 'The [deployment](https://gitlab.com/vedant8600317/test/-/jobs/9905389091) was successful.');
    expectMessage(send('Deployment Hook', deployment('failed', 9905759933)), 'test / production', 'The [deployment](https://gitlab.com/vedant8600317/test/-/jobs/9905759933) failed.');
    expectMessage(send('Deployment Hook', deployment('canceled', 9905830127)), 'test / production', 'The [deployment](https://gitlab.com/vedant8600317/test/-/jobs/9905830127) was canceled.');
  });

  it('links nothing without a job', () => {
    const { deployable_url: _, ...payload } = deployment('success', 1);
    expectMessage(send('Deployment Hook', payload), 'test / production', 'The deployment was successful.');
  });

  it('refuses a status GitLab does not document', () => {
    expectError(() => send('Deployment Hook', deployment('created', 1)), UnsupportedWebhookEventTypeError, unsupported('Deployment Hook created'));
  });
});

describe('errors', () => {
  const closed = mergeRequest({ action: 'close' });

  it('is registered, with Zulip\'s event types and the branches option', () => {
    expect(integrationNamed('gitlab')).toBe(gitlab);
    expect(gitlab.displayName).toBe('GitLab');
    expect(gitlab.eventTypes).toHaveLength(36);
    expect(gitlab.eventTypes).toContain('Merge Request Hook unapproval');
    expect(gitlab.eventTypes).toContain('Confidential Note Hook DesignManagement::Design');
    expect(gitlab.configOptions?.map((o) => o.key)).toEqual(['branches']);
  });

  it('refuses an event Zulip has no message for, with 200', () => {
    expectError(() => send('Foo Hook', closed), UnsupportedWebhookEventTypeError, unsupported('Foo Hook'));
    expectError(() => send('constructor', closed), UnsupportedWebhookEventTypeError, unsupported('constructor'));
    expectError(() => send('Merge Request Hook', mergeRequest({ action: 'toString' })), UnsupportedWebhookEventTypeError, unsupported('Merge Request Hook toString'));
  });

  it('reads the header whatever its case', () => {
    const outcome = gitlab.translate(new IncomingWebhookRequest({ body: JSON.stringify(closed), headers: { 'x-gitlab-event': 'Merge Request Hook' } }));
    expect(outcome.eventType).toBe('Merge Request Hook close');
  });

  it('refuses a request without the event header', () => {
    expectError(() => send(null, closed), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-GitLab-Event'");
  });

  it('refuses a body that is not JSON', () => {
    expectError(() => send('Push Hook', 'not json'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses payloads of the wrong shape with 400', () => {
    const { iid: _, ...noIid } = closed.object_attributes;
    expectError(() => send('Merge Request Hook', { ...closed, object_attributes: noIid }), BadRequestError, 'payload["object_attributes"]["iid"] is missing');
    expectError(() => send('Push Hook', { ref: 'refs/heads/x', before: 'a', after: 'b', user_name: 5, project: TK_PROJECT, commits: [] }), BadRequestError, 'payload["user_name"] is not a string');
    expectError(() => send('Issue Hook', { ...issue({}), object_attributes: 'x' }), BadRequestError, 'payload["object_attributes"] is not a dict');
    expectError(() => send('Issue Hook', issue({ action: null })), BadRequestError, 'payload["object_attributes"]["action"] is not a string');
    expectError(() => send('Push Hook', [1, 2]), BadRequestError, 'payload is not a dict');
    expectError(() => send('Note Hook', { object_attributes: { noteable_type: 'Issue' } }), BadRequestError, 'payload["object_attributes"]["url"] is missing');
    expectError(() => send('Issue Hook', issue({ action: 'open' }, { assignees: 'Tomasz' })), BadRequestError, 'payload["assignees"] is not a list');
  });

  it('refuses a use_merge_request_title that is not a JSON boolean', () => {
    expectError(() => send('Merge Request Hook', closed, { use_merge_request_title: 'no' }), BadRequestError, 'use_merge_request_title is not valid JSON');
    expectError(() => send('Merge Request Hook', closed, { use_merge_request_title: '1' }), BadRequestError, 'use_merge_request_title is not a boolean');
  });
});
