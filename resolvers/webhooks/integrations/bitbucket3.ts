// Bitbucket Server and Data Center's webhooks (Zulip's zerver/webhooks/bitbucket3/view.py). The
// payload names its event (`eventKey`: `repo:refs_changed`, `pr:opened`...); only the test request
// Bitbucket sends when the webhook is set up (`diagnostics:ping`) says it in the X-Event-Key header
// alone. Those names are the event types.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookMessage, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import {
  endsWithPunctuation, getAssigneeString, getCommitsCommentActionMessage, getCreateBranchEventMessage, getPullRequestEventMessage,
  getPushTagEventMessage, getRemoveBranchEventMessage, isBranchNameNotifiable, topicWithBranch, topicWithPrOrIssueInfo,
} from './git.ts';
import { BRANCHES_OPTION } from './gogs.ts';

const NAME = 'Bitbucket3';

interface Options {
  branches: string | undefined;
  /** The URL fixes the topic: messages name the PR, and the ping goes there. */
  userTopic: string | undefined;
}

type Handler = (payload: WildValue, options: Options) => WebhookMessage[];

// ---- What the payloads have in common ----

/** Bitbucket Server links an object to its page in a list of one. */
function selfUrl(object: WildValue): string {
  const links = object.get('links').get('self');
  const first = links.list()[0];
  if (first === undefined) throw new BadRequestError(`${links.varName}[0] is missing`);
  return first.get('href').str();
}

/** Who acted, linked to their profile. */
function userName(payload: WildValue): string {
  const actor = payload.get('actor');
  return `[${actor.get('name').str()}](${selfUrl(actor)})`;
}

/** The unknown kind of ref or change, named as Zulip names it: `repo:refs_changed.MERGE`. */
function unsupported(payload: WildValue, kind: string): UnsupportedWebhookEventTypeError {
  return new UnsupportedWebhookEventTypeError(NAME, `${payload.get('eventKey').str()}.${kind}`);
}

const withPeriod = (text: string, last: string) => (endsWithPunctuation(last) ? text : `${text}.`);

// ---- Repository events ----

const ping: Handler = (_payload, { userTopic }) => [{
  topic: userTopic ? userTopic : 'Bitbucket Server Ping',
  content: 'Congratulations! The Bitbucket Server webhook was configured successfully!',
}];

const repoComment = (action: string): Handler => (payload) => {
  const repository = payload.get('repository');
  const topic = repository.get('name').str();
  const sha = payload.get('commit').str();
  // The repository's link is to its files (…/browse); its commits are beside them.
  const repoUrl = selfUrl(repository);
  const commitUrl = `${repoUrl.endsWith('browse') ? repoUrl.slice(0, -'browse'.length) : repoUrl}commits/${sha}`;
  const text = payload.get('comment').get('text').str();
  const message = action === 'deleted their comment' ? `~~${text}~~` : text;
  return [{ topic, content: getCommitsCommentActionMessage(userName(payload), action, commitUrl, sha, message) }];
};

const repoForked: Handler = (payload) => {
  const fork = payload.get('repository');
  const topic = fork.get('origin').get('name').str();
  const content = `User ${payload.get('actor').get('displayName').str()}(login: ${userName(payload)}) forked the repository into [${fork.get('name').str()}](${selfUrl(fork)}).`;
  return [{ topic, content }];
};

// Bitbucket Server reports only renames as modifications.
const repoModified: Handler = (payload) => {
  const newName = payload.get('new').get('name').str();
  const oldName = payload.get('old').get('name').str();
  const content = `${userName(payload)} changed the name of the **${oldName}** repo from **${oldName}** to **${newName}**`;
  return [{ topic: newName, content: withPeriod(content, newName) }];
};

function branchChange(payload: WildValue, change: WildValue): WebhookMessage {
  const type = change.get('type').str();
  const repo = payload.get('repository').get('name').str();
  const user = userName(payload);
  const branch = change.get('ref').get('displayId').str();
  const head = change.get('toHash').str();
  let content: string;
  if (type === 'ADD') content = getCreateBranchEventMessage(user, null, branch);
  else if (type === 'UPDATE') content = `${user} pushed to branch ${branch}. Head is now ${head}.`;
  else if (type === 'DELETE') content = getRemoveBranchEventMessage(user, branch);
  else throw unsupported(payload, type);
  return { topic: topicWithBranch(repo, branch), content };
}

function tagChange(payload: WildValue, change: WildValue): WebhookMessage {
  const type = change.get('type').str();
  const repo = payload.get('repository').get('name').str();
  const tag = change.get('ref').get('displayId').str();
  const action = type === 'ADD' ? 'pushed' : type === 'DELETE' ? 'removed' : null;
  if (action === null) throw unsupported(payload, type);
  return { topic: repo, content: getPushTagEventMessage(userName(payload), tag, null, action) };
}

const refsChanged: Handler = (payload, { branches }) => {
  const messages: WebhookMessage[] = [];
  for (const change of payload.get('changes').list()) {
    const ref = change.get('ref');
    const refType = ref.get('type').str();
    if (refType === 'BRANCH') {
      if (isBranchNameNotifiable(ref.get('displayId').str(), branches)) messages.push(branchChange(payload, change));
    } else if (refType === 'TAG') {
      messages.push(tagChange(payload, change));
    } else {
      throw unsupported(payload, refType);
    }
  }
  return messages;
};

// ---- Pull requests ----

/** "[a](url)", "[a](url) and [b](url)", "[a](url), [b](url) and [c](url)"; null when there are none. */
function reviewers(pr: WildValue): string | null {
  const linked = pr.get('reviewers').list().map((reviewer) => {
    const user = reviewer.get('user');
    return { username: `[${user.get('name').str()}](${selfUrl(user)})` };
  });
  return linked.length > 0 ? getAssigneeString(linked) : null;
}

