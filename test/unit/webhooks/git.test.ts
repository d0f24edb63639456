// The git integrations' shared messages (Zulip's zerver/lib/webhooks/git.py), on the paths GitHub's
// tests do not take (GitLab, Gitea and Bitbucket take them).
import { describe, expect, it } from 'vitest';
import {
  type CommitInfo, getAllCommitters, getCommitsCommentActionMessage, getCommitsContent, getCreateBranchEventMessage,
  getForcePushCommitsEventMessage, getIssueEventMessage, getPullRequestEventMessage, getPushCommitsEventMessage,
  getPushTagEventMessage, getRemoveBranchEventMessage, isBranchNameNotifiable, rstrip, split, topicWithRelease,
} from '../../../resolvers/webhooks/integrations/git.ts';

const commit = (name: string, message = 'Fix it'): CommitInfo => ({ name, sha: 'a'.repeat(40), url: 'https://example.com/c', message });
const ROW = '* Fix it ([aaaaaaaaaaa](https://example.com/c))';

describe('push messages', () => {
  it('writes pushes without a compare URL', () => {
    expect(getPushCommitsEventMessage({ userName: 'kim', compareUrl: null, branchName: 'main', commits: [commit('kim')] }))
      .toBe(`kim pushed 1 commit to branch main.\n\n${ROW}`);
    expect(getPushCommitsEventMessage({ userName: 'kim', compareUrl: null, branchName: 'main', commits: [], forcePush: true }))
      .toBe('kim force pushed the branch main.');
  });

  it('says more commits were pushed than listed when the host truncated them', () => {
    expect(getCommitsContent([commit('kim')], true)).toBe(`${ROW}\n[and more commit(s)]`);
    expect(getPushCommitsEventMessage({ userName: 'kim', compareUrl: 'u', branchName: 'main', commits: [commit('kim')], isTruncated: true }))
      .toBe(`kim [pushed](u) 1 commit to branch main.\n\n${ROW}\n[and more commit(s)]`);
  });

  it('credits two committers, ties alphabetically', () => {
    expect(getAllCommitters([commit('b'), commit('a')])).toEqual([['a', 1], ['b', 1]]);
    expect(getPushCommitsEventMessage({ userName: 'kim', compareUrl: 'u', branchName: 'main', commits: [commit('b'), commit('a')] }))
      .toBe(`kim [pushed](u) 2 commits to branch main. Commits by a (1) and b (1).\n\n${ROW}\n${ROW}`);
  });

  it('writes the other branch and tag sentences', () => {
    expect(getForcePushCommitsEventMessage('kim', 'u', 'main', 'abc')).toBe('kim [force pushed](u) to branch main. Head is now abc.');
    expect(getCreateBranchEventMessage('kim', 'u', 'dev')).toBe('kim created [dev](u) branch.');
    expect(getCreateBranchEventMessage('kim', null, 'dev')).toBe('kim created dev branch.');
    expect(getRemoveBranchEventMessage('kim', 'dev')).toBe('kim deleted branch dev.');
    expect(getPushTagEventMessage('kim', 'v1', 'u')).toBe('kim pushed tag [v1](u).');
    expect(getPushTagEventMessage('kim', 'v1', null, 'removed')).toBe('kim removed tag v1.');
    expect(topicWithRelease('repo', 'v1', 'First')).toBe('repo / v1 First');
  });

  it('reads the branches option as a comma-separated list', () => {
    expect(isBranchNameNotifiable('main', undefined)).toBe(true);
    expect(isBranchNameNotifiable('main', 'dev, main')).toBe(true);
    expect(isBranchNameNotifiable('main', 'dev')).toBe(false);
    expect(isBranchNameNotifiable('main', '')).toBe(false);
  });
});

describe('pull request and issue messages', () => {
  it('lists several assignees', () => {
    const assignees = [{ username: 'a' }, { username: 'b' }, { username: 'c' }];
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'opened', url: 'u', number: 3, assignees }))
      .toBe('kim opened [PR #3](u) (assigned to a, b and c).');
    expect(getIssueEventMessage({ userName: 'kim', action: 'opened', url: 'u', number: 3, assignees: [{ username: 'a' }], message: 'Text' }))
      .toBe('kim opened [issue #3](u) (assigned to a):\n\n~~~ quote\nText\n~~~');
  });

  it('names reviewers and approvals', () => {
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'opened', url: 'u', number: 3, reviewer: 'lee' }))
      .toBe('kim opened [PR #3](u) (assigned reviewers: lee).');
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'approval', url: 'u', number: 3 }))
      .toBe('kim added their approval for [PR #3](u).');
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'unapproval', url: 'u', type: 'MR' }))
      .toBe('kim removed their approval for [MR](u).');
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'constructor', url: 'u' })).toBe('kim constructor [PR](u).');
  });

  it("lets a title's own punctuation end the sentence, and prints a missing assignee as Python does", () => {
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'closed', url: 'u', number: 3, title: 'Done?', message: 'Why' }))
      .toBe('kim closed [PR #3 Done?](u)\n\n~~~ quote\nWhy\n~~~');
    expect(getPullRequestEventMessage({ userName: 'kim', action: 'assigned', url: 'u', number: 3 }))
      .toBe('kim assigned None to [PR #3](u).');
  });

  it('writes commit comments', () => {
    expect(getCommitsCommentActionMessage('kim', 'commented', 'u', 'b'.repeat(40))).toBe('kim commented on [bbbbbbbbbbb](u).');
  });

  it("strips trailing whitespace as Python's rstrip does", () => {
    expect(rstrip('a \n\t\x1c\u3000')).toBe('a');
    expect(rstrip('a\ufeff')).toBe('a\ufeff');
  });

  it("splits on runs of whitespace as Python's str.split() does", () => {
    expect(split(' John\x1c\u3000Doe \n')).toEqual(['John', 'Doe']);
    expect(split('a\ufeffb')).toEqual(['a\ufeffb']);
    expect(split(' \t ')).toEqual([]);
    expect(split('')).toEqual([]);
  });
});
