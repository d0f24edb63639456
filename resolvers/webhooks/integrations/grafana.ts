// Grafana's webhook contact point, as Zulip's zerver/webhooks/grafana renders it. Two payloads arrive
// at the same URL: unified alerting (Grafana 8 and later: an Alertmanager-style `alerts` list, one
// message per alert) and legacy alerting (Grafana 7 and earlier: one rule's state, one message).
import { BadRequestError } from '../../errors.ts';
import type { Integration, WebhookMessage, WebhookOutcome } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { globalTime } from '../global-time.ts';
import { pythonStr } from '../python.ts';

const LEGACY_EVENT_TYPES = ['ok', 'pending', 'alerting', 'paused'];
const UNIFIED_EVENT_TYPES = ['firing', 'resolved'];
// Grafana 7 also sends these; Zulip accepts them though they are not event types one can filter on.
const LEGACY_STATES = ['no_data', 'paused', 'alerting', 'ok', 'pending', 'unknown'];

/** Go's zero time: what Alertmanager-style payloads put in `endsAt` while an alert still fires. */
const NOT_ENDED = '0001-01-01T00:00:00Z';

export const grafana: Integration = {
  urlName: 'grafana',
  displayName: 'Grafana',
  eventTypes: [...LEGACY_EVENT_TYPES, ...UNIFIED_EVENT_TYPES],
  translate(request) {
    const payload = request.payload();
    return payload.has('alerts') ? unifiedAlerts(payload) : legacyAlert(payload);
  },
};

/** Unified alerting: one message per alert, each filtered by its own status (as in Zulip). */
function unifiedAlerts(payload: WildValue): WebhookOutcome {
  return { messages: payload.get('alerts').list().map(unifiedAlert) };
}

function unifiedAlert(alert: WildValue): WebhookMessage {
  const status = oneOf(alert.get('status'), UNIFIED_EVENT_TYPES);
  let content = `${status === 'firing' ? ':alert:' : ':checkbox:'} **${status.toUpperCase()}**\n\n`;

  const labels = alert.get('labels');
  const alertname = labels.opt('alertname');
  let topic: string;
  if (alertname.truthy()) {
    topic = `[${alertname.str()}]`;
    content += `**${alertname.str()}**\n\n`;
  } else {
    // An alert rule need not have an alertname label; the fingerprint still tells alerts apart.
    topic = `[${alert.get('fingerprint').str()}]`;
  }

  content += `This alert was fired at ${globalTime(alert.get('startsAt'))}.`;
  const endsAt = alert.get('endsAt');
  if (endsAt.str() !== NOT_ENDED) content += `\n\nThis alert was resolved at ${globalTime(endsAt)}.`;

  // Zulip's section separators are uneven (an alert without labels runs its values into the
  // sentence before); reproduced as they are, since that is what its users see.
  if (labels.truthy()) content += `\n\nLabels:\n${bulletList(labels, (v) => v.str())}\n`;
  const values = alert.opt('values');
  const valueString = alert.opt('valueString');
  if (values.truthy()) content += `Values:\n${bulletList(values, (v) => pythonStr(v.raw()))}\n`;
  else if (valueString.truthy()) content += `Values:\n${valueString.str()}\n\n`;
  const annotations = alert.opt('annotations');
  if (annotations.truthy()) content += `Annotations:\n${bulletList(annotations, (v) => v.str())}`;

  for (const [key, label] of [['generatorURL', 'Generator'], ['silenceURL', 'Silence'], ['imageURL', 'Image']] as const) {
    const url = alert.opt(key);
    if (url.truthy()) content += `\n[${label}](${url.str()})`;
  }
  // Zulip's sending strips trailing whitespace (normalize_body); its tests expect the stripped text.
  return { topic, content: content.trimEnd(), eventType: status };
}

/** Legacy alerting: the rule, its state, its message and the metrics that matched. */
function legacyAlert(payload: WildValue): WebhookOutcome {
  const topic = payload.get('title').str();

  let evalMatches = '';
  // Zulip lets a null evalMatches through its check and then fails to iterate it: a 400 either way.
  if (payload.has('evalMatches')) {
    for (const match of payload.get('evalMatches').list()) {
      evalMatches += `**${match.get('metric').str()}:** ${pythonStr(metricValue(match.get('value')))}\n`;
    }
  }
  const message = payload.has('message') ? `${payload.get('message').str()}\n\n` : '';

  const state = oneOf(payload.get('state'), LEGACY_STATES);
  const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
  const rule = `[${payload.get('ruleName').str()}](${payload.get('ruleUrl').str()})`;

  let content = `${icon} **${state.toUpperCase()}**\n\n${rule}\n\n${message}${evalMatches}`;
  if (payload.has('imageUrl')) content += `\n[Click to view visualization](${payload.get('imageUrl').str()})`;
  return { eventType: state, messages: [{ topic, content: content.trim() }] };
}

/** Zulip's check_string_in: a string from a fixed set, else "Invalid <path>". */
function oneOf(value: WildValue, allowed: readonly string[]): string {
  const s = value.str();
  if (!allowed.includes(s)) throw new BadRequestError(`Invalid ${value.varName}`);
  return s;
}

/** An evalMatch's value: a number or null (Python's int also takes booleans), as Zulip checks it. */
function metricValue(value: WildValue): number | boolean | null {
  const raw = value.raw();
  if (raw === null || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  throw new BadRequestError(`${value.varName} is not an allowed_type`);
}

/** `- key: value` lines of an object, each ending in a newline. */
function bulletList(object: WildValue, show: (value: WildValue) => string): string {
  return object.entries().map(([key, value]) => `- ${key}: ${show(value)}\n`).join('');
}

