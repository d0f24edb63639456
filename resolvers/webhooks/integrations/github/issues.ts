// Messages for issues and for comments on issues, PRs and discussions.
import type { WildValue } from '../../payload.ts';
import {
  getIssueEventMessage, getIssueLabeledOrUnlabeledEventMessage, getIssueMilestonedOrDemilestonedEventMessage,
  getPullRequestEventMessage,
} from '../git.ts';
import { type GitHubContext, isPullRequestComment, senderName, senderUrl } from './context.ts';

function issueTitleIf(context: GitHubContext): string | null {
  return context.includeTitle ? context.payload.get('issue').get('title').str() : null;
}

/** "[commented](url) on" or "edited a [comment](url) on". */
function commentAction(payload: WildValue): string {
  const action = payload.get('action').str();
  const verb = action === 'created' ? '[commented]' : `${action} a [comment]`;
  return `${verb}(${payload.get('comment').get('html_url').str()}) on`;
}

export function issue(context: GitHubContext): string {
  const { payload } = context;
  const action = payload.get('action').str();
  const issue = payload.get('issue');
  return getIssueEventMessage({
    userName: senderName(payload),
    action,
    url: issue.get('html_url').str(),
    number: issue.get('number').int(),
    message: action === 'assigned' || action === 'unassigned' ? null : issue.get('body').optStr(),
    title: issueTitleIf(context),
    assigneeUpdated: payload.has('assignee') ? payload.get('assignee').get('login').str() : null,
  });
}

export function issueComment(context: GitHubContext): string {
  const { payload } = context;
  const issue = payload.get('issue');
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action: commentAction(payload),
    url: issue.get('html_url').str(),
    number: issue.get('number').int(),
    message: payload.get('comment').get('body').str(),
    title: issueTitleIf(context),
    type: isPullRequestComment(payload) ? 'PR' : 'issue',
  });
}

export function issueLabeledOrUnlabeled(context: GitHubContext): string {
  const { payload } = context;
  const issue = payload.get('issue');
  return getIssueLabeledOrUnlabeledEventMessage({
    userName: senderName(payload),
    action: payload.get('action').str() === 'labeled' ? 'added' : 'removed',
    url: issue.get('html_url').str(),
    number: issue.get('number').int(),
    labelName: payload.get('label').get('name').str(),
    userUrl: senderUrl(payload),
    title: issueTitleIf(context),
  });
}

export function issueMilestonedOrDemilestoned(context: GitHubContext): string {
  const { payload } = context;
  const issue = payload.get('issue');
  const milestone = payload.get('milestone');
  return getIssueMilestonedOrDemilestonedEventMessage({
    userName: senderName(payload),
    action: payload.get('action').str() === 'milestoned' ? 'added' : 'removed',
    url: issue.get('html_url').str(),
    number: issue.get('number').int(),
    milestoneName: milestone.get('title').str(),
    milestoneUrl: milestone.get('html_url').str(),
    userUrl: senderUrl(payload),
    title: issueTitleIf(context),
  });
}

export function issueTransferred({ payload }: GitHubContext): string {
  const issue = payload.get('issue');
  const changes = payload.get('changes');
  const newIssue = changes.get('new_issue');
  return `${senderName(payload)} transferred [issue #${issue.get('number').int()} ${issue.get('title').str()}](${issue.get('html_url').str()}) to [${changes.get('new_repository').get('full_name').str()}/#${newIssue.get('number').int()}](${newIssue.get('html_url').str()}).`;
}

export function issueOpenedViaTransfer({ payload }: GitHubContext): string {
  const issue = payload.get('issue');
  const changes = payload.get('changes');
  const oldIssue = changes.get('old_issue');
  return `[Issue #${issue.get('number').int()} ${issue.get('title').str()}](${issue.get('html_url').str()}) was transferred from [${changes.get('old_repository').get('full_name').str()}#${oldIssue.get('number').int()}](${oldIssue.get('html_url').str()}).`;
}

export function discussionComment(context: GitHubContext): string {
  const { payload } = context;
  const discussion = payload.get('discussion');
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action: commentAction(payload),
    url: discussion.get('html_url').str(),
    number: discussion.get('number').int(),
    message: payload.get('comment').get('body').str(),
    title: context.includeTitle ? discussion.get('title').str() : null,
    type: 'discussion',
  });
}
