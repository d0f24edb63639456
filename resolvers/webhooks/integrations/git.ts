// Messages shared by the git hosting integrations (GitHub, GitLab, Gitea, Bitbucket...): Zulip's
// zerver/lib/webhooks/git.py. Their users read these sentences across integrations, so the wording,
// spacing and punctuation are Zulip's to the character, including its Python habits (`None` for a
// missing value, `rstrip`, `string.punctuation`).

export const EMPTY_SHA = '0000000000000000000000000000000000000000';

/** How many commits a push message lists before summing up the rest. */
export const COMMITS_LIMIT = 20;

/** How many committers a push message names before counting the rest as "others". */
export const PUSH_COMMITTERS_LIMIT = 3;

export function topicWithBranch(repo: string, branch: string): string {
  return `${repo} / ${branch}`;
}

export function topicWithPrOrIssueInfo(repo: string, type: string, id: number, title: string): string {
  return `${repo} / ${type} #${id} ${title}`;
}

export function topicWithRelease(repo: string, tag: string, title: string): string {
  return `${repo} / ${tag} ${title}`;
}

/** A quoted block following a sentence (Zulip's CONTENT_MESSAGE_TEMPLATE). */
export function quotedContent(message: string): string {
  return `\n~~~ quote\n${message}\n~~~`;
}

// Python's str.isspace set, which differs from JavaScript's \s (U+001C–U+001F and U+0085 are
// whitespace to Python; U+FEFF is not).
const PYTHON_TRAILING_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;

const PYTHON_LEADING_WHITESPACE = new RegExp(`^${PYTHON_TRAILING_WHITESPACE.source.slice(0, -1)}`);

/** Python's str.rstrip(). */
export function rstrip(text: string): string {
  return text.replace(PYTHON_TRAILING_WHITESPACE, '');
}

/** Python's str.strip(). */
export function strip(text: string): string {
  return rstrip(text).replace(PYTHON_LEADING_WHITESPACE, '');
}

const PYTHON_WHITESPACE_RUN = new RegExp(PYTHON_TRAILING_WHITESPACE.source.slice(0, -1), 'g');

/** Python's str.split() without arguments: the words between runs of Python's whitespace. */
export function split(text: string): string[] {
  const stripped = strip(text);
  return stripped === '' ? [] : stripped.split(PYTHON_WHITESPACE_RUN);
}

const PYTHON_PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** Whether text ends with one of Python's string.punctuation (an empty text does not). */
export function endsWithPunctuation(text: string): boolean {
  return text.length > 0 && PYTHON_PUNCTUATION.has(text[text.length - 1]!);
}

/** Python's `str(value)` for the optional values Zulip's templates print. */
function py(value: string | number | null | undefined): string {
  return value === null || value === undefined ? 'None' : String(value);
}

export function getShortSha(sha: string): string {
  return sha.slice(0, 11);
}

/** A commit as the push messages list it. */
export interface CommitInfo {
  /** The committer as the push message credits them (a username where the host gives one). */
  name: string;
  sha: string;
  url: string | null;
  message: string;
}

