// Librato's (AppOptics') alerts and chart snapshots, as Zulip's zerver/webhooks/librato renders them.
// Alerts come as the form field `payload` (JSON); snapshots as a JSON body with `attachments`, Slack's
// shape. Zulip formats the payload's values with str() and does not check their types.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import { WildValue } from '../payload.ts';
import { pythonStr } from '../python.ts';

export const librato: Integration = {
  urlName: 'librato',
  displayName: 'Librato',
  eventTypes: null,
  translate(request) {
    const payload = request.param('payload') === undefined ? new WildValue('payload', {}) : request.jsonParam('payload');
    // Zulip's Json[Mapping] refuses anything but an object.
    const noAlert = payload.entries().length === 0;
    const attachments = attachmentsOf(request.body);
    if (noAlert && attachments.length === 0) throw new BadRequestError('Malformed JSON input');
    const topic = attachments.length > 0 ? 'Snapshots' : `Alert ${text(alertOf(payload).name)}`;
    let content: string;
    if (payload.opt('clear').truthy()) content = clearedContent(payload);
    else if (payload.opt('violations').truthy()) content = triggeredContent(payload);
    else if (attachments.length > 0 && attachments[0]!.opt('image_url').truthy()) content = attachments.map(snapshotContent).join('');
    else throw new BadRequestError('Unexpected message type');
    // An alert without conditions ends in a space, which Zulip's sending strips.
    return { messages: [{ topic, content: content.trimEnd() }] };
  },
};

/** The body's `attachments` when the body is JSON (a form-encoded alert is not). */
function attachmentsOf(body: string): WildValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const attachments = new WildValue('body', parsed).opt('attachments');
  // Zulip treats a null list as an empty one.
  return attachments.isNull() ? [] : attachments.list();
}

function alertOf(payload: WildValue) {
  const alert = payload.get('alert');
  const id = alert.get('id');
  return { name: alert.get('name'), url: `https://metrics.librato.com/alerts#/${text(id)}`, runbookUrl: alert.get('runbook_url') };
}

function clearedContent(payload: WildValue): string {
  const time = globalTimeOfSeconds(payload.get('trigger_time'));
  // Zulip writes the words "alert_name", not the alert's name, in the link.
  return `Alert [alert_name](${alertOf(payload).url}) has cleared at ${time}!`;
}

function triggeredContent(payload: WildValue): string {
  const alert = alertOf(payload);
  let content = `Alert [alert_name](${alert.url}) has triggered! `;
  if (alert.runbookUrl.truthy()) content += `[Reaction steps](${text(alert.runbookUrl)}):`;
  const conditions = payload.get('conditions').list();
  // Zulip only ever reads the violations of the source named "test-source".
  const violations = payload.get('violations').get('test-source').list();
  for (let i = 0; i < Math.min(conditions.length, violations.length); i++) {
    const condition = conditions[i]!;
    const summary = text(condition.get('summary_function'));
    const threshold = condition.has('threshold') ? text(condition.get('threshold')) : '';
    const type = text(condition.get('type'));
    const duration = condition.opt('duration');
    const metric = text(violations[i]!.get('metric'));
    const recordedAt = globalTimeOfSeconds(violations[i]!.get('recorded_at'));
    content += `\n * Metric \`${metric}\`, ${summary} was ${type} ${threshold}`;
    if (duration.truthy()) content += ` by ${text(duration)}s`;
    content += `, recorded at ${recordedAt}.`;
  }
  return content;
}

function snapshotContent(snapshot: WildValue): string {
  const author = text(snapshot.get('author_name'));
  const image = text(snapshot.get('image_url'));
  const title = text(snapshot.get('title'));
  return `**${author}** sent a [snapshot](${image}) of [metric](${title}).`;
}

function text(value: WildValue): string {
  return pythonStr(value.raw());
}

// Python's datetimes run from year 1 to 9999; Zulip fails on anything else.
const FIRST_SECOND = -62135596800;
const PAST_LAST_SECOND = 253402300800;

/** Zulip's datetime_to_global_time(timestamp_to_datetime(seconds)): UTC, to the second. */
function globalTimeOfSeconds(value: WildValue): string {
  const seconds = Math.floor(value.number());
  if (seconds < FIRST_SECOND || seconds >= PAST_LAST_SECOND) throw new BadRequestError(`${value.varName} is out of range`);
  return `<time:${new Date(seconds * 1000).toISOString().slice(0, 19)}+00:00>`;
}
