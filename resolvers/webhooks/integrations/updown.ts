// Updown's checks going down and up, as Zulip's zerver/webhooks/updown renders them: a request
// carries a list of events, each a message in the topic named by the checked URL.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import { globalTime } from '../global-time.ts';
import type { Integration, WebhookMessage } from '../integration.ts';
import type { WildValue } from '../payload.ts';

const NAME = 'Updown';
const EVENT_TYPES = ['up', 'down'];

export const updown: Integration = {
  urlName: 'updown',
  displayName: NAME,
  eventTypes: EVENT_TYPES,
  translate(request) {
    const messages: WebhookMessage[] = request.payload().list().map((event) => {
      const eventType = eventTypeOf(event);
      const topic = event.get('check').get('url').str();
      const content = eventType === 'up' ? upContent(event.get('downtime')) : downContent(event.get('downtime'));
      return { topic, content, eventType };
    });
    return { messages };
  },
};

function eventTypeOf(event: WildValue): string {
  const name = event.get('event').str();
  // Zulip's re.match("check.(.*)"): any one character after "check", and Python's `.` stops only at "\n".
  const type = /^check[^\n]([^\n]*)/.exec(name)?.[1];
  if (type === undefined || !EVENT_TYPES.includes(type)) throw new UnsupportedWebhookEventTypeError(NAME, name);
  return type;
}

function upContent(downtime: WildValue): string {
  let content = 'Service is `up`';
  // A first check has no downtime to recover from.
  if (downtime.get('started_at').optStr()) {
    content += ' again';
    const duration = downtime.get('duration').optInt();
    const spelled = duration ? spellDuration(duration) : '';
    if (spelled) content += ` after ${spelled}`;
  }
  return `${content}.`;
}

/** `4 minutes 25 seconds`, with Python's floor division (so a negative duration wraps as Zulip's does). */
function spellDuration(duration: number): string {
  const floorDivMod = (a: number, b: number) => [Math.floor(a / b), a - Math.floor(a / b) * b] as const;
  const [days, dayRest] = floorDivMod(duration, 86400);
  const [hours, hourRest] = floorDivMod(dayRest, 3600);
  const [minutes, seconds] = floorDivMod(hourRest, 60);
  const parts: [number, string][] = [[days, 'day'], [hours, 'hour'], [minutes, 'minute'], [seconds, 'second']];
  return parts.filter(([value]) => value >= 1).map(([value, unit]) => `${value} ${unit}${value === 1 ? '' : 's'}`).join(' ');
}

function downContent(downtime: WildValue): string {
  const startedAt = globalTime(downtime.get('started_at'));
  const error = downtime.get('error').optStr() ?? 'None';
  return `Service is \`down\`. It returned a ${error} error at ${startedAt}.`;
}
