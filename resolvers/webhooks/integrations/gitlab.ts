// GitLab's webhooks (Zulip's zerver/webhooks/gitlab/view.py). GitLab names the event in the
// X-GitLab-Event header ("Push Hook", "Merge Request Hook"...); Zulip refines issues, merge requests
// and wiki pages by `object_attributes.action` and notes by what they are on (`noteable_type`), and
// reads a System Hook's `event_name` (or `object_kind`) as the project hook it stands for. Those
// names are the event types `only_events`/`exclude_events` match.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import {
  EMPTY_SHA, getCommitsCommentActionMessage, getIssueEventMessage, getPullRequestEventMessage, getPushCommitsEventMessage,
  getPushTagEventMessage, getRemoveBranchEventMessage, isBranchNameNotifiable, quotedContent, rstrip, topicWithPrOrIssueInfo,
} from './git.ts';

const GITLAB = 'GitLab';

/** Writes one event's message; `includeTitle`: the URL fixes the topic, so the message names the issue or MR. */
type Body = (payload: WildValue, includeTitle: boolean) => string;

// ---- What the payloads have in common ----

/** Project hooks carry `project`; job hooks only `repository`. */
function repoName(payload: WildValue): string {
  return payload.has('project') ? payload.get('project').get('name').str() : payload.get('repository').get('name').str();
}

function projectHomepage(payload: WildValue): string {
  return payload.has('project') ? payload.get('project').get('web_url').str() : payload.get('repository').get('homepage').str();
}

/** Who acted, on all but push events. */
function userName(payload: WildValue): string {
  return payload.get('user').get('name').str();
}

// Python's str.replace: every occurrence, not only the prefix.
function branchName(ref: string): string {
  return ref.replaceAll('refs/heads/', '');
}

function titleIf(object: WildValue, includeTitle: boolean): string | null {
  return includeTitle ? object.get('title').str() : null;
}

/** Assignees as the shared messages name them: GitLab's full names, from `assignees` or the older `assignee`. */
function assignees(payload: WildValue): { username: string }[] {
  const many = payload.opt('assignees');
  const list = many.truthy() ? many.list() : payload.opt('assignee').truthy() ? [payload.get('assignee')] : [];
  return list.map((assignee) => ({ username: assignee.get('name').str() }));
}

// ---- Pushes ----

const push: Body = (payload) => {
  const after = payload.opt('after');
  if (after.truthy() && after.str() === EMPTY_SHA) {
    return getRemoveBranchEventMessage(payload.get('user_name').str(), branchName(payload.get('ref').str()));
  }
  const compareUrl = `${projectHomepage(payload)}/-/compare/${payload.get('before').str()}...${payload.get('after').str()}`;
  const commits = payload.get('commits').list().map((commit) => ({
    name: commit.get('author').get('name').str(),
    sha: commit.get('id').str(),
    message: commit.get('message').str(),
    url: commit.get('url').str(),
  }));
  return getPushCommitsEventMessage({
    userName: payload.get('user_name').str(), compareUrl, branchName: branchName(payload.get('ref').str()), commits,
  });
};

const tagPush: Body = (payload) => {
  const tag = payload.get('ref').str().replaceAll('refs/tags/', '');
  // A deleted tag points nowhere.
  return getPushTagEventMessage(payload.get('user_name').str(), tag, null, payload.opt('checkout_sha').truthy() ? 'pushed' : 'removed');
};

// ---- Issues ----

const issueCreated: Body = (payload, includeTitle) => {
  const issue = payload.get('object_attributes');
  const description = issue.opt('description');
  // Hidden HTML comments (issue templates' instructions) are not for the chat.
  const message = description.truthy() ? rstrip(description.str().replace(/<!--[\s\S]*?-->/g, '')) : null;
  return getIssueEventMessage({
    userName: userName(payload),
    action: 'created',
    url: issue.get('url').str(),
    number: issue.get('iid').int(),
    message,
    assignees: assignees(payload),
    title: titleIf(issue, includeTitle),
  });
};

