// New Relic's workflow notifications (incidents), as Zulip's zerver/webhooks/newrelic renders them.
// The body is a template the user edits in New Relic; one missing the fields the message needs is
// answered with a message naming them rather than refused, so the user sees what to mend.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonStr } from '../python.ts';

const STATES = ['CREATED', 'ACTIVATED', 'CLOSED'];

const PRIORITY_SYMBOLS = new Map([
  ['CRITICAL', ':red_circle:'],
  ['HIGH', ':orange_circle:'],
  ['MEDIUM', ':yellow:'],
  ['LOW', ':blue_circle:'],
]);

const EXPECTED_FIELDS = [
  'issueUrl', 'title', 'priority', 'totalIncidents', 'state', 'createdAt', 'updatedAt', 'alertPolicyNames', 'alertConditionNames',
];

const DEFAULT_URL = 'https://one.newrelic.com/alerts-ai';

export const newrelic: Integration = {
  urlName: 'newrelic',
  displayName: 'NewRelic',
  eventTypes: STATES,
  translate(request) {
    const payload = request.payload();
    const raw = payload.raw();
    if (typeof raw !== 'object' || raw === null) throw new BadRequestError('payload is not a dict');
    const missing = EXPECTED_FIELDS.filter((field) => !payload.has(field));
    if (missing.length > 0) {
      const content = `:danger: A New Relic [incident](${DEFAULT_URL}) updated\n\n`
        + '**Warning**: Unable to use the default notification format because at least one expected field was missing from the incident payload. See [New Relic integration documentation](/integrations/newrelic).\n\n'
        + `**Missing fields**: ${missing.map((f) => `\`${f}\``).join(', ')}`;
      // Zulip sends it without an event type: no filter hides it.
      return { messages: [{ topic: 'New Relic incident alerts', content }] };
    }

    const priority = oneOf(payload.get('priority'), [...PRIORITY_SYMBOLS.keys()]);
    const conditions = codeList(payload.get('alertConditionNames'));
    const policies = codeList(payload.get('alertPolicyNames'));
    const owner = payload.opt('owner').optStr();
    const title = payload.get('title').str();
    const url = payload.get('issueUrl').str();
    const totalIncidents = payload.get('totalIncidents').int();
    const state = oneOf(payload.get('state'), STATES);
    const createdAt = globalTimeOfMillis(payload.get('createdAt'));
    const updatedAt = globalTimeOfMillis(payload.get('updatedAt'));
    // "N/A" is what New Relic fills in for an incident nobody acknowledged.
    const acknowledged = owner && owner !== 'N/A' ? `**Acknowledged by**: ${owner}` : '';

    const details = `- **Alert policies**: ${policies}\n`
      + `- **Conditions**: ${conditions}\n`
      + `- **Total incidents**: ${totalIncidents}\n`
      + `- **Incident created at**: ${createdAt}\n`
      + customFields(payload);
    const content = `${PRIORITY_SYMBOLS.get(priority)} **[${title}](${url})**\n\n`
      + `\`\`\`quote\n**Priority**: ${priority}\n**State**: ${state}\n**Updated at**: ${updatedAt}\n${acknowledged}\n\`\`\`\n\n`
      + `\`\`\`spoiler :file: Incident details\n\n${details}\n\`\`\``;
    return { eventType: state, messages: [{ topic: title, content }] };
  },
};

/** Zulip's check_string_in: anything else is `Invalid <path>`. */
function oneOf(value: WildValue, allowed: readonly string[]): string {
  const text = value.str();
  if (!allowed.includes(text)) throw new BadRequestError(`Invalid ${value.varName}`);
  return text;
}

function codeList(value: WildValue): string {
  return value.list().map((item) => `\`${item.str()}\``).join(', ');
}

/** New Relic's times are milliseconds since the epoch; Zulip shows them to the second. */
function globalTimeOfMillis(value: WildValue): string {
  const date = new Date(value.int());
  const year = date.getUTCFullYear();
  // Python's datetime stops at these years.
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) throw new BadRequestError(`${value.varName} is out of range`);
  return `<time:${date.toISOString().slice(0, 19)}+00:00>`;
}

/**
 * The `zulipCustomFields` the user's template adds, one line each: scalars and lists of scalars
 * as Python prints them, anything else flagged rather than refused.
 */
function customFields(payload: WildValue): string {
  if (!payload.has('zulipCustomFields')) return '';
  return payload.get('zulipCustomFields').entries().map(([key, value]) => {
    const v = value.raw();
    let detail: string;
    if (Array.isArray(v) && v.every(scalar)) detail = v.map(pythonStr).join(', ');
    else if (scalar(v)) detail = pythonStr(v);
    else detail = '*Value is not a supported data type*';
    return `- **${capitalize(key)}**: ${detail}\n`;
  }).join('');
}

/** What Zulip accepts as a field's value (a boolean passes as a Python int). */
function scalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Python's str.capitalize(). */
function capitalize(text: string): string {
  const [first = '', ...rest] = Array.from(text);
  return first.toUpperCase() + rest.join('').toLowerCase();
}
