// Gogs' webhooks (Zulip's zerver/webhooks/gogs/view.py), and the translation Gitea shares with it
// (gitea.ts): Gitea is a fork of Gogs whose payloads differ only in how a pull request reads. The
// header names the event, and the event name is what `only_events`/`exclude_events` match.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import {
  type CommitInfo, getCreateBranchEventMessage, getIssueEventMessage, getPullRequestEventMessage,
  getPushCommitsEventMessage, getReleaseEventMessage, isBranchNameNotifiable, split, topicWithBranch,
  topicWithPrOrIssueInfo, topicWithRelease,
} from './git.ts';

/** Writes a `pull_request` event's message, where Gogs and Gitea differ. */
export type PullRequestFormatter = (payload: WildValue, includeTitle: boolean) => string;

export const BRANCHES_OPTION = { key: 'branches', label: '', validator: 'check_string' } as const;

/** Python's `str.replace`, which replaces every occurrence. */
function branchFromRef(ref: string): string {
  return ref.replaceAll('refs/heads/', '');
}

function issueUrl(payload: WildValue, issueNumber: number): string {
  return `${payload.get('repository').get('html_url').str()}/issues/${issueNumber}`;
}

/** A commit credited to its author's username, else the first word of their name. */
function commitInfo(commit: WildValue): CommitInfo {
  const author = commit.get('author');
  let name: string | undefined = author.get('username').str();
  if (name === '') {
    const nameValue = author.get('name');
    [name] = split(nameValue.str());
    // Zulip fails here with a server error; a nameless author is the payload's fault.
    if (name === undefined) throw new BadRequestError(`${nameValue.varName} is empty`);
  }
  return { name, sha: commit.get('id').str(), url: commit.get('url').str(), message: commit.get('message').str() };
}

function pushMessage(payload: WildValue): string {
  return getPushCommitsEventMessage({
    userName: payload.get('sender').get('username').str(),
    compareUrl: payload.get('compare_url').str(),
    branchName: branchFromRef(payload.get('ref').str()),
    commits: payload.get('commits').list().map(commitInfo),
  });
}

// Gogs reports a new tag the same way, and Zulip words it as a branch too.
function createMessage(payload: WildValue): string {
  const ref = payload.get('ref').str();
  return getCreateBranchEventMessage(
    payload.get('sender').get('username').str(),
    `${payload.get('repository').get('html_url').str()}/src/${ref}`,
    ref,
  );
}

/**
 * What Gogs' and Gitea's pull-request messages share: who acted (the one who merged, else
 * `actor`), the action, the link and the title; the branches and the assignee are read apart.
 */
export function pullRequestBasics(payload: WildValue, includeTitle: boolean, actor: (pr: WildValue) => string) {
  const pr = payload.get('pull_request');
  const merged = pr.get('merged').bool();
  const userName = merged ? pr.get('merged_by').get('username').str() : actor(pr);
  const action = merged ? 'merged' : payload.get('action').str();
  return {
    pr,
    showBranches: action !== 'edited',
    message: { userName, action, url: pr.get('html_url').str(), number: pr.get('number').int(), title: includeTitle ? pr.get('title').str() : null },
  };
}

/** Gogs' own pull requests: the author acts, the branches are `head_branch`/`base_branch`. */
export function gogsPullRequestMessage(payload: WildValue, includeTitle: boolean): string {
  const { pr, showBranches, message } = pullRequestBasics(payload, includeTitle, (p) => p.get('user').get('username').str());
  const assigned = payload.get('action').truthy() && pr.get('assignee').truthy();
  return getPullRequestEventMessage({
    ...message,
    targetBranch: showBranches ? pr.get('head_branch').str() : null,
    baseBranch: showBranches ? pr.get('base_branch').str() : null,
    assigneeUpdated: assigned ? pr.get('assignee').get('login').str() : null,
  });
}

function issuesMessage(payload: WildValue, includeTitle: boolean): string {
  const issue = payload.get('issue');
  const issueNumber = issue.get('number').int();
  const assignee = issue.get('assignee').truthy() ? issue.get('assignee').get('login').str() : null;
  const action = payload.get('action').str();
  return getIssueEventMessage({
    userName: payload.get('sender').get('login').str(),
    action,
    url: issueUrl(payload, issueNumber),
    number: issueNumber,
    message: issue.get('body').str(),
    assignee,
    title: includeTitle ? issue.get('title').str() : null,
    assigneeUpdated: action === 'assigned' ? assignee : null,
  });
}

function issueCommentMessage(payload: WildValue, includeTitle: boolean): string {
  const action = payload.get('action').str();
  const comment = payload.get('comment');
  const issue = payload.get('issue');
  const link = `${action === 'created' ? '[commented]' : `${action} a [comment]`}(${comment.get('html_url').str()}) on`;
  return getIssueEventMessage({
    userName: payload.get('sender').get('login').str(),
    action: link,
    url: issueUrl(payload, issue.get('number').int()),
    number: issue.get('number').int(),
    message: comment.get('body').str(),
    title: includeTitle ? issue.get('title').str() : null,
  });
}

function releaseMessage(payload: WildValue): string {
  const release = payload.get('release');
  return getReleaseEventMessage(
    release.get('author').get('username').str(),
    payload.get('action').str(),
    release.get('tag_name').str(),
    release.get('name').str(),
    payload.get('repository').get('html_url').str(),
  );
}

/** The translation Gogs and Gitea share: Zulip's gogs_webhook_main. */
export function gogsTranslator(displayName: string, eventHeader: string, pullRequestMessage: PullRequestFormatter) {
  return (request: WebhookRequest): WebhookOutcome => {
    const payload = request.payload();
    const repo = payload.get('repository').get('name').str();
    const event = request.eventHeader(eventHeader);
    const includeTitle = request.param('topic') !== undefined;

    let topic: string;
    let content: string;
    switch (event) {
      case 'push': {
        const branch = branchFromRef(payload.get('ref').str());
        if (!isBranchNameNotifiable(branch, request.param('branches'))) return { messages: [] };
        content = pushMessage(payload);
        topic = topicWithBranch(repo, branch);
        break;
      }
      case 'create':
        content = createMessage(payload);
        topic = topicWithBranch(repo, payload.get('ref').str());
        break;
      case 'pull_request': {
        content = pullRequestMessage(payload, includeTitle);
        // Zulip names the topic after the pull request's id, not its number.
        const pr = payload.get('pull_request');
        topic = topicWithPrOrIssueInfo(repo, 'PR', pr.get('id').int(), pr.get('title').str());
        break;
      }
      case 'issues':
      case 'issue_comment': {
        content = event === 'issues' ? issuesMessage(payload, includeTitle) : issueCommentMessage(payload, includeTitle);
        const issue = payload.get('issue');
        topic = topicWithPrOrIssueInfo(repo, 'issue', issue.get('number').int(), issue.get('title').str());
        break;
      }
      case 'release': {
        content = releaseMessage(payload);
        const release = payload.get('release');
        topic = topicWithRelease(repo, release.get('tag_name').str(), release.get('name').str());
        break;
      }
      default:
        throw new UnsupportedWebhookEventTypeError(displayName, event);
    }
    return { eventType: event, messages: [{ topic, content }] };
  };
}

export const gogs: Integration = {
  urlName: 'gogs',
  displayName: 'Gogs',
  eventTypes: ['issue_comment', 'issues', 'create', 'pull_request', 'push', 'release'],
  configOptions: [BRANCHES_OPTION],
  translate: gogsTranslator('Gogs', 'X-Gogs-Event', gogsPullRequestMessage),
};
