// Raygun's error notifications and error activity, as Zulip's zerver/webhooks/raygun renders them.
// Everything goes to the topic "test" (Zulip's choice, kept so that existing topics continue).
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import { globalTime } from '../global-time.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonStr } from '../python.ts';

const NAME = 'Raygun';

export const raygun: Integration = {
  urlName: 'raygun',
  displayName: NAME,
  eventTypes: ['error_notification', 'error_activity'],
  translate(request) {
    const payload = request.payload();
    const event = payload.get('event').str();
    let content: string;
    if (event === 'error_notification') content = notificationContent(payload);
    else if (event === 'error_activity') content = activityContent(payload);
    else throw new UnsupportedWebhookEventTypeError(NAME, event);
    // Every line ends with a newline, which Zulip's sending strips.
    return { eventType: event, messages: [{ topic: 'test', content: content.trimEnd() }] };
  },
};

function notificationContent(payload: WildValue): string {
  const eventType = payload.get('eventType').str();
  if (eventType === 'NewErrorOccurred' || eventType === 'ErrorReoccurred') return occurrenceContent(payload, eventType);
  if (eventType.includes('FollowUp')) return followUpContent(payload, eventType);
  throw new UnsupportedWebhookEventTypeError(NAME, eventType);
}

function occurrenceContent(payload: WildValue, eventType: string): string {
  const error = payload.get('error');
  const link = `[Error](${error.get('url').str()})`;
  let content = eventType === 'NewErrorOccurred' ? `New ${link} occurred:\n` : `${link} reoccurred:\n`;
  content += messageLine(error) + timeLines(error) + statsLine(error);
  // Zulip reads these three unconditionally (its null checks never fire), so they must be there.
  const instance = error.get('instance');
  const tags = instance.get('tags').list().map((tag) => tag.str());
  const affectedUser = instance.get('affectedUser');
  const customData = instance.get('customData');
  content += `* **Tags**: ${tags.join(', ')}\n`;
  const uuid = Array.from(affectedUser.get('UUID').str());
  content += `* **Affected user**: ${uuid.slice(0, 6).join('')}...${uuid.slice(-5).join('')}\n`;
  const custom = customData.entries().sort(([a], [b]) => compareCodePoints(a, b));
  for (const [key, value] of custom) content += `* **${key}**: ${pythonStr(value.raw())}\n`;
  return content + applicationLine(payload);
}

function followUpContent(payload: WildValue, followUpType: string): string {
  const error = payload.get('error');
  const link = `[follow-up error](${error.get('url').str()})`;
  // "FiveMinuteFollowUp" is "Five minute": Zulip cuts the last 14 characters, with Python's slicing.
  const prefix = followUpType === 'HourlyFollowUp' ? 'Hourly' : `${Array.from(followUpType).slice(0, -14).join('')} minute`;
  return `${prefix} ${link}:\n${messageLine(error)}${timeLines(error)}${statsLine(error)}${applicationLine(payload)}`;
}

function activityContent(payload: WildValue): string {
  const eventType = payload.get('eventType').str();
  if (!['StatusChanged', 'AssignedToUser', 'CommentAdded'].includes(eventType)) {
    throw new UnsupportedWebhookEventTypeError(NAME, eventType);
  }
  const error = payload.get('error');
  const link = `[Error](${error.get('url').str()})`;
  const user = error.get('user').str();
  let content: string;
  if (eventType === 'StatusChanged') {
    content = `${link} status changed to **${error.get('status').str()}** by ${user}:\n`;
  } else if (eventType === 'CommentAdded') {
    content = `${user} commented on ${link}:\n\n\`\`\` quote\n${error.get('comment').str()}\n\`\`\`\n`;
  } else {
    content = `${user} assigned ${link} to ${error.get('assignedTo').str()}:\n`;
  }
  content += `* **Timestamp**: ${globalTime(error.get('activityDate'))}\n`;
  return content + applicationLine(payload);
}

/** The error's own message, when it has one. */
function messageLine(error: WildValue): string {
  const message = error.get('message').str();
  return message === '' ? '' : `* **Message**: ${message}\n`;
}

function timeLines(error: WildValue): string {
  const first = globalTime(error.get('firstOccurredOn'));
  const last = globalTime(error.get('lastOccurredOn'));
  return `* **First occurred**: ${first}\n* **Last occurred**: ${last}\n`;
}

function statsLine(error: WildValue): string {
  const users = error.get('usersAffected').int();
  const occurrences = error.get('totalOccurrences').int();
  return `* ${users} users affected with ${occurrences} total occurrences\n`;
}

function applicationLine(payload: WildValue): string {
  const application = payload.get('application');
  return `* **Application details**: [${application.get('name').str()}](${application.get('url').str()})\n`;
}

/** Python's ordering of strings: by code point, not by UTF-16 unit. */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
