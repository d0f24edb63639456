// PagerDuty's webhooks, as Zulip's zerver/webhooks/pagerduty renders them. Three generations arrive
// at the same URL: v1 and v2 post a `messages` list (v1 names each message's `type`, v2 its
// `event`), v3 subscriptions post a single `event`. All are written with the same templates, chosen
// by what happened to the incident.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookMessage } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { rstrip } from './git.ts';

const NAME = 'PagerDuty';

// Event name → the verb messages use (v1's "delineated" for delegation is Zulip's wording).
const V1_ACTIONS = new Map([
  ['incident.trigger', 'triggered'],
  ['incident.acknowledge', 'acknowledged'],
  ['incident.unacknowledge', 'unacknowledged'],
  ['incident.resolve', 'resolved'],
  ['incident.assign', 'assigned'],
  ['incident.escalate', 'escalated'],
  ['incident.delegate', 'delineated'],
]);
const V2_ACTIONS = new Map([
  ['incident.trigger', 'triggered'],
  ['incident.acknowledge', 'acknowledged'],
  ['incident.resolve', 'resolved'],
  ['incident.assign', 'assigned'],
]);
const V3_ACTIONS = new Map([
  ['incident.triggered', 'triggered'],
  ['incident.acknowledged', 'acknowledged'],
  ['incident.unacknowledged', 'unacknowledged'],
  ['incident.resolved', 'resolved'],
  ['incident.reassigned', 'reassigned'],
]);

/** What a message says about an incident, whichever version described it. */
interface Incident {
  action: string;
  /** The incident's number (v1, v2) or `title (#number)` (v3): link text and topic. */
  numTitle: string;
  url: string;
  service: string;
  /** The first assignee as a link, or "nobody". */
  assignee: string;
  /**
   * Who changed the incident's status, as a link, when known. Zulip means to leave it out when v2's
   * `last_status_change_by` or v3's `agent` is null (as PagerDuty sends for automatic changes) but
   * refuses such payloads by accident (its `is not None` test of a WildValue always holds); Parley
   * does what Zulip means.
   */
  agent: string | null;
  /** The trigger's text as a quote block; v3 has none. */
  trigger: string;
}

export const pagerduty: Integration = {
  urlName: 'pagerduty',
  displayName: NAME,
  eventTypes: ['resolved', 'assigned', 'unacknowledged', 'acknowledged', 'triggered', 'reassigned'],
  translate(request) {
    const payload = request.payload();
    const messages = payload.opt('messages');
    if (messages.truthy()) return { messages: messagesOf(messages.list()) };
    if (!payload.has('event')) return { messages: [] };
    const event = payload.get('event');
    return { messages: [incidentMessage(v3Incident(event, actionOf(event.opt('event_type'), V3_ACTIONS)))] };
  },
};

/**
 * A `messages` list: the v1 messages up to the first without a `type`, then the v2 messages up to
 * the first without an `event` (as Zulip reads them: a v1 list stops the v2 pass at once).
 */
function messagesOf(list: WildValue[]): WebhookMessage[] {
  const out: WebhookMessage[] = [];
  for (const message of list) {
    const type = message.opt('type');
    if (type.isNull()) break;
    out.push(incidentMessage(v1Incident(message, actionOf(type, V1_ACTIONS))));
  }
  for (const message of list) {
    const event = message.opt('event');
    if (event.isNull()) break;
    out.push(incidentMessage(v2Incident(message, actionOf(event, V2_ACTIONS))));
  }
  return out;
}

function actionOf(name: WildValue, actions: Map<string, string>): string {
  const event = name.optStr();
  const action = event === null ? undefined : actions.get(event);
  if (action === undefined) throw new UnsupportedWebhookEventTypeError(NAME, event ?? 'None');
  return action;
}

