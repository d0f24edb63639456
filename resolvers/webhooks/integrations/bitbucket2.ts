// Bitbucket Cloud's webhooks (Zulip's zerver/webhooks/bitbucket2/view.py). Zulip tells most events
// apart by the payload's keys (`push`, `fork`, `issue`...) and reads the X-Event-Key header only for
// pull requests (`pullrequest:approved`) and what has no key of its own (`repo:updated`). A push
// reports several refs at once: one message each, to its branch's topic (tags: the repository's).
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookMessage, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonStr } from '../python.ts';
import {
  endsWithPunctuation, getCommitsCommentActionMessage, getForcePushCommitsEventMessage, getIssueEventMessage,
  getPullRequestEventMessage, getPushCommitsEventMessage, getPushTagEventMessage, getRemoveBranchEventMessage,
  getShortSha, isBranchNameNotifiable, rstrip, split, topicWithBranch, topicWithPrOrIssueInfo,
} from './git.ts';
import { BRANCHES_OPTION } from './gogs.ts';

const NAME = 'Bitbucket2';

/** Writes one event's message; `includeTitle`: the URL fixes the topic, so the message names the issue or PR. */
type Body = (payload: WildValue, includeTitle: boolean) => string;

// ---- What the payloads have in common ----

/**
 * A user as Bitbucket names them since GDPR: no username, a display name or a nickname. Zulip still
 * sends the message when neither is there.
 */
export function userInfo(user: WildValue): string {
  if (user.has('display_name')) return user.get('display_name').str();
  if (user.has('nickname')) return user.get('nickname').str();
  return 'Unknown user';
}

const actor = (payload: WildValue) => userInfo(payload.get('actor'));
const htmlUrl = (object: WildValue) => object.get('links').get('html').get('href').str();
const repoName = (payload: WildValue) => payload.get('repository').get('name').str();
const titleIf = (object: WildValue, includeTitle: boolean) => (includeTitle ? object.get('title').str() : null);

// ---- Pushes ----

/** The ref a change is about: what it became, or what it was when it is gone. */
function changedRef(change: WildValue): WildValue {
  const created = change.get('new');
  return created.truthy() ? created : change.get('old');
}

const isTag = (change: WildValue) => changedRef(change).get('type').str() === 'tag';

function pushTopic(payload: WildValue, change: WildValue): string {
  if (isTag(change)) return repoName(payload);
  return topicWithBranch(repoName(payload), changedRef(change).get('name').str());
}

function pushBody(payload: WildValue, change: WildValue): string {
  if (isTag(change)) {
    const tag = changedRef(change);
    const action = change.get('new').truthy() ? 'pushed' : 'removed';
    return getPushTagEventMessage(actor(payload), tag.get('name').str(), htmlUrl(tag), action);
  }
  if (change.get('new').raw() === null) return getRemoveBranchEventMessage(actor(payload), change.get('old').get('name').str());
  if (change.get('forced').bool()) {
    const head = change.get('new');
    return getForcePushCommitsEventMessage(actor(payload), htmlUrl(change), head.get('name').str(), head.get('target').get('hash').str());
  }
  const commits = change.get('commits').list().map((commit) => ({
    name: commitAuthor(commit.get('author')),
    sha: commit.get('hash').str(),
    url: htmlUrl(commit),
    message: commit.get('message').str(),
  }));
  return getPushCommitsEventMessage({
    userName: actor(payload),
    compareUrl: htmlUrl(change),
    branchName: change.get('new').get('name').str(),
    commits,
    isTruncated: change.get('truncated').bool(),
  });
}

/** A Bitbucket user where the commit's author is one; else the first word of the git author. */
function commitAuthor(author: WildValue): string {
  if (author.has('user')) return userInfo(author.get('user'));
  const raw = author.get('raw');
  const first = split(raw.str())[0];
  if (first === undefined) throw new BadRequestError(`${raw.varName} names nobody`);
  return first;
}

function pushMessages(payload: WildValue, branches: string | undefined): WebhookMessage[] {
  const changes = payload.get('push').get('changes');
  if (!changes.truthy()) return [];
  const list = changes.list();
  // Zulip filters the whole push by the branch of its last change.
  const last = changedRef(list[list.length - 1]!);
  if (last.get('type').str() !== 'tag') {
    const branch = last.get('name').str();
    if (branch && !isBranchNameNotifiable(branch, branches)) return [];
  }
  const topics = list.map((change) => pushTopic(payload, change));
  return list.map((change, i) => ({ topic: topics[i]!, content: pushBody(payload, change) }));
}

