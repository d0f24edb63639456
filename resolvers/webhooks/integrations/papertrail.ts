// Papertrail's saved-search alerts, as Zulip's zerver/webhooks/papertrail renders them. Papertrail
// posts a form whose `payload` field holds the search and its matching log events as JSON.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import { globalTime } from '../global-time.ts';

/** How many events the message quotes; the rest are behind a link to the search. */
const SHOWN_EVENTS = 4;

export const papertrail: Integration = {
  urlName: 'papertrail',
  displayName: 'Papertrail',
  eventTypes: null,
  translate(request) {
    const payload = request.jsonParam('payload');
    if (!payload.has('events')) throw new BadRequestError('Events key is missing from payload');
    const search = payload.get('saved_search');
    const url = search.get('html_search_url').str();
    const events = payload.get('events').list();
    const parts = [`[Search for "${search.get('name').str()}"](${url}) found **${events.length}** matches:\n`];
    for (const event of events.slice(0, SHOWN_EVENTS)) {
      const time = globalTime(event.get('received_at'));
      const source = event.get('source_name').str();
      parts.push(`${time} - ${source} - ${search.get('query').str()}:\n\`\`\` quote\n${event.get('message').str()}\n\`\`\``);
    }
    // Zulip links to the search as soon as the last quoted event is reached, even with no more after it.
    if (events.length >= SHOWN_EVENTS) parts.push(`[See more](${url})`);
    return { messages: [{ topic: 'logs', content: parts.join('\n') }] };
  },
};