function v1Incident(message: WildValue, action: string): Incident {
  const incident = message.get('data').get('incident');
  const url = incident.get('html_url').str();
  const numTitle = String(incident.get('incident_number').int());
  const service = link(incident.get('service').get('name').str(), incident.get('service').get('html_url').str());
  // v1 names people by their email address; Zulip shows its local part.
  const assignedTo = incident.opt('assigned_to_user');
  const assignee = assignedTo.truthy() ? userLink(assignedTo) : 'nobody';
  const resolvedBy = incident.opt('resolved_by_user');
  const agent = resolvedBy.truthy() ? userLink(resolvedBy) : null;

  const lines: string[] = [];
  const summary = incident.opt('trigger_summary_data');
  if (summary.truthy()) {
    for (const key of ['subject', 'description']) {
      const text = summary.opt(key);
      const line = text.value === undefined ? '' : text.str();
      if (line) lines.push(line);
    }
  }
  return { action, numTitle, url, service, assignee, agent, trigger: quote(lines.join('\n')) };
}

function v2Incident(message: WildValue, action: string): Incident {
  const incident = message.get('incident');
  const url = incident.get('html_url').str();
  const numTitle = String(incident.get('incident_number').int());
  const service = link(incident.get('service').get('name').str(), incident.get('service').get('html_url').str());
  const assignments = incident.get('assignments');
  const assignee = assignments.truthy() ? referenceLink(assignments.list()[0]!.get('assignee')) : 'nobody';
  const changedBy = incident.opt('last_status_change_by');
  const agent = changedBy.isNull() ? null : referenceLink(changedBy);
  // Zulip fails on a null description (its template lacks the quote): Parley leaves the quote out.
  const description = incident.opt('description').optStr();
  return { action, numTitle, url, service, assignee, agent, trigger: description === null ? '' : quote(description) };
}

function v3Incident(event: WildValue, action: string): Incident {
  const data = event.get('data');
  const url = data.get('html_url').str();
  const numTitle = `${data.get('title').str()} (#${data.get('number').int()})`;
  const service = referenceLink(data.get('service'));
  const assignees = data.get('assignees');
  const assignee = assignees.truthy() ? referenceLink(assignees.list()[0]!) : 'nobody';
  const agent = event.opt('agent');
  return { action, numTitle, url, service, assignee, agent: agent.isNull() ? null : referenceLink(agent), trigger: '' };
}

function incidentMessage(incident: Incident): WebhookMessage {
  const { action, numTitle, url, service, assignee, agent, trigger } = incident;
  const subject = `Incident [${numTitle}](${url})`;
  let sentence: string;
  if (action === 'triggered' || action === 'unacknowledged') sentence = `${subject} ${action} by ${service} (assigned to ${assignee}).`;
  else if (action === 'resolved') sentence = agent === null ? `${subject} resolved.` : `${subject} resolved by ${agent}.`;
  else if (action === 'assigned' || action === 'reassigned') sentence = `${subject} ${action} to ${assignee}.`;
  else sentence = `${subject} ${action} by ${assignee}.`;
  // v3 has no trigger text: Zulip's sending strips the blank lines left behind.
  return { topic: `Incident ${numTitle}`, content: rstrip(`${sentence}\n\n${trigger}`), eventType: action };
}

const link = (text: string, url: string) => `[${text}](${url})`;

const quote = (text: string) => `\`\`\` quote\n${text}\n\`\`\``;

/** A v2/v3 reference to a user or service: its summary, linked. */
function referenceLink(reference: WildValue): string {
  return link(reference.get('summary').str(), reference.get('html_url').str());
}

/** A v1 user: the local part of the email address, linked. */
function userLink(user: WildValue): string {
  return link(emailUsername(user.get('email')), user.get('html_url').str());
}

// RFC 5322 atext as Python's email parser reads it: anything but specials and whitespace.
const ATOM = String.raw`[^\s()<>@,:;.\\"\[\]]+`;
const ADDR_SPEC = new RegExp(String.raw`^\s*(?:(${ATOM}(?:\.${ATOM})*)|"((?:[^"\\]|\\.)*)")\s*@\s*(?:${ATOM}(?:\.${ATOM})*|\[[^\[\]\\]*\])\s*$`, 's');

/** Python's Address(addr_spec=...).username: the local part, unquoted; a malformed address is refused. */
function emailUsername(email: WildValue): string {
  const match = ADDR_SPEC.exec(email.str());
  if (!match) throw new BadRequestError(`${email.varName} is not an email address`);
  return match[1] ?? match[2]!.replace(/\\(.)/gs, '$1');
}
