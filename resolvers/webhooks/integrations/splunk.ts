// Splunk's saved-search alert webhooks, as Zulip's zerver/webhooks/splunk renders them. Splunk's
// body varies with the search, so a field it leaves out is named as missing rather than refused.
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

const MAX_TOPIC_LENGTH = 60;

export const splunk: Integration = {
  urlName: 'splunk',
  displayName: 'Splunk',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    const search = orMissing(payload, 'search_name');
    const link = orMissing(payload, 'results_link');
    const result = payload.opt('result');
    const field = (key: string) => (payload.has('result') ? orMissing(result, key) : `Missing ${key}`);
    const host = field('host');
    const source = field('source');
    const raw = field('_raw');
    // Zulip cuts the search name itself, one character earlier than the send path would.
    const chars = Array.from(search);
    const topic = chars.length >= MAX_TOPIC_LENGTH ? `${chars.slice(0, MAX_TOPIC_LENGTH - 3).join('')}...` : search;
    const content = 'Splunk alert from saved search:\n'
      + `* **Search**: [${search}](${link})\n`
      + `* **Host**: ${host}\n`
      + `* **Source**: \`${source}\`\n`
      + `* **Raw**: \`${raw}\``;
    return { messages: [{ topic, content }] };
  },
};

/** The member `key`, or `Missing <key>` when absent; refused when `object` is not an object. */
function orMissing(object: WildValue, key: string): string {
  const value = object.opt(key);
  return object.has(key) ? value.str() : `Missing ${key}`;
}
