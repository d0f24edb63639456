// Sentry (Zulip's zerver/webhooks/sentry): an internal integration's alert-rule events (`data.event`)
// and issue webhooks (`data.issue`), the WebHooks plugin's events (no `data`, an `event` with an
// `event_id`), and the plugin's older payloads (neither). Zulip tells them apart by the payload's
// keys, not by the Sentry-Hook-Resource header, and has no event types to filter on.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { globalTime } from '../global-time.ts';
import { pythonRepr } from '../python.ts';

const NAME = 'Sentry';

/** Sentry's `platform` → the code block's language. */
const SYNTAX_HIGHLIGHT_AS: Record<string, string> = {
  go: 'go',
  java: 'java',
  javascript: 'javascript',
  node: 'javascript',
  python: 'python3',
  ruby: 'ruby',
};

// Sentry's "send a sample event" still carries the Raven-era `version`; Zulip accepts it by its title.
const SAMPLE_EVENT_TITLE = 'This is an example Python exception';

interface EventLink {
  webUrl: string;
  time: string;
}

export const sentry: Integration = {
  urlName: 'sentry',
  displayName: NAME,
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    const [topic, content] = translatePayload(request.payload());
    return { messages: [{ topic, content }] };
  },
};

function translatePayload(payload: WildValue): [string, string] {
  const data = payload.opt('data');
  if (data.isNull()) {
    const event = pluginEvent(payload);
    if (event) return eventMessage(event.event, event.link);
    return legacyMessage(payload);
  }
  if (!data.truthy()) return legacyMessage(payload);
  if (data.has('event')) return eventMessage(data.get('event'));
  if (data.has('issue')) {
    // Zulip reads both before looking at the issue, whatever the action.
    const action = payload.get('action').str();
    const actor = payload.get('actor');
    return issueMessage(action, data.get('issue'), actor);
  }
  throw new UnsupportedWebhookEventTypeError(NAME, pythonList(data.entries().map(([key]) => key)));
}

/**
 * The WebHooks plugin sends the event without its link or ISO time: the link is the issue's URL plus
 * the event's id, the time its epoch `timestamp` (or `received`). Older plugin payloads have no
 * `event_id` and get the legacy message.
 */
function pluginEvent(payload: WildValue): { event: WildValue; link: EventLink } | null {
  if (!payload.has('event')) return null;
  const event = payload.get('event');
  const eventId = event.opt('event_id');
  if (!eventId.truthy()) return null;
  const webUrl = urlJoin(payload.get('url').str(), `events/${pythonStr(eventId)}/`);
  // Zulip reads `received` even when `timestamp` is there (Python evaluates get()'s default).
  const received = event.get('received');
  const time = epochGlobalTime(event.has('timestamp') ? event.get('timestamp') : received);
  return { event, link: { webUrl, time } };
}

function eventMessage(event: WildValue, pluginLink?: EventLink): [string, string] {
  const title = event.get('title').str();
  const platform = event.get('platform').optStr();
  const syntax = (platform !== null && Object.hasOwn(SYNTAX_HIGHLIGHT_AS, platform)) ? SYNTAX_HIGHLIGHT_AS[platform] : '';
  // The deprecated Raven Python SDKs are refused, as Zulip does.
  if (platform === 'python' && pythonInt(event.get('version')) < 7 && title !== SAMPLE_EVENT_TITLE) {
    throw new UnsupportedWebhookEventTypeError(NAME, 'Raven SDK');
  }
  const level = event.get('level').str();
  const link = pluginLink ?? { webUrl: event.get('web_url').str(), time: globalTime(event.get('datetime')) };
  const details = `**level:** ${level}\n**timestamp:** ${link.time}`;

  if (event.has('exception')) {
    const filename = event.get('metadata').opt('filename').optStr();
    const header = `**New exception:** [${title}](${link.webUrl})\n\`\`\`quote\n${details}\n**filename:** ${filename ?? 'None'}\n\`\`\``;
    const frame = exceptionFrame(event.get('exception'), filename);
    if (!frame) return [title, header];
    const pre = tracebackLines(frame.opt('pre_context'));
    const line = frame.get('context_line').str();
    const post = tracebackLines(frame.opt('post_context'));
    return [title, `${header}\n\nTraceback:\n\`\`\`${syntax}\n${pre}---> ${line}\n${post}\`\`\``];
  }
  if (event.has('logentry')) {
    return [title, `**New message event:** [${title}](${link.webUrl})\n\`\`\`quote\n${details}\n\`\`\``];
  }
  throw new UnsupportedWebhookEventTypeError(NAME, 'unknown-event type');
}

