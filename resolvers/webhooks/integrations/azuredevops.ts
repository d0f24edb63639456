// Azure DevOps' service hooks (Zulip's zerver/webhooks/azuredevops/view.py): pushes and pull
// requests of Azure Repos. The payload's `eventType` names the event. Zulip sends these messages
// without an event type, so `only_events`/`exclude_events` do not filter them; neither do we.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import {
  type CommitInfo, getPullRequestEventMessage, getPushCommitsEventMessage, isBranchNameNotifiable,
  topicWithBranch, topicWithPrOrIssueInfo,
} from './git.ts';
import { BRANCHES_OPTION } from './gogs.ts';

const DISPLAY_NAME = 'AzureDevOps';

/** Python's `str.replace`, which replaces every occurrence. */
function branchFromRef(ref: string): string {
  return ref.replaceAll('refs/heads/', '');
}

// Zulip fails with a server error on an empty list; an empty list is the payload's fault.
function first(list: WildValue): WildValue {
  const [head] = list.list();
  if (head === undefined) throw new BadRequestError(`${list.varName}[0] is missing`);
  return head;
}

const refUpdate = (resource: WildValue) => first(resource.get('refUpdates'));
const pushedBranch = (resource: WildValue) => branchFromRef(refUpdate(resource).get('name').str());
const repositoryUrl = (resource: WildValue) => resource.get('repository').get('remoteUrl').str();

function pushMessage(resource: WildValue): string {
  const repoUrl = repositoryUrl(resource);
  const update = refUpdate(resource);
  const compareUrl = `${repoUrl}/branchCompare?baseVersion=GC${update.get('oldObjectId').str()}&targetVersion=GC${update.get('newObjectId').str()}&_a=files`;
  const commits = resource.has('commits') ? resource.get('commits').list() : [];
  return getPushCommitsEventMessage({
    userName: resource.get('pushedBy').get('displayName').str(),
    compareUrl,
    branchName: pushedBranch(resource),
    commits: commits.map((commit): CommitInfo => {
      const sha = commit.get('commitId').str();
      return { name: commit.get('author').get('name').str(), sha, url: `${repoUrl}/commit/${sha}`, message: commit.get('comment').str() };
    }),
  });
}

/** What every pull request message says: who opened it, the link, its number and title. */
function pullRequestBasics(resource: WildValue) {
  return {
    userName: resource.get('createdBy').get('displayName').str(),
    url: resource.get('_links').get('web').get('href').str(),
    number: resource.get('pullRequestId').int(),
    title: resource.get('title').str(),
  };
}

const branches = (resource: WildValue) => ({
  targetBranch: branchFromRef(resource.get('sourceRefName').str()),
  baseBranch: branchFromRef(resource.get('targetRefName').str()),
});

function pullRequestCreatedMessage(payload: WildValue): string {
  const resource = payload.get('resource');
  const description = resource.opt('description');
  return getPullRequestEventMessage({
    ...pullRequestBasics(resource),
    action: 'created',
    ...branches(resource),
    message: description.truthy() ? description.str() : null,
  });
}

function pullRequestMergedMessage(payload: WildValue): string {
  const resource = payload.get('resource');
  return getPullRequestEventMessage({ ...pullRequestBasics(resource), action: 'merged', ...branches(resource) });
}

// Azure DevOps' own summary of the change is the only account of what was updated.
function pullRequestUpdatedMessage(payload: WildValue): string {
  return getPullRequestEventMessage({
    ...pullRequestBasics(payload.get('resource')),
    action: 'updated',
    message: payload.get('detailedMessage').get('markdown').str(),
  });
}

const MESSAGES = new Map<string, (payload: WildValue) => string>([
  ['git.push', (payload) => pushMessage(payload.get('resource'))],
  ['git.pullrequest.created', pullRequestCreatedMessage],
  ['git.pullrequest.merged', pullRequestMergedMessage],
  ['git.pullrequest.updated', pullRequestUpdatedMessage],
]);

/** The event to report, or null for one Zulip deliberately says nothing about. */
function eventToReport(payload: WildValue, request: WebhookRequest): string | null {
  const event = payload.get('eventType').str();
  const wantedBranches = request.param('branches');
  if (event === 'git.push' && wantedBranches !== undefined && !isBranchNameNotifiable(pushedBranch(payload.get('resource')), wantedBranches)) {
    return null;
  }
  // Azure DevOps also reports merge attempts (a conflict found on creation, none on update); only
  // a merge that happened is news.
  if (event === 'git.pullrequest.merged') {
    const resource = payload.get('resource');
    if (resource.get('status').str() !== 'completed' || resource.get('mergeStatus').str() !== 'succeeded') return null;
  }
  if (!MESSAGES.has(event)) throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, event);
  return event;
}

function topicOf(payload: WildValue, event: string): string {
  const resource = payload.get('resource');
  const repo = resource.get('repository').get('name').str();
  if (event === 'git.push') return topicWithBranch(repo, pushedBranch(resource));
  return topicWithPrOrIssueInfo(repo, 'PR', resource.get('pullRequestId').int(), resource.get('title').str());
}

export const azuredevops: Integration = {
  urlName: 'azuredevops',
  displayName: DISPLAY_NAME,
  eventTypes: [...MESSAGES.keys()],
  configOptions: [BRANCHES_OPTION],
  translate(request: WebhookRequest): WebhookOutcome {
    const payload = request.payload();
    const event = eventToReport(payload, request);
    if (event === null) return { messages: [] };
    const topic = topicOf(payload, event);
    return { messages: [{ topic, content: MESSAGES.get(event)!(payload) }] };
  },
};
