// Jira (Zulip's zerver/webhooks/jira): Jira Cloud's and Jira Server's webhooks. The event is the
// payload's `webhookEvent`, no header; an issue's updates (edits, assignments, transitions, comments)
// all arrive as `jira:issue_updated` and are told apart by `issue_event_type_name` and what the
// payload carries. Jira omits what has no value, so most fields read with a fallback.
import { AnomalousWebhookPayloadError, BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest, WebhookUser } from '../integration.ts';
import { WildValue } from '../payload.ts';
import { endsWithPunctuation, rstrip } from './git.ts';

const NAME = 'Jira';

/** What Jira can send that Zulip accepts without a word. */
const IGNORED_EVENTS = new Set([
  'attachment_created',
  'issuelink_created',
  'issuelink_deleted',
  'jira:version_released',
  'jira:worklog_updated',
  'sprint_closed',
  'sprint_started',
  'worklog_created',
  'worklog_updated',
]);

/**
 * The realm's users, as Zulip's Jira integration names them: Jira gives an assignee's email and
 * mentions people by their Jira username, and Zulip writes the realm's full name when it finds one.
 */
export interface JiraPeople {
  /**
   * The full name of the realm's user with this delivery email (Zulip's get_user_by_delivery_email:
   * case-insensitive, surrounding whitespace ignored, deactivated users too); null when there is none.
   */
  fullNameByDeliveryEmail(email: string): string | null;
  /**
   * The full name of the first (by id) active user of the realm whose full name is `jiraName`, or whose
   * email starts with it, both case-insensitively (an empty name matches every email); null when none.
   */
  guessFromJiraName(jiraName: string): string | null;
}

/** JiraPeople from the organization's users (ordered by ID). */
export function jiraPeople(users: readonly WebhookUser[]): JiraPeople {
  return {
    fullNameByDeliveryEmail: (email) => {
      const wanted = email.trim().toLowerCase();
      return users.find((u) => u.deliveryEmail.toLowerCase() === wanted)?.fullName ?? null;
    },
    guessFromJiraName: (jiraName) => guessUser(users, jiraName)?.fullName ?? null,
  };
}

/**
 * The organization's user Zulip guesses from a third party's name for someone (Jira, Harbor,
 * TeamCity): the first (by ID) active user whose full name is `name`, or whose email starts with
 * it, both case-insensitively (an empty name matches every email); null when none.
 */
export function guessUser(users: readonly WebhookUser[], name: string): WebhookUser | null {
  const wanted = name.toLowerCase();
  return users.find((u) => u.isActive && (u.fullName.toLowerCase() === wanted || u.email.toLowerCase().startsWith(wanted))) ?? null;
}


type Handler = (payload: WildValue, people: JiraPeople) => string;

const HANDLERS = new Map<string, Handler>([
  ['jira:issue_created', createdIssueMessage],
  ['jira:issue_deleted', deletedIssueMessage],
  ['jira:issue_updated', updatedIssueMessage],
  ['comment_created', commentMessage('commented on')],
  ['comment_updated', commentMessage('updated their comment on')],
  ['comment_deleted', commentMessage('deleted their comment on', true)],
]);

export const jira: Integration = {
  urlName: 'jira',
  displayName: NAME,
  eventTypes: [...HANDLERS.keys()],
  readsUsers: true,
  unquoteUrlParameters: true,
  translate: (request, users = []) => translateJira(request, jiraPeople(users)),
};

/** The translation, with the realm's users to name people by (see JiraPeople). */
export function translateJira(request: WebhookRequest, people: JiraPeople): WebhookOutcome {
  const payload = request.payload();
  const event = eventType(payload);
  if (event !== null && IGNORED_EVENTS.has(event)) return { messages: [] };
  if (event === null) throw new AnomalousWebhookPayloadError(NAME);
  const handler = HANDLERS.get(event);
  if (!handler) throw new UnsupportedWebhookEventTypeError(NAME, event);
  const topic = `${issueId(payload)}: ${issueTitle(payload)}`;
  // The templates end in newlines that sending strips; the content is the message as stored.
  const content = rstrip(handler(payload, people));
  return { eventType: event, messages: [{ topic, content }] };
}