/** Writes one PR event's message; `includeTitle`: the URL fixes the topic. */
type PrBody = (payload: WildValue, pr: WildValue, includeTitle: boolean) => string;

const titleIf = (pr: WildValue, includeTitle: boolean) => (includeTitle ? pr.get('title').str() : null);

/** "[PR #6](url)", or with its title when the topic does not say it. */
function prLink(pr: WildValue, includeTitle: boolean): string {
  const title = titleIf(pr, includeTitle);
  return `[PR #${pr.get('id').int()}${title === null ? '' : ` ${title}`}](${selfUrl(pr)})`;
}

const prChanged = (action: string): PrBody => (payload, pr, includeTitle) => getPullRequestEventMessage({
  userName: userName(payload), action, url: selfUrl(pr), number: pr.get('id').int(), title: titleIf(pr, includeTitle),
});

const prOpenedOrModified = (action: 'opened' | 'modified'): PrBody => (payload, pr, includeTitle) => {
  const description = pr.opt('description').optStr();
  const opened = action === 'opened';
  const targetBranch = opened ? pr.get('fromRef').get('displayId').str() : null;
  const baseBranch = opened ? pr.get('toRef').get('displayId').str() : null;
  return getPullRequestEventMessage({
    userName: userName(payload),
    action,
    url: selfUrl(pr),
    number: pr.get('id').int(),
    targetBranch,
    baseBranch,
    message: description,
    reviewer: reviewers(pr),
    title: titleIf(pr, includeTitle),
  });
};

const prMerged: PrBody = (payload, pr, includeTitle) => getPullRequestEventMessage({
  userName: userName(payload),
  action: 'merged',
  url: selfUrl(pr),
  number: pr.get('id').int(),
  targetBranch: pr.get('fromRef').get('displayId').str(),
  baseBranch: pr.get('toRef').get('displayId').str(),
  title: titleIf(pr, includeTitle),
});

const prNeedsWork: PrBody = (payload, pr, includeTitle) => `${userName(payload)} marked ${prLink(pr, includeTitle)} as "needs work".`;

const prReviewersUpdated: PrBody = (payload, pr, includeTitle) => {
  const assignees = reviewers(pr);
  if (assignees) return `${userName(payload)} reassigned ${prLink(pr, includeTitle)} to ${assignees}.`;
  const content = `${userName(payload)} removed all reviewers from ${prLink(pr, includeTitle)}`;
  // Unlike the other sentences here, this one keeps a title's own final punctuation.
  return includeTitle ? withPeriod(content, pr.get('title').str()) : `${content}.`;
};

/** `action` says what happened to the comment ("commented on"); a deleted comment is struck through. */
const prComment = (action: string): PrBody => (payload, pr, includeTitle) => {
  const text = payload.get('comment').get('text').str();
  return getPullRequestEventMessage({
    userName: userName(payload),
    action,
    url: selfUrl(pr),
    number: pr.get('id').int(),
    message: action === 'deleted their comment on' ? `~~${text}~~` : text,
    title: titleIf(pr, includeTitle),
  });
};

/** Every PR event goes to the PR's topic in the repository it is to be merged into. */
const pullRequest = (body: PrBody): Handler => (payload, { userTopic }) => {
  const pr = payload.get('pullRequest');
  const topic = topicWithPrOrIssueInfo(pr.get('toRef').get('repository').get('name').str(), 'PR', pr.get('id').int(), pr.get('title').str());
  return [{ topic, content: body(payload, pr, Boolean(userTopic)) }];
};

// ---- Dispatch ----

const HANDLERS = new Map<string, Handler>([
  ['diagnostics:ping', ping],
  ['repo:comment:added', repoComment('commented')],
  ['repo:comment:edited', repoComment('edited their comment')],
  ['repo:comment:deleted', repoComment('deleted their comment')],
  ['repo:forked', repoForked],
  ['repo:modified', repoModified],
  ['repo:refs_changed', refsChanged],
  ['pr:comment:added', pullRequest(prComment('commented on'))],
  ['pr:comment:edited', pullRequest(prComment('edited their comment on'))],
  ['pr:comment:deleted', pullRequest(prComment('deleted their comment on'))],
  ['pr:declined', pullRequest(prChanged('declined'))],
  ['pr:deleted', pullRequest(prChanged('deleted'))],
  ['pr:merged', pullRequest(prMerged)],
  ['pr:modified', pullRequest(prOpenedOrModified('modified'))],
  ['pr:opened', pullRequest(prOpenedOrModified('opened'))],
  ['pr:reviewer:approved', pullRequest(prChanged('approved'))],
  ['pr:reviewer:needs_work', pullRequest(prNeedsWork)],
  ['pr:reviewer:updated', pullRequest(prReviewersUpdated)],
  ['pr:reviewer:unapproved', pullRequest(prChanged('unapproved'))],
]);

function translate(request: WebhookRequest): WebhookOutcome {
  const payload = request.payload();
  const event = payload.has('eventKey') ? payload.get('eventKey').str() : request.eventHeader('X-Event-Key');
  const handler = HANDLERS.get(event);
  if (!handler) throw new UnsupportedWebhookEventTypeError(NAME, event);
  return { eventType: event, messages: handler(payload, { branches: request.param('branches'), userTopic: request.param('topic') }) };
}

export const bitbucket3: Integration = {
  urlName: 'bitbucket3',
  displayName: NAME,
  unquoteUrlParameters: true,
  eventTypes: [...HANDLERS.keys()],
  configOptions: [BRANCHES_OPTION],
  translate,
};
