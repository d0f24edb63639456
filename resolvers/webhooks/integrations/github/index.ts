// GitHub's webhooks (Zulip's zerver/webhooks/github/view.py). GitHub names the event in the
// X-GitHub-Event header; Zulip refines it with the payload's `action` (and a push's ref) into its own
// event names, which are what `only_events`/`exclude_events` match and which choose the message.
import { UnsupportedWebhookEventTypeError } from '../../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../../integration.ts';
import type { WildValue } from '../../payload.ts';
import { isBranchNameNotifiable, topicWithBranch, topicWithPrOrIssueInfo } from '../git.ts';
import * as community from './community.ts';
import { GITHUB } from './community.ts';
import { branchNameFromRef, type GitHubContext, isPullRequestComment, repositoryName, size } from './context.ts';
import * as issues from './issues.ts';
import * as pulls from './pull-requests.ts';
import * as repo from './repository.ts';

// Zulip's EVENT_FUNCTION_MAPPER, in its order: the keys are Zulip's event names (ALL_EVENT_TYPES).
const MESSAGES: Record<string, (context: GitHubContext) => string> = {
  commit_comment: repo.commitComment,
  closed_pull_request: pulls.closedPullRequest,
  create: repo.createdOrDeletedRef('created'),
  check_run: repo.checkRun,
  delete: repo.createdOrDeletedRef('deleted'),
  deployment: repo.deployment,
  deployment_status: repo.deploymentStatus,
  discussion: community.discussion,
  discussion_comment: issues.discussionComment,
  fork: repo.fork,
  gollum: repo.wikiPages,
  issue_comment: issues.issueComment,
  issue_labeled_or_unlabeled: issues.issueLabeledOrUnlabeled,
  issue_milestoned_or_demilestoned: issues.issueMilestonedOrDemilestoned,
  issues_opened_via_transfer: issues.issueOpenedViaTransfer,
  issues_transferred: issues.issueTransferred,
  issues: issues.issue,
  member: repo.member,
  membership: community.membership,
  opened_pull_request: pulls.openedOrUpdatedPullRequest,
  updated_pull_request: pulls.openedOrUpdatedPullRequest,
  assigned_or_unassigned_pull_request: pulls.assignedOrUnassignedPullRequest,
  page_build: repo.pageBuild,
  ping: community.ping,
  public: repo.publicized,
  pull_request_ready_for_review: pulls.pullRequestReadyForReview,
  pull_request_review: pulls.pullRequestReview,
  pull_request_review_comment: pulls.pullRequestReviewComment,
  pull_request_review_requested: pulls.pullRequestReviewRequested,
  pull_request_auto_merge: pulls.pullRequestAutoMerge,
  locked_or_unlocked_pull_request: pulls.lockedOrUnlockedPullRequest,
  push_commits: repo.pushCommits,
  push_tags: repo.pushTags,
  release: repo.release,
  repository: repo.repository,
  star: repo.star,
  status: repo.status,
  team: community.team,
  team_add: repo.teamAdd,
  watch: repo.watch,
  cancelled: community.sponsorshipCancelled,
  created: community.sponsorshipCreated,
  edited: community.sponsorshipEdited,
  pending_cancellation: community.sponsorshipPendingCancellation,
  pending_tier_change: community.sponsorshipPendingTierChange,
  tier_changed: community.sponsorshipTierChanged,
};

const SPONSORS_EVENTS = new Set(['cancelled', 'created', 'edited', 'pending_cancellation', 'pending_tier_change', 'tier_changed']);

/** Events GitHub sends that Zulip deliberately says nothing about. */
const IGNORED_EVENTS = new Set([
  'check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'push__merge_queue', 'repository_vulnerability_alert',
]);

const IGNORED_PULL_REQUEST_ACTIONS = new Set(['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled']);

/** Team actions GitHub documents that Zulip has no message for yet; any other action is new, so unsupported. */
const IGNORED_TEAM_ACTIONS = new Set(['added_to_repository', 'created', 'deleted', 'removed_from_repository']);

const PULL_REQUEST_ACTIONS: Record<string, string> = {
  opened: 'opened_pull_request',
  reopened: 'opened_pull_request',
  synchronize: 'updated_pull_request',
  edited: 'updated_pull_request',
  assigned: 'assigned_or_unassigned_pull_request',
  unassigned: 'assigned_or_unassigned_pull_request',
  closed: 'closed_pull_request',
  review_requested: 'pull_request_review_requested',
  ready_for_review: 'pull_request_ready_for_review',
  locked: 'locked_or_unlocked_pull_request',
  unlocked: 'locked_or_unlocked_pull_request',
  auto_merge_enabled: 'pull_request_auto_merge',
  auto_merge_disabled: 'pull_request_auto_merge',
};