function eventType(payload: WildValue): string | null {
  const event = payload.opt('webhookEvent').optStr();
  // Older Jira versions post a workflow transition without naming the event.
  if (event === null && payload.opt('transition').truthy()) return 'jira:issue_updated';
  return event;
}

/** The value at `keys`, or `fallback` wherever the path is absent or not an object (Zulip's get_in). */
function getIn(payload: WildValue, keys: readonly string[], fallback = ''): WildValue {
  let value = payload;
  for (const key of keys) {
    if (!value.has(key)) return new WildValue('default', fallback);
    value = value.get(key);
  }
  return value;
}

function issueId(payload: WildValue): string {
  if (!payload.has('issue')) {
    // Some old Jira versions post comment events without the issue: its internal number is in the
    // comment's URL (…/issue/<id>/comment/<id>).
    const self = payload.get('comment').get('self');
    const parts = self.str().split('/');
    // Zulip fails here with a server error; a URL of the wrong shape is the payload's fault.
    if (parts.length < 3) throw new BadRequestError(`${self.varName} is not a comment's URL`);
    return parts[parts.length - 3]!;
  }
  return getIn(payload, ['issue', 'key']).str();
}

function issueTitle(payload: WildValue): string {
  if (!payload.has('issue')) return 'Upgrade Jira to get the issue title here.';
  return getIn(payload, ['issue', 'fields', 'summary']).str();
}

/**
 * The issue's key and title, linked to its page: the payload has only the issue's REST URL, and the
 * site that serves `<base>/rest/api/…` shows the issue at `<base>/browse/<key>`.
 */
function issueLink(payload: WildValue, id = issueId(payload)): string {
  const text = `${id}: ${issueTitle(payload)}`;
  // Python's `.` stops at a newline only, and the match starts at the beginning.
  const base = /^([^\n]*)\/rest\/api\//.exec(getIn(payload, ['issue', 'self']).str());
  return base ? `[${text}](${base[1]}/browse/${id})` : text;
}

function issueAuthor(payload: WildValue): string {
  return getIn(payload, ['user', 'displayName']).str();
}

function assigneeMention(payload: WildValue, people: JiraPeople): string {
  const email = getIn(payload, ['issue', 'fields', 'assignee', 'emailAddress']).str();
  if (email === '') return '';
  return `**${people.fullNameByDeliveryEmail(email) ?? email}**`;
}

function createdIssueMessage(payload: WildValue): string {
  const author = issueAuthor(payload);
  const issue = issueLink(payload);
  const priority = getIn(payload, ['issue', 'fields', 'priority', 'name']).str();
  const assignee = getIn(payload, ['issue', 'fields', 'assignee', 'displayName'], 'no one').str();
  return `${author} created ${issue}:\n\n* **Priority**: ${priority}\n* **Assignee**: ${assignee}`;
}

function deletedIssueMessage(payload: WildValue): string {
  // Zulip fails on an empty title with a server error; here the sentence gets its full stop.
  const stop = endsWithPunctuation(issueTitle(payload)) ? '' : '.';
  return `${issueAuthor(payload)} deleted ${issueLink(payload)}${stop}`;
}

/**
 * What an issue update is: Jira Cloud names it (`issue_generic`, `issue_commented`, `issue_comment_edited`,
 * `issue_comment_deleted`, `issue_assigned`…); older versions only send the comment or the transition.
 */
function updateKind(payload: WildValue): string {
  const name = payload.has('issue_event_type_name') ? payload.get('issue_event_type_name').str() : '';
  if (name !== '') return name;
  if (payload.opt('comment').truthy()) return 'issue_commented';
  if (payload.opt('transition').truthy()) return 'issue_transited';
  return '';
}

