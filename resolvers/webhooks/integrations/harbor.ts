// Harbor's project webhooks (Zulip's zerver/webhooks/harbor): the payload's `type` names the event,
// and an image's events go to a topic named after its repository.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookUser } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonRepr } from '../python.ts';
import { rstrip } from './git.ts';
import { guessUser } from './jira.ts';
import { first } from './servarr.ts';

const NAME = 'Harbor';

/** What Harbor can send that Zulip accepts without a word. */
const IGNORED_EVENTS = new Set(['DOWNLOAD_CHART', 'DELETE_CHART', 'UPLOAD_CHART', 'PULL_ARTIFACT', 'DELETE_ARTIFACT', 'SCANNING_FAILED']);

const VULNERABILITY_REPORT = 'application/vnd.security.vulnerability.report; version=1.1';

type Handler = (payload: WildValue, operator: string) => string;

const HANDLERS = new Map<string, Handler>([
  ['PUSH_ARTIFACT', (payload, operator) => `${operator} pushed image \`${imageId(payload)}\``],
  ['SCANNING_COMPLETED', scanCompleted],
]);

/** `<repository>:<tag>`, or `<repository>@<digest>` for an untagged image. */
function imageId(payload: WildValue): string {
  const name = payload.get('event_data').get('repository').get('repo_full_name').str();
  const resource = first(payload.get('event_data').get('resources'));
  return resource.has('tag') ? `${name}:${resource.get('tag').str()}` : `${name}@${resource.get('digest').str()}`;
}

function scanCompleted(payload: WildValue): string {
  const overview = first(payload.get('event_data').get('resources')).get('scan_overview');
  if (!overview.has(VULNERABILITY_REPORT)) {
    // Zulip names the report formats it was given where the event's name goes.
    throw new UnsupportedWebhookEventTypeError(NAME, pythonRepr(overview.entries().map(([key]) => key)));
  }
  const summary = overview.get(VULNERABILITY_REPORT).get('summary').get('summary');
  const counts = summary.truthy() ? summary.entries().map(([severity, count]) => `* ${severity}: **${count.int()}**\n`) : ['None\n'];
  // Sending strips the message's last newline.
  return rstrip(`Image scan completed for \`${imageId(payload)}\`. Vulnerabilities by severity:\n\n${counts.join('')}`);
}

/**
 * Who did it: the realm's user Zulip guesses from Harbor's name, mentioned, else Harbor's name in
 * bold. Zulip guesses from the name already in bold (`**admin**`), so only a user whose full name
 * or email is written that way is found; we keep its behaviour.
 */
function operatorOf(payload: WildValue, users: readonly WebhookUser[]): string {
  const bold = `**${payload.get('operator').str()}**`;
  const user = guessUser(users, bold);
  return user === null ? bold : `@**${user.fullName}**`;
}

export const harbor: Integration = {
  urlName: 'harbor',
  displayName: NAME,
  eventTypes: [...HANDLERS.keys()],
  readsUsers: true,
  unquoteUrlParameters: true,
  translate(request, users = []) {
    const payload = request.payload();
    const operator = operatorOf(payload, users);
    const event = payload.get('type').str();
    const topic = payload.get('event_data').get('repository').get('repo_full_name').str();
    if (IGNORED_EVENTS.has(event)) return { messages: [] };
    const handler = HANDLERS.get(event);
    if (!handler) throw new UnsupportedWebhookEventTypeError(NAME, event);
    return { eventType: event, messages: [{ topic, content: handler(payload, operator) }] };
  },
};
