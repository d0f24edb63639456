// Messages for pull requests, their reviews and their comments.
import { getPullRequestEventMessage } from '../git.ts';
import { type GitHubContext, senderName } from './context.ts';

function titleIf(context: GitHubContext): string | null {
  return context.includeTitle ? context.payload.get('pull_request').get('title').str() : null;
}

/** opened, reopened, edited and synchronize (pushed to). */
export function openedOrUpdatedPullRequest(context: GitHubContext): string {
  const { payload } = context;
  const pr = payload.get('pull_request');
  let action = payload.get('action').str();
  if (action === 'synchronize') action = 'updated';
  const assignee = pr.opt('assignee').truthy() ? pr.get('assignee').get('login').str() : null;
  // The description is worth quoting when it is new or has just changed.
  const description = payload.opt('changes').has('body') || action === 'opened' ? pr.get('body').optStr() : null;
  const showBranches = action === 'opened' || action === 'merged';
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action,
    url: pr.get('html_url').str(),
    targetBranch: showBranches ? pr.get('head').get('label').str() : null,
    baseBranch: showBranches ? pr.get('base').get('label').str() : null,
    message: description,
    assignee,
    number: pr.get('number').int(),
    title: titleIf(context),
  });
}

export function assignedOrUnassignedPullRequest(context: GitHubContext): string {
  const { payload } = context;
  const pr = payload.get('pull_request');
  const assignee = payload.get('assignee').get('login').str();
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action: payload.get('action').str(),
    url: pr.get('html_url').str(),
    number: pr.get('number').int(),
    title: titleIf(context),
    assigneeUpdated: assignee,
  });
}

export function closedPullRequest(context: GitHubContext): string {
  const { payload } = context;
  const pr = payload.get('pull_request');
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action: pr.get('merged').bool() ? 'merged' : 'closed without merge',
    url: pr.get('html_url').str(),
    number: pr.get('number').int(),
    title: titleIf(context),
  });
}

export function lockedOrUnlockedPullRequest({ payload }: GitHubContext): string {
  const pr = payload.get('pull_request');
  const action = payload.get('action').str();
  const reason = pr.get('active_lock_reason').truthy() ? pr.get('active_lock_reason').str() : 'None';
  const sender = senderName(payload);
  const number = pr.get('number').int();
  const url = pr.get('html_url').str();
  return action === 'unlocked'
    ? `${sender} has unlocked [PR #${number}](${url}).`
    : `${sender} has locked [PR #${number}](${url}) as ${reason} and limited conversation to collaborators.`;
}

export function pullRequestAutoMerge({ payload }: GitHubContext): string {
  const action = payload.get('action').str();
  const pr = payload.get('pull_request');
  const verb = action === 'auto_merge_disabled' ? 'disabled' : 'enabled';
  return `${senderName(payload)} has ${verb} auto merge for [PR #${pr.get('number').int()}](${pr.get('html_url').str()}).`;
}

export function pullRequestReadyForReview({ payload }: GitHubContext): string {
  const pr = payload.get('pull_request');
  return `**${senderName(payload)}** has marked [PR #${pr.get('number').int()}](${pr.get('html_url').str()}) as ready for review.`;
}

export function pullRequestReview(context: GitHubContext): string {
  const { payload } = context;
  const pr = payload.get('pull_request');
  const title = `for #${pr.get('number').int()} ${pr.get('title').str()}`;
  const review = payload.get('review');
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action: 'submitted',
    url: review.get('html_url').str(),
    type: 'PR review',
    title: context.includeTitle ? title : null,
    message: review.get('body').optStr(),
  });
}

export function pullRequestReviewComment(context: GitHubContext): string {
  const { payload } = context;
  const action = payload.get('action').str();
  // Only a new comment is quoted; an edit or a deletion is just mentioned.
  const message = action === 'created' ? payload.get('comment').get('body').str() : null;
  const pr = payload.get('pull_request');
  const title = `on #${pr.get('number').int()} ${pr.get('title').str()}`;
  return getPullRequestEventMessage({
    userName: senderName(payload),
    action,
    url: payload.get('comment').get('html_url').str(),
    message,
    type: 'PR review comment',
    title: context.includeTitle ? title : null,
  });
}

export function pullRequestReviewRequested(context: GitHubContext): string {
  const { payload } = context;
  const sender = senderName(payload);
  const pr = payload.get('pull_request');
  const number = pr.get('number').int();
  const url = pr.get('html_url').str();
  let reviewers: string;
  if (payload.has('requested_reviewer')) {
    const reviewer = payload.get('requested_reviewer');
    reviewers = `[${reviewer.get('login').str()}](${reviewer.get('html_url').str()})`;
  } else {
    const team = payload.get('requested_team');
    reviewers = `[${team.get('name').str()}](${team.get('html_url').str()})`;
  }
  const link = context.includeTitle ? `PR #${number} ${pr.get('title').str()}` : `PR #${number}`;
  return `**${sender}** requested ${reviewers} for a review on [${link}](${url}).`;
}
