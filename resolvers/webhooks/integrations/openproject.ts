// OpenProject's webhooks (Zulip's zerver/webhooks/openproject/view.py): `action` is `<item>:<verb>`
// and the item is the payload's member of that name. Zulip sends without an event type, so
// `only_events`/`exclude_events` never filter these messages.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';

const DISPLAY_NAME = 'OpenProject';

/** A string down a path of optional objects (Zulip's `.get(key, {})` chains): '' where one is absent. */
function optionalString(value: WildValue, ...path: string[]): string {
  for (const key of path) {
    const next = value.opt(key);
    if (next.value === undefined) return '';
    value = next;
  }
  return value.str();
}

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const UNITS = ['day', 'hour', 'minute', 'second'];

/** An ISO 8601 duration (`PT7H42M`) in words (`7 hours and 42 minutes`); null when it is not one. */
function durationInWords(iso: string): string | null {
  const match = DURATION.exec(iso);
  if (!match) return null;
  const parts = UNITS.flatMap((unit, i) => {
    const digits = match[i + 1];
    if (!digits) return [];
    // BigInt: Python's int() has no limit, and `007` is 7.
    const count = BigInt(digits);
    return [`${count} ${count === 1n ? unit : `${unit}s`}`];
  });
  // A bare `P` or `PT` names no time at all (Zulip fails on it): no duration to show either.
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export const openproject: Integration = {
  urlName: 'openproject',
  displayName: DISPLAY_NAME,
  eventTypes: ['project:created', 'project:updated', 'work_package:created', 'work_package:updated', 'time_entry:created', 'attachment:created'],
  translate(request: WebhookRequest): WebhookOutcome {
    const payload = request.payload();
    const eventType = payload.get('action').str();
    const parts = eventType.split(':');
    if (parts.length !== 2) throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, eventType);
    const [item, action] = parts as [string, string];
    // Read before the item is known, as Zulip does: an unknown item without its member is malformed.
    const data = payload.get(item);
    let topic: string;
    let content: string;
    if (item === 'project') {
      const parent = optionalString(data, '_embedded', 'parent', 'name');
      const name = data.get('name').str();
      const parentMessage = parent && action === 'created' ? ` as a sub-project of **${parent}**` : '';
      content = `Project **${name}** was ${action}${parentMessage}.`;
      topic = name;
    } else if (item === 'work_package') {
      const subject = data.get('subject').str();
      const embedded = data.get('_embedded');
      const type = embedded.get('type').get('name').str();
      const author = embedded.get('author').get('name').str();
      content = `**${subject}** (work package **${type}**) was ${action} by **${author}**.`;
      topic = embedded.get('project').get('name').str();
    } else if (item === 'attachment') {
      const fileName = data.get('fileName').str();
      const embedded = data.get('_embedded');
      const author = embedded.get('author').get('name').str();
      const container = embedded.get('container');
      content = `**${author}** uploaded **${fileName}** in **${container.get('subject').str()}**.`;
      topic = container.get('_links').get('project').get('title').str();
    } else if (item === 'time_entry') {
      const project = data.get('_embedded').get('project').get('name').str();
      const workPackage = optionalString(data, '_embedded', 'workPackage', 'subject');
      const duration = durationInWords(data.get('hours').str());
      const user = data.get('_embedded').get('user').get('name').str();
      content = `**${user}** logged ${duration ? `**${duration}**` : 'a time entry'} on **${workPackage || project}**.`;
      topic = project;
    } else {
      throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, eventType);
    }
    return { messages: [{ topic, content }] };
  },
};