const issueChanged = (action: string): Body => (payload, includeTitle) => {
  const issue = payload.get('object_attributes');
  return getIssueEventMessage({
    userName: userName(payload), action, url: issue.get('url').str(), number: issue.get('iid').int(), title: titleIf(issue, includeTitle),
  });
};

// ---- Merge requests ----

const mergeRequestChanged = (action: string): Body => (payload, includeTitle) => {
  const mr = payload.get('object_attributes');
  const merged = action === 'merged';
  return getPullRequestEventMessage({
    userName: userName(payload),
    action,
    url: mr.get('url').str(),
    number: mr.get('iid').int(),
    targetBranch: merged ? mr.get('source_branch').str() : null,
    baseBranch: merged ? mr.get('target_branch').str() : null,
    type: 'MR',
    title: titleIf(mr, includeTitle),
  });
};

const mergeRequestOpenedOrUpdated = (action: 'created' | 'updated'): Body => (payload, includeTitle) => {
  const mr = payload.get('object_attributes');
  const created = action === 'created';
  return getPullRequestEventMessage({
    userName: userName(payload),
    action,
    url: mr.get('url').str(),
    number: mr.get('iid').int(),
    targetBranch: created ? mr.get('source_branch').str() : null,
    baseBranch: created ? mr.get('target_branch').str() : null,
    message: mr.get('description').optStr(),
    assignees: assignees(payload),
    type: 'MR',
    title: titleIf(mr, includeTitle),
  });
};

// An update with `oldrev` is a push to the MR's branch, not an edit.
const mergeRequestUpdated: Body = (payload, includeTitle) => payload.get('object_attributes').opt('oldrev').truthy()
  ? mergeRequestChanged('added commit(s) to')(payload, includeTitle)
  : mergeRequestOpenedOrUpdated('updated')(payload, includeTitle);

// ---- Comments ("notes") ----

function commentedOn(payload: WildValue): string {
  return `[commented](${payload.get('object_attributes').get('url').str()}) on`;
}

const commitNote: Body = (payload) => {
  const note = payload.get('object_attributes');
  const action = `[commented](${note.get('url').str()})`;
  const commit = payload.get('commit');
  return getCommitsCommentActionMessage(userName(payload), action, commit.get('url').str(), commit.get('id').str(), note.get('note').str());
};

/** A comment on a merge request (`merge_request`) or an issue (`issue`). */
const noteOn = (key: string, type: string): Body => (payload, includeTitle) => {
  const action = commentedOn(payload);
  const target = payload.get(key);
  return getPullRequestEventMessage({
    userName: userName(payload),
    action,
    url: target.get('url').str(),
    number: target.get('iid').int(),
    message: payload.get('object_attributes').get('note').str(),
    type,
    title: titleIf(target, includeTitle),
  });
};

const snippetNote: Body = (payload, includeTitle) => {
  const action = commentedOn(payload);
  const snippet = payload.get('snippet');
  // GitLab sends the snippet's URL since 16.1.
  const url = snippet.has('url')
    ? snippet.get('url').str()
    : `${payload.get('project').get('web_url').str()}/-/snippets/${snippet.get('id').int()}`;
  return getPullRequestEventMessage({
    userName: userName(payload),
    action,
    url,
    number: snippet.get('id').int(),
    message: payload.get('object_attributes').get('note').str(),
    type: 'snippet',
    title: titleIf(snippet, includeTitle),
  });
};

/** A design's path, `designs/issue-<n>/<file>`, is all that says which issue it belongs to. */
function designPath(note: WildValue): string {
  return note.get('position').get('new_path').str();
}

