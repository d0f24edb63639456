// Insping's uptime state changes, as Zulip's zerver/webhooks/insping renders them, all in one topic.
import { globalTime } from '../global-time.ts';
import type { Integration } from '../integration.ts';

export const insping: Integration = {
  urlName: 'insping',
  displayName: 'Insping',
  eventTypes: null,
  translate(request) {
    const data = request.payload().get('webhook_event_data');
    const state = data.get('check_state_name').str();
    const url = data.get('request_url').str();
    const responseTime = data.get('response_time').int();
    const timestamp = globalTime(data.get('request_start_time'));
    const content = `State changed to **${state}**:\n* **URL**: ${url}\n* **Response time**: ${responseTime} ms\n* **Timestamp**: ${timestamp}`;
    return { messages: [{ topic: 'insping', content }] };
  },
};