/**
 * The innermost frame of the file Sentry blames, from the last exception that has a stack trace
 * (chained exceptions list the one raised last at the end); null when there is no code to quote.
 */
function exceptionFrame(exception: WildValue, filename: string | null): WildValue | null {
  const values = exception.get('values').list().reverse();
  const withTrace = values.find((value) => value.has('stacktrace'));
  if (!withTrace || !filename) return null;
  const stacktrace = withTrace.get('stacktrace');
  if (!stacktrace.truthy()) return null;
  const frame = stacktrace.get('frames').list().reverse().find((f) => f.opt('filename').raw() === filename);
  if (!frame || frame.opt('context_line').isNull()) return null;
  return frame;
}

function tracebackLines(lines: WildValue): string {
  if (lines.isNull()) return '';
  return lines.list().map((line) => {
    const text = line.str();
    return text === '' ? '\n' : `     ${text}\n`;
  }).join('');
}

function issueMessage(action: string, issue: WildValue, actor: WildValue): [string, string] {
  const title = issue.get('title').str();
  const time = globalTime(issue.get('lastSeen'));
  const assignedTo = issue.get('assignedTo');
  let assignee = 'No one';
  if (assignedTo.truthy()) {
    const isTeam = assignedTo.get('type').raw() === 'team';
    const name = assignedTo.get('name').str();
    assignee = isTeam ? `team ${name}` : name;
  }

  switch (action) {
    case 'created': {
      const level = issue.get('level').str();
      return [title, `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${level}\n**timestamp:** ${time}\n**assignee:** ${assignee}\n\`\`\``];
    }
    case 'resolved':
      return [title, `Issue **${title}** was marked as resolved by **${actor.get('name').str()}**.`];
    case 'assigned':
      return [title, `Issue **${title}** has now been assigned to **${assignee}** by **${actor.get('name').str()}**.`];
    case 'ignored':
      return [title, `Issue **${title}** was ignored by **${actor.get('name').str()}**.`];
    default:
      throw new UnsupportedWebhookEventTypeError(NAME, `${action} action`);
  }
}

/** The WebHooks plugin's payload before Sentry added the event's details. */
function legacyMessage(payload: WildValue): [string, string] {
  const topic = pythonStr(payload.opt('project_name'));
  const level = payload.get('level').str().toUpperCase();
  const url = pythonStr(payload.opt('url'));
  const message = pythonStr(payload.opt('message'));
  return [topic, `New [issue](${url}) (level: ${level}):\n\n\`\`\` quote\n${message}\n\`\`\``];
}

// ---- Python's semantics where Zulip's message text depends on them ----


/** How Python's str() prints an absent or scalar value (`None`, `True`). */
function pythonStr(value: WildValue): string {
  const v = value.raw() as unknown;
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  return value.str();
}

/** Python's int() of Sentry's `version`, a string (`"7"`) or a number. */
function pythonInt(value: WildValue): number {
  const v = value.raw() as unknown;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*[+-]?\d+(_\d+)*\s*$/.test(v)) return Number.parseInt(v.replace(/_/g, ''), 10);
  throw new BadRequestError(`${value.varName} is not an integer`);
}

/** Python's repr() of a list of strings, as Zulip names an unknown payload kind (`['error']`). */
function pythonList(items: string[]): string {
  return `[${items.map(pythonRepr).join(', ')}]`;
}

/** Python's urljoin(base, relative) for a relative path: the base's last segment is replaced. */
function urlJoin(base: string, relative: string): string {
  const end = base.search(/[?#]/);
  const path = end === -1 ? base : base.slice(0, end);
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*$/i.test(path)) return `${path}/${relative}`;
  return path.slice(0, path.lastIndexOf('/') + 1) + relative;
}

// ---- Zulip's global times (`<time:2020-04-28T13:56:05+00:00>`): whole seconds, the offset as sent ----

// Python's datetime spans years 1 to 9999.
const MIN_EPOCH_SECONDS = -62135596800;
const MAX_EPOCH_SECONDS = 253402300799;

/** A Unix time in seconds, in UTC (Python's fromtimestamp rounds it to microseconds first). */
function epochGlobalTime(value: WildValue): string {
  const seconds = value.number();
  let whole = Math.floor(seconds);
  if (Math.round((seconds - whole) * 1e6) >= 1e6) whole += 1;
  if (whole < MIN_EPOCH_SECONDS || whole > MAX_EPOCH_SECONDS) throw invalidTime(value);
  const iso = new Date(whole * 1000).toISOString();
  return `<time:${iso.slice(0, 19)}+00:00>`;
}

function invalidTime(value: WildValue): BadRequestError {
  return new BadRequestError(`${value.varName} is not a valid time`);
}