const designNote: Body = (payload) => {
  const note = payload.get('object_attributes');
  const noteId = note.get('id').int();
  const repositoryUrl = payload.get('repository').get('homepage').str();
  const parts = designPath(note).split('/');
  if (parts.length !== 3) throw new BadRequestError(`${note.varName}["position"]["new_path"] is not a design's path`);
  const [, issuePart, designName] = parts as [string, string, string];
  const designUrl = `${repositoryUrl}/-/issues/${issuePart.split('-').at(-1)}/designs/${designName}`;
  return `${userName(payload)} [commented](${designUrl}#note_${noteId}) on design [${designName}](${designUrl}):\n${quotedContent(note.get('note').str())}`;
};

// ---- Wiki, CI/CD, releases, feature flags, tokens, deployments ----

const wikiPage = (action: string): Body => (payload) => {
  const page = payload.get('object_attributes');
  return `${userName(payload)} ${action} [wiki page "${page.get('title').str()}"](${page.get('url').str()}).`;
};

/** How a build's or a pipeline's status reads, `created` being the status a new one has. */
function statusPhrase(status: string, created: string): string {
  if (status === created) return 'was created';
  if (status === 'running') return 'started';
  return `changed status to ${status}`;
}

const build: Body = (payload) => {
  const action = statusPhrase(payload.get('build_status').str(), 'created');
  return `Build ${payload.get('build_name').str()} from ${payload.get('build_stage').str()} stage ${action}.`;
};

const pipeline: Body = (payload) => {
  const attributes = payload.get('object_attributes');
  const action = statusPhrase(attributes.get('status').str(), 'pending');
  const homepage = projectHomepage(payload);
  const id = attributes.get('id').int();
  const builds = payload.get('builds').list().map((job) => {
    const jobUrl = `${homepage}/-/jobs/${job.get('id').int()}`;
    const filename = job.has('artifacts_file') ? job.get('artifacts_file').opt('filename') : null;
    const artifact = filename?.truthy()
      ? `  * built artifact: *${filename.str()}* [[Browse](${jobUrl}/artifacts/browse)|[Download](${jobUrl}/artifacts/download)]\n`
      : '';
    return `* [${job.get('name').str()}](${jobUrl}) - ${job.get('status').str()}\n${artifact}`;
  });
  return `[Pipeline (${id})](${homepage}/-/pipelines/${id}) ${action} with build(s):\n${builds.join('').slice(0, -1)}.`;
};

const release: Body = (payload) => {
  const action = payload.get('action').str();
  const name = payload.get('name').str();
  const tag = payload.get('tag').str();
  if (action === 'delete') return `Release ${name} for tag ${tag} was ${action}d.`;
  const body = `Release [${name}](${payload.get('url').str()}) for tag ${tag} was ${action}d.`;
  return payload.has('description') ? body + quotedContent(payload.get('description').str()) : body;
};

const featureFlag: Body = (payload) => {
  const projectUrl = payload.get('project').get('web_url').str();
  const flag = payload.get('object_attributes');
  const action = flag.get('active').truthy() ? 'activated' : 'deactivated';
  return `${payload.get('user').get('username').str()} ${action} the feature flag [${flag.get('name').str()}](${projectUrl}/-/feature_flags).`;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An ISO date (Python's fromisoformat) as strftime's "%b %d, %Y". */
function formatIsoDate(value: WildValue): string {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ].*)?$/s.exec(value.str());
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!match || year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new BadRequestError(`${value.varName} is not a date`);
  }
  return `${MONTHS[month - 1]} ${match[3]}, ${match[1]}`;
}

const accessTokenExpiring: Body = (payload) => {
  const token = payload.get('object_attributes');
  const date = formatIsoDate(token.get('expires_at'));
  const name = token.get('name').str();
  const settings = payload.has('group')
    ? `https://gitlab.com/groups/${payload.get('group').get('group_path').str()}/-/settings/access_tokens`
    : `${payload.get('project').get('web_url').str()}/-/settings/access_tokens`;
  return `The access token [${name}](${settings}) will expire on ${date}.`;
};