// ---- Repository events ----

const fork: Body = (payload) => {
  const repository = payload.get('fork');
  return `${actor(payload)} forked the repository into [${repository.get('full_name').str()}](${htmlUrl(repository)}).`;
};

const commitComment: Body = (payload) => {
  const comment = payload.get('comment');
  const commit = comment.get('commit');
  return getCommitsCommentActionMessage(
    actor(payload), `[commented](${htmlUrl(comment)})`, htmlUrl(commit), commit.get('hash').str(), comment.get('content').get('raw').str(),
  );
};

const commitStatus: Body = (payload) => {
  const status = payload.get('commit_status');
  // The status links the commit by its API URL, which ends with the hash.
  const sha = status.get('links').get('commit').get('href').str().split('/').at(-1)!;
  const commit = `[${getShortSha(sha)}](${htmlUrl(payload.get('repository'))}/commits/${sha})`;
  return `[System ${status.get('key').str()}](${status.get('url').str()}) changed status of ${commit} to ${status.get('state').str()}.`;
};

// Bitbucket reports every setting, changed or not; only these are worth a line.
const REPO_SETTINGS: readonly [key: string, label: string][] = [
  ['website', 'website'], ['name', 'name'], ['links', 'links'], ['language', 'language'], ['full_name', 'full name'], ['description', 'description'],
];

const repoUpdated: Body = (payload) => {
  const name = payload.get('repository').get('name').str();
  const who = actor(payload);
  let body = '';
  for (const [key, label] of REPO_SETTINGS) {
    const change = payload.get('changes').get(key);
    const [now, before] = [change.get('new'), change.get('old')];
    if (!now.truthy()) continue;
    const value = pythonStr(now.raw());
    const from = before.truthy() ? ` from **${pythonStr(before.raw())}**` : '';
    body += `${who} changed the ${label} of the **${name}** repo${from} to **${value}**${endsWithPunctuation(value) ? '' : '.'}\n`;
  }
  return rstrip(body);
};

// ---- Issues ----

const issueChanged = (action: string): Body => (payload, includeTitle) => {
  const issue = payload.get('issue');
  const created = action === 'created';
  return getIssueEventMessage({
    userName: actor(payload),
    action,
    url: htmlUrl(issue),
    number: issue.get('id').int(),
    message: created ? issue.get('content').get('raw').str() : null,
    assignee: created && issue.get('assignee').truthy() ? userInfo(issue.get('assignee')) : null,
    title: titleIf(issue, includeTitle),
  });
};

const issueCommented: Body = (payload, includeTitle) =>
  issueChanged(`[commented](${htmlUrl(payload.get('comment'))}) on`)(payload, includeTitle);

// ---- Pull requests ----

const pullRequestChanged = (action: string): Body => (payload, includeTitle) => {
  const pr = payload.get('pullrequest');
  const merged = action === 'merged';
  return getPullRequestEventMessage({
    userName: actor(payload),
    action,
    url: htmlUrl(pr),
    number: pr.get('id').int(),
    targetBranch: merged ? pr.get('source').get('branch').get('name').str() : null,
    baseBranch: merged ? pr.get('destination').get('branch').get('name').str() : null,
    title: titleIf(pr, includeTitle),
  });
};

const pullRequestOpenedOrUpdated = (action: 'created' | 'updated'): Body => (payload, includeTitle) => {
  const pr = payload.get('pullrequest');
  const reviewers = pr.get('reviewers');
  // Bitbucket has no assignees: Zulip names the first reviewer.
  const assignee = reviewers.truthy() ? userInfo(firstOf(reviewers)) : null;
  const created = action === 'created';
  return getPullRequestEventMessage({
    userName: actor(payload),
    action,
    url: htmlUrl(pr),
    number: pr.get('id').int(),
    targetBranch: created ? pr.get('source').get('branch').get('name').str() : null,
    baseBranch: created ? pr.get('destination').get('branch').get('name').str() : null,
    message: pr.get('description').str(),
    assignee,
    title: titleIf(pr, includeTitle),
  });
};

function firstOf(list: WildValue): WildValue {
  const first = list.list()[0];
  if (first === undefined) throw new BadRequestError(`${list.varName}[0] is missing`);
  return first;
}