/** "a", "a and b", "a, b and c". */
export function getAssigneeString(assignees: readonly { username: string }[]): string {
  if (assignees.length === 1) return assignees[0]!.username;
  const names = assignees.map((a) => a.username);
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

// Python compares strings by code point; JavaScript's < compares UTF-16 units.
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Committers with their number of commits, most first (ties alphabetically), the tail as "others". */
export function getAllCommitters(commits: readonly CommitInfo[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.name, (counts.get(commit.name) ?? 0) + 1);
  const sorted = [...counts].sort(([nameA, a], [nameB, b]) => b - a || compareCodePoints(nameA, nameB));
  if (sorted.length <= PUSH_COMMITTERS_LIMIT) return sorted;
  const others = sorted.slice(PUSH_COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
  return [...sorted.slice(0, PUSH_COMMITTERS_LIMIT), ['others', others]];
}

/** The bulleted commit list of a push message: each commit's first line, at most COMMITS_LIMIT of them. */
export function getCommitsContent(commits: readonly CommitInfo[], isTruncated = false): string {
  let content = '';
  for (const commit of commits.slice(0, COMMITS_LIMIT)) {
    const firstLine = commit.message.split('\n', 1)[0];
    content += `* ${firstLine} ([${getShortSha(commit.sha)}](${py(commit.url)}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) content += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (isTruncated) content += '[and more commit(s)]';
  return rstrip(content);
}

export interface PushCommitsEvent {
  userName: string;
  compareUrl: string | null;
  branchName: string;
  commits: readonly CommitInfo[];
  /** The host sent only some of the pushed commits. */
  isTruncated?: boolean;
  deleted?: boolean;
  forcePush?: boolean;
  /** With repositoryUrl: name the repository in the sentence (GitHub's include_repository_name). */
  repositoryName?: string | null;
  repositoryUrl?: string | null;
}

export function getPushCommitsEventMessage(event: PushCommitsEvent): string {
  const { userName, compareUrl, branchName, commits } = event;
  if (commits.length === 0 && event.deleted) {
    return `${userName} [deleted](${py(compareUrl)}) the branch ${branchName}.`;
  }
  const pushType = event.forcePush ? 'force pushed' : 'pushed';
  if (commits.length === 0) {
    return compareUrl
      ? `${userName} [${pushType}](${compareUrl}) the branch ${branchName}.`
      : `${userName} ${pushType} the branch ${branchName}.`;
  }

  const counted = `${commits.length} commit${commits.length > 1 ? 's' : ''}`;
  const pushedText = compareUrl ? `[${pushType}](${compareUrl}) ${counted}` : `${pushType} ${counted}`;
  const where = event.repositoryName && event.repositoryUrl
    ? `${branchName} of [${event.repositoryName}](${event.repositoryUrl})`
    : branchName;
  const base = `${userName} ${pushedText} to branch ${where}.`;
  const list = getCommitsContent(commits, event.isTruncated);

  const committers = getAllCommitters(commits);
  if (committers.length === 1 && committers[0]![0] === userName) return rstrip(`${base}\n\n${list}\n`);

  const credit = ([name, n]: [string, number]) => `${name} (${n})`;
  let details = credit(committers[0]!);
  for (const committer of committers.slice(1, -1)) details += `, ${credit(committer)}`;
  if (committers.length > 1) details += ` and ${credit(committers[committers.length - 1]!)}`;
  return rstrip(`${base} Commits by ${details}.\n\n${list}\n`);
}

export function getForcePushCommitsEventMessage(userName: string, url: string, branchName: string, head: string): string {
  return `${userName} [force pushed](${url}) to branch ${branchName}. Head is now ${head}.`;
}

export function getCreateBranchEventMessage(userName: string, url: string | null, branchName: string): string {
  return url === null
    ? `${userName} created ${branchName} branch.`
    : `${userName} created [${branchName}](${url}) branch.`;
}

export function getRemoveBranchEventMessage(userName: string, branchName: string): string {
  return `${userName} deleted branch ${branchName}.`;
}

export interface PullRequestEvent {
  userName: string;
  /** The verb (`opened`, `merged`...); `approval`/`unapproval` become a phrase. */
  action: string;
  url: string;
  number?: number | null;
  /** With baseBranch: "from `target` to `base`". */
  targetBranch?: string | null;
  baseBranch?: string | null;
  /** Quoted under the sentence. */
  message?: string | null;
  assignee?: string | null;
  assignees?: readonly { username: string }[] | null;
  /** Who was assigned or unassigned, for the `assigned`/`unassigned` actions. */
  assigneeUpdated?: string | null;
  reviewer?: string | null;
  /** What the link names: `PR` unless told (`issue`, `PR review`, `discussion`...). */
  type?: string;
  /** Given when the topic does not already say it (a topic fixed in the URL). */
  title?: string | null;
}

const ACTION_PHRASES: Record<string, string> = {
  approval: 'added their approval for',
  unapproval: 'removed their approval for',
};

export function getPullRequestEventMessage(event: PullRequestEvent): string {
  const { action, title } = event;
  const id = event.number !== null && event.number !== undefined ? ` #${event.number}` : '';
  const titled = title !== null && title !== undefined ? ` ${title}` : '';
  const who = action === 'assigned' ? ` ${py(event.assigneeUpdated)} to` : action === 'unassigned' ? ` ${py(event.assigneeUpdated)} from` : '';
  let text = `${event.userName} ${Object.hasOwn(ACTION_PHRASES, action) ? ACTION_PHRASES[action] : action}${who} [${event.type ?? 'PR'}${id}${titled}](${event.url})`;

  const branches = Boolean(event.targetBranch && event.baseBranch);
  if (branches) text += ` from \`${event.targetBranch}\` to \`${event.baseBranch}\``;

  const assignees = event.assignees && event.assignees.length > 0 ? event.assignees : null;
  if (assignees) text += ` (assigned to ${getAssigneeString(assignees)})`;
  else if (event.assignee) text += ` (assigned to ${event.assignee})`;
  else if (event.reviewer) text += ` (assigned reviewers: ${event.reviewer})`;

  // A sentence ending in a title keeps the title's own punctuation.
  const endsWithTitle = !assignees && !event.assignee && !branches && title !== null && title !== undefined;
  if (!endsWithTitle || !endsWithPunctuation(title)) text += event.message ? ':' : '.';

  if (event.message) text += `\n${quotedContent(event.message)}`;
  return rstrip(text);
}

export type IssueEvent = Omit<PullRequestEvent, 'targetBranch' | 'baseBranch' | 'reviewer' | 'type'>;

export function getIssueEventMessage(event: IssueEvent): string {
  return getPullRequestEventMessage({ ...event, type: 'issue' });
}

export interface IssueLabelEvent {
  userName: string;
  /** `added` or `removed`. */
  action: string;
  url: string;
  number: number;
  labelName: string;
  userUrl: string;
  title?: string | null;
}

export function getIssueLabeledOrUnlabeledEventMessage(event: IssueLabelEvent): string {
  const preposition = event.action === 'added' ? 'to' : 'from';
  const titled = event.title !== null && event.title !== undefined ? ` ${event.title}` : '';
  return `[${event.userName}](${event.userUrl}) ${event.action} the ${event.labelName} label ${preposition} [Issue #${event.number}${titled}](${event.url}).`;
}

export interface IssueMilestoneEvent {
  userName: string;
  /** `added` or `removed`. */
  action: string;
  url: string;
  number: number;
  milestoneName: string;
  milestoneUrl: string;
  userUrl: string;
  title?: string | null;
}

export function getIssueMilestonedOrDemilestonedEventMessage(event: IssueMilestoneEvent): string {
  const preposition = event.action === 'added' ? 'to' : 'from';
  const titled = event.title !== null && event.title !== undefined ? ` ${event.title}` : '';
  return `[${event.userName}](${event.userUrl}) ${event.action} milestone [${event.milestoneName}](${event.milestoneUrl}) ${preposition} [issue #${event.number}${titled}](${event.url}).`;
}

export function getPushTagEventMessage(userName: string, tagName: string, tagUrl: string | null = null, action = 'pushed'): string {
  const tag = tagUrl ? `[${tagName}](${tagUrl})` : tagName;
  const message = `${userName} ${action} tag ${tag}`;
  return endsWithPunctuation(tagName) ? message : `${message}.`;
}

/** `action` is already Markdown where it links the comment (`[commented](url)`). */
export function getCommitsCommentActionMessage(userName: string, action: string, commitUrl: string, sha: string, message: string | null = null): string {
  const content = `${userName} ${action} on [${getShortSha(sha)}](${commitUrl})`;
  return message ? `${content}:${quotedContent(message)}` : `${content}.`;
}

export function getReleaseEventMessage(userName: string, action: string, tagName: string, releaseName: string, url: string): string {
  return `${userName} ${action} release [${releaseName}](${url}) for tag ${tagName}.`;
}

/** Whether a push to `branch` is wanted by the URL's `branches` option (comma-separated; absent: all). */
export function isBranchNameNotifiable(branch: string, branches: string | null | undefined): boolean {
  if (branches === null || branches === undefined) return true;
  return branches.split(',').some((name) => strip(name) === branch);
}