const deployment: Body = (payload) => {
  const user = `[${userName(payload)}](${payload.get('user_url').str()})`;
  const status = payload.get('status').str();
  const deployableUrl = payload.has('deployable_url') ? payload.get('deployable_url').str() : '';
  const what = deployableUrl ? `[deployment](${deployableUrl})` : 'deployment';
  const commitTitle = payload.get('commit_title').str();
  const commitUrl = payload.get('commit_url').str();
  const sha = Array.from(commitUrl.split('/').at(-1)!).slice(0, 7).join('');
  switch (status) {
    case 'running': return `${user} started a new ${what}:\n> [${sha}](${commitUrl}) ${commitTitle}`;
    case 'success': return `The ${what} was successful.`;
    case 'failed': return `The ${what} failed.`;
    case 'canceled': return `The ${what} was canceled.`;
  }
  // GitLab documents no other status; Zulip would fail on one.
  throw new UnsupportedWebhookEventTypeError(GITLAB, `Deployment Hook ${status}`);
};

const testHook: Body = (payload) => `Webhook for **${repoName(payload)}** has been configured successfully! :tada:`;

// Zulip's EVENT_FUNCTION_MAPPER, in its order: the keys are its event types.
const BODIES = new Map<string, Body>([
  ['Push Hook', push],
  ['Tag Push Hook', tagPush],
  ['Test Hook', testHook],
  ['Issue Hook open', issueCreated],
  ['Issue Hook close', issueChanged('closed')],
  ['Issue Hook reopen', issueChanged('reopened')],
  ['Issue Hook update', issueChanged('updated')],
  ['Confidential Issue Hook open', issueCreated],
  ['Confidential Issue Hook close', issueChanged('closed')],
  ['Confidential Issue Hook reopen', issueChanged('reopened')],
  ['Confidential Issue Hook update', issueChanged('updated')],
  ['Note Hook Commit', commitNote],
  ['Note Hook MergeRequest', noteOn('merge_request', 'MR')],
  ['Note Hook Issue', noteOn('issue', 'issue')],
  ['Confidential Note Hook Issue', noteOn('issue', 'issue')],
  ['Note Hook DesignManagement::Design', designNote],
  ['Confidential Note Hook DesignManagement::Design', designNote],
  ['Note Hook Snippet', snippetNote],
  ['Merge Request Hook approved', mergeRequestChanged('approved')],
  ['Merge Request Hook unapproved', mergeRequestChanged('unapproved')],
  // GitLab sends approval/unapproval only where a merge request needs several approvers.
  ['Merge Request Hook approval', mergeRequestChanged('approval')],
  ['Merge Request Hook unapproval', mergeRequestChanged('unapproval')],
  ['Merge Request Hook open', mergeRequestOpenedOrUpdated('created')],
  ['Merge Request Hook update', mergeRequestUpdated],
  ['Merge Request Hook merge', mergeRequestChanged('merged')],
  ['Merge Request Hook close', mergeRequestChanged('closed')],
  ['Merge Request Hook reopen', mergeRequestChanged('reopened')],
  ['Wiki Page Hook create', wikiPage('created')],
  ['Wiki Page Hook update', wikiPage('updated')],
  ['Job Hook', build],
  ['Build Hook', build],
  ['Pipeline Hook', pipeline],
  ['Release Hook', release],
  ['Feature Flag Hook', featureFlag],
  ['Resource Access Token Hook', accessTokenExpiring],
  ['Deployment Hook', deployment],
]);

/** Python's str.title(): each run of cased letters capitalized. */
function pythonTitle(text: string): string {
  let previousCased = false;
  let title = '';
  for (const c of text) {
    const cased = c.toLowerCase() !== c.toUpperCase();
    title += cased ? (previousCased ? c.toLowerCase() : c.toUpperCase()) : c;
    previousCased = cased;
  }
  return title;
}

const BY_ACTION = new Set(['Confidential Issue Hook', 'Issue Hook', 'Merge Request Hook', 'Wiki Page Hook']);