/** `action` links the comment: "[commented](url)", "updated a [comment](url)". */
const pullRequestComment = (action: (commentUrl: string) => string): Body => (payload, includeTitle) => {
  const pr = payload.get('pullrequest');
  const comment = payload.get('comment');
  return getPullRequestEventMessage({
    userName: actor(payload),
    action: `${action(htmlUrl(comment))} on`,
    url: htmlUrl(pr),
    number: pr.get('id').int(),
    message: comment.get('content').get('raw').str(),
    title: titleIf(pr, includeTitle),
  });
};

// ---- Dispatch ----

const BODIES = new Map<string, Body>([
  ['fork', fork],
  ['commit_comment', commitComment],
  ['change_commit_status', commitStatus],
  ['issue_updated', issueChanged('updated')],
  ['issue_created', issueChanged('created')],
  ['issue_commented', issueCommented],
  ['pull_request_created', pullRequestOpenedOrUpdated('created')],
  ['pull_request_updated', pullRequestOpenedOrUpdated('updated')],
  ['pull_request_approved', pullRequestChanged('approved')],
  ['pull_request_unapproved', pullRequestChanged('unapproved')],
  ['pull_request_fulfilled', pullRequestChanged('merged')],
  ['pull_request_rejected', pullRequestChanged('rejected')],
  ['pull_request_comment_created', pullRequestComment((url) => `[commented](${url})`)],
  ['pull_request_comment_updated', pullRequestComment((url) => `updated a [comment](${url})`)],
  ['pull_request_comment_deleted', pullRequestComment((url) => `deleted a [comment](${url})`)],
  ['repo:updated', repoUpdated],
]);

const PULL_REQUEST_ACTIONS = new Set([
  'approved', 'unapproved', 'created', 'updated', 'rejected', 'fulfilled', 'comment_created', 'comment_updated', 'comment_deleted',
]);

function eventType(request: WebhookRequest, payload: WildValue): string {
  if (payload.has('push')) return 'push';
  if (payload.has('fork')) return 'fork';
  if (payload.has('comment') && payload.has('commit')) return 'commit_comment';
  if (payload.has('commit_status')) return 'change_commit_status';
  if (payload.has('issue')) {
    if (payload.has('changes')) return 'issue_updated';
    return payload.has('comment') ? 'issue_commented' : 'issue_created';
  }
  const eventKey = request.eventHeader('X-Event-Key');
  if (payload.has('pullrequest')) {
    const action = /^pullrequest:(.*)$/.exec(eventKey)?.[1];
    if (action !== undefined && PULL_REQUEST_ACTIONS.has(action)) return `pull_request_${action}`;
  } else if (eventKey === 'repo:updated') {
    return eventKey;
  }
  throw new UnsupportedWebhookEventTypeError(NAME, eventKey);
}

function topicFor(payload: WildValue, event: string): string {
  const numbered = (key: string, type: string) => {
    const object = payload.get(key);
    return topicWithPrOrIssueInfo(repoName(payload), type, object.get('id').int(), object.get('title').str());
  };
  if (event.startsWith('pull_request')) return numbered('pullrequest', 'PR');
  if (event.startsWith('issue')) return numbered('issue', 'issue');
  return repoName(payload);
}

function translate(request: WebhookRequest): WebhookOutcome {
  const payload = request.payload();
  const event = eventType(request, payload);
  if (event === 'push') return { eventType: event, messages: pushMessages(payload, request.param('branches')) };
  const topic = topicFor(payload, event);
  return { eventType: event, messages: [{ topic, content: BODIES.get(event)!(payload, request.param('topic') !== undefined) }] };
}

export const bitbucket2: Integration = {
  urlName: 'bitbucket2',
  displayName: NAME,
  unquoteUrlParameters: true,
  eventTypes: [
    'change_commit_status', 'pull_request_comment_created', 'pull_request_updated', 'pull_request_unapproved', 'push',
    'pull_request_approved', 'pull_request_fulfilled', 'issue_created', 'issue_commented', 'fork', 'pull_request_comment_updated',
    'pull_request_created', 'pull_request_rejected', 'repo:updated', 'issue_updated', 'commit_comment', 'pull_request_comment_deleted',
  ],
  configOptions: [BRANCHES_OPTION],
  translate,
};