/** Zulip's event name for GitHub's event; null for one to say nothing about. */
function zulipEventName(headerEvent: string, payload: WildValue, branches: string | undefined): string | null {
  switch (headerEvent) {
    case 'pull_request': {
      const action = payload.get('action').str();
      if (Object.hasOwn(PULL_REQUEST_ACTIONS, action)) return PULL_REQUEST_ACTIONS[action]!;
      if (IGNORED_PULL_REQUEST_ACTIONS.has(action)) return null;
      break;
    }
    case 'pull_request_review': {
      // Submitting a review, GitHub also sends an `edited` event without changes: a duplicate.
      const duplicate = payload.get('action').str() === 'edited' && (!payload.has('changes') || size(payload.get('changes')) === 0);
      return duplicate ? null : 'pull_request_review';
    }
    case 'push': {
      const ref = payload.get('ref').str();
      if (ref.startsWith('refs/heads/gh-readonly-queue/')) return null;
      if (!ref.startsWith('refs/heads/')) return 'push_tags';
      return isBranchNameNotifiable(branchNameFromRef(ref), branches) ? 'push_commits' : null;
    }
    case 'check_run':
      return payload.get('check_run').get('status').str() === 'completed' ? 'check_run' : null;
    case 'team': {
      const action = payload.get('action').str();
      if (action === 'edited') return 'team';
      if (IGNORED_TEAM_ACTIONS.has(action)) return null;
      throw new UnsupportedWebhookEventTypeError(GITHUB, `unsupported team action ${action}`);
    }
    case 'issues': {
      const action = payload.get('action').str();
      if (action === 'labeled' || action === 'unlabeled') return 'issue_labeled_or_unlabeled';
      if (action === 'milestoned' || action === 'demilestoned') return 'issue_milestoned_or_demilestoned';
      if (action === 'transferred') return 'issues_transferred';
      if (action === 'opened' && payload.has('changes') && payload.get('changes').opt('old_issue').truthy()) return 'issues_opened_via_transfer';
      return 'issues';
    }
    default:
      if (Object.hasOwn(MESSAGES, headerEvent)) return headerEvent;
      if (IGNORED_EVENTS.has(headerEvent)) return null;
  }
  const action = payload.has('action') ? payload.get('action').str() : '???';
  throw new UnsupportedWebhookEventTypeError(GITHUB, `${headerEvent}:${action}`);
}

function topicFor(event: string, payload: WildValue): string {
  if (event.includes('pull_request')) {
    const pr = payload.get('pull_request');
    return topicWithPrOrIssueInfo(repositoryName(payload), 'PR', pr.get('number').int(), pr.get('title').str());
  }
  if (event.startsWith('issue')) {
    const type = isPullRequestComment(payload) ? 'PR' : 'issue';
    const issue = payload.get('issue');
    return topicWithPrOrIssueInfo(repositoryName(payload), type, issue.get('number').int(), issue.get('title').str());
  }
  if (event.startsWith('deployment')) return `${repositoryName(payload)} / Deployment on ${payload.get('deployment').get('environment').str()}`;
  if (event === 'membership') return `${payload.get('organization').get('login').str()} organization`;
  if (event === 'team') return `team ${payload.get('team').get('name').str()}`;
  if (event === 'push_commits') return topicWithBranch(repositoryName(payload), branchNameFromRef(payload.get('ref').str()));
  if (event === 'gollum') return topicWithBranch(repositoryName(payload), 'wiki pages');
  // An organization's webhook has no repository to name.
  if (event === 'ping' && !payload.opt('repository').truthy()) return payload.get('organization').get('login').str();
  if (event === 'check_run') return `${repositoryName(payload)} / checks`;
  if (event.startsWith('discussion')) {
    const discussion = payload.get('discussion');
    return `${repositoryName(payload)} discussion #${discussion.get('number').int()}: ${discussion.get('title').str()}`;
  }
  if (SPONSORS_EVENTS.has(event)) return 'sponsors';
  return repositoryName(payload);
}

function translate(request: WebhookRequest): WebhookOutcome {
  const payload = request.payload();
  const branches = request.param('branches');
  const ignorePrivateRepositories = request.boolParam('ignore_private_repositories', false);
  const includeRepositoryName = request.boolParam('include_repository_name', false);
  const headerEvent = request.eventHeader('X-GitHub-Event');

  if (payload.has('repository') && payload.get('repository').get('private').bool() && ignorePrivateRepositories) {
    return { messages: [] };
  }

  // Editing a comment without changing its text (GitHub sends that) is not news; discussions' comments excepted.
  if (headerEvent.includes('comment') && !headerEvent.includes('discussion')
    && (payload.has('action') ? payload.get('action').str() : '') === 'edited'
    && payload.get('changes').get('body').get('from').str() === payload.get('comment').get('body').str()) {
    return { messages: [] };
  }

  const event = zulipEventName(headerEvent, payload, branches);
  if (event === null) return { messages: [] };
  const topic = topicFor(event, payload);
  const context: GitHubContext = {
    payload,
    includeTitle: request.param('topic') !== undefined,
    includeRepositoryName,
  };
  return { eventType: event, messages: [{ topic, content: MESSAGES[event]!(context) }] };
}

export const ALL_EVENT_TYPES = Object.keys(MESSAGES);

export const github: Integration = {
  urlName: 'github',
  displayName: GITHUB,
  eventTypes: ALL_EVENT_TYPES,
  configOptions: [
    { key: 'branches', label: '', validator: 'check_string' },
    { key: 'ignore_private_repositories', label: 'Exclude notifications from private repositories', validator: 'check_bool' },
    { key: 'include_repository_name', label: 'Include repository name in the notifications', validator: 'check_bool' },
  ],
  translate,
};

/** Zulip serves GitHub Sponsors' webhooks with the GitHub view, at a URL of their own. */
export const githubSponsors: Integration = {
  urlName: 'githubsponsors',
  displayName: 'GitHub Sponsors',
  eventTypes: ALL_EVENT_TYPES,
  translate,
};