function updatedIssueMessage(payload: WildValue, people: JiraPeople): string {
  // Unlike the topic, never the comment URL's number: without an issue, the link text starts with ": ".
  const issue = issueLink(payload, getIn(payload, ['issue', 'key']).str());
  const assignee = assigneeMention(payload, people);
  const assigned = assignee ? ` (assigned to ${assignee})` : '';
  const kind = updateKind(payload);
  if (kind.includes('comment')) {
    const verb = kind === 'issue_commented' ? 'commented on'
      : kind === 'issue_comment_edited' ? 'edited a comment on' : 'deleted a comment from';
    const sentence = `${issueAuthor(payload)} ${verb} ${issue}${assigned}`;
    const comment = getIn(payload, ['comment', 'body']).str();
    if (!comment) return `${sentence}.`;
    return `${sentence}:\n\n\`\`\` quote\n${markdownFromJira(comment, people)}\n\`\`\``;
  }
  let content = `${issueAuthor(payload)} updated ${issue}${assigned}:\n\n`;
  const changelog = payload.opt('changelog');
  if (changelog.truthy()) {
    for (const item of changelog.get('items').list()) {
      const field = item.opt('field').optStr();
      const to = field === 'assignee' && assignee ? assignee : `**${pythonStr(item.opt('toString').optStr())}**`;
      content += changeLine(field, item.opt('fromString').optStr(), to);
    }
  } else if (kind === 'issue_transited') {
    const from = getIn(payload, ['transition', 'from_status']).str();
    content += changeLine('status', from, `**${getIn(payload, ['transition', 'to_status']).str()}**`);
  }
  return content;
}

/** A change in the list; Zulip prints a missing field as Python does (`None`). */
function changeLine(field: string | null, from: string | null, to: string): string {
  return `* Changed ${pythonStr(field)}${from ? ` from **${from}**` : ''} to ${to}\n`;
}

const pythonStr = (value: string | null) => value ?? 'None';

/**
 * The comment events of newer Jira versions. Their bodies are quoted as Jira wrote them, not
 * converted, except for the backslash Jira puts before a `!`.
 */
function commentMessage(action: string, struck = false): Handler {
  return (payload) => {
    const comment = payload.get('comment');
    const author = comment.get('author').get('displayName').str();
    const issue = issueLink(payload);
    const body = comment.get('body').str().replaceAll('\\!', '!');
    return `${author} ${action} ${issue}\n\`\`\` quote\n${struck ? `~~${body}~~` : body}\n\`\`\``;
  };
}

/** Jira's wiki markup → Zulip's Markdown, as simply as Zulip does it, in its order. */
const JIRA_MARKUP: readonly [RegExp, string][] = [
  [/\*([^*]+)\*/g, '**$1**'], // *bold*
  [/\{\{([^*]+?)\}\}/g, '`$1`'], // {{monospaced}}
  [/bq\. ([^\n]*)/g, '> $1'], // bq. a quoted line
  [/\{quote\}([\s\S]*?)\{quote\}/g, '~~~ quote\n$1\n~~~'],
  [/\{noformat\}([\s\S]*?)\{noformat\}/g, '~~~\n$1\n~~~'],
  [/\{code[^\n]*\}([\s\S]*?)\{code\}/g, '~~~\n$1\n~~~'], // {code} or {code:lang}
  [/\[([^|~]+?)\]/g, '[$1]($1)'], // [url]; `~` keeps mentions out
  [/\[([^|~]+)\|([^\]]*)\]/g, '[$1]($2)'], // [title|url]
];

function markdownFromJira(text: string, people: JiraPeople): string {
  let content = JIRA_MARKUP.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
  // [~name] mentions a Jira user; Zulip guesses the realm's user from the name.
  for (const [, name] of [...content.matchAll(/\[~([^\n]*?)\]/g)]) {
    content = content.split(`[~${name}]`).join(`**${people.guessFromJiraName(name!) ?? name}**`);
  }
  return content;
}