/** Zulip's event type for the request; null for a push to a branch the URL's `branches` leaves out. */
function eventName(request: WebhookRequest, payload: WildValue): string | null {
  let event = request.eventHeader('X-GitLab-Event');
  if (event === 'System Hook') {
    const name = payload.has('event_name') ? payload.get('event_name').str() : payload.get('object_kind').str();
    event = `${pythonTitle(name.split('__')[0]!.replaceAll('_', ' '))} Hook`;
  }
  if (BY_ACTION.has(event)) {
    const attributes = payload.get('object_attributes');
    const action = attributes.opt('action');
    event = `${event} ${attributes.has('action') ? action.str() : 'open'}`;
  } else if (event === 'Confidential Note Hook' || event === 'Note Hook') {
    event = `${event} ${payload.get('object_attributes').get('noteable_type').str()}`;
  } else if (event === 'Push Hook') {
    const branches = request.param('branches');
    if (!isBranchNameNotifiable(branchName(payload.get('ref').str()), branches)) return null;
  }
  if (!BODIES.has(event)) throw new UnsupportedWebhookEventTypeError(GITLAB, event);
  return event;
}

function topicFor(event: string, payload: WildValue, useMergeRequestTitle: boolean): string {
  // Without the title the topic ends at the number (Zulip strips the template's trailing space).
  const numbered = (type: string, object: WildValue, id: string, withTitle = true) => withTitle
    ? topicWithPrOrIssueInfo(repoName(payload), type, object.get(id).int(), object.get('title').str())
    : `${repoName(payload)} / ${type} #${object.get(id).int()}`;
  if (event === 'Push Hook') return `${repoName(payload)} / ${branchName(payload.get('ref').str())}`;
  if (event === 'Job Hook' || event === 'Build Hook') {
    return `${payload.get('repository').get('name').str()} / ${branchName(payload.get('ref').str())}`;
  }
  if (event === 'Pipeline Hook') return `${repoName(payload)} / ${branchName(payload.get('object_attributes').get('ref').str())}`;
  if (event.startsWith('Merge Request Hook')) return numbered('MR', payload.get('object_attributes'), 'iid', useMergeRequestTitle);
  if (event.startsWith('Issue Hook') || event.startsWith('Confidential Issue Hook')) return numbered('issue', payload.get('object_attributes'), 'iid');
  if (event.endsWith('Note Hook Issue')) return numbered('issue', payload.get('issue'), 'iid');
  if (event.endsWith('Note Hook DesignManagement::Design')) {
    return `${repoName(payload)} / design ${designPath(payload.get('object_attributes')).split('/').at(-1)}`;
  }
  if (event === 'Note Hook MergeRequest') return numbered('MR', payload.get('merge_request'), 'iid', useMergeRequestTitle);
  if (event === 'Note Hook Snippet') return numbered('snippet', payload.get('snippet'), 'id');
  if (event === 'Resource Access Token Hook' && payload.opt('group').truthy()) return payload.get('group').get('group_name').str();
  if (event === 'Deployment Hook') return `${repoName(payload)} / ${payload.get('environment').str()}`;
  return repoName(payload);
}

function translate(request: WebhookRequest): WebhookOutcome {
  const payload = request.payload();
  const useMergeRequestTitle = request.boolParam('use_merge_request_title', true);
  const event = eventName(request, payload);
  if (event === null) return { messages: [] };

  const urlTopic = request.param('topic');
  let content = BODIES.get(event)!(payload, urlTopic !== undefined);
  // A topic fixed in the URL no longer says which project the message is about.
  if (urlTopic) content = `[[${repoName(payload)}](${projectHomepage(payload)})] ${content}`;
  return { eventType: event, messages: [{ topic: topicFor(event, payload, useMergeRequestTitle), content }] };
}

export const gitlab: Integration = {
  urlName: 'gitlab',
  displayName: GITLAB,
  eventTypes: [...BODIES.keys()],
  configOptions: [{ key: 'branches', label: '', validator: 'check_string' }],
  translate,
};
