// Pingdom's uptime check alerts, as Zulip's zerver/webhooks/pingdom renders them. The check's type
// (HTTP, SMTP...) is the event type.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration } from '../integration.ts';

const NAME = 'Pingdom';

const CHECK_TYPES = ['HTTP', 'HTTP_CUSTOM', 'HTTPS', 'SMTP', 'POP3', 'IMAP', 'PING', 'DNS', 'UDP', 'PORT_TCP'];

export const pingdom: Integration = {
  urlName: 'pingdom',
  displayName: NAME,
  eventTypes: CHECK_TYPES,
  translate(request) {
    const payload = request.payload();
    const checkType = payload.get('check_type').str();
    if (!CHECK_TYPES.includes(checkType)) throw new UnsupportedWebhookEventTypeError(NAME, checkType);
    const topic = `${payload.get('check_name').str()} status.`;
    const current = payload.get('current_state').str();
    const previous = payload.get('previous_state').str();
    const change = `Service ${payload.get('check_params').get('hostname').str()} changed its ${checkType} status from ${previous} to ${current}`;
    // Only an outage says why.
    const content = previous === 'UP' && current === 'DOWN'
      ? `${change}:\n\n\`\`\` quote\n${payload.get('long_description').str()}\n\`\`\``
      : `${change}.`;
    return { eventType: checkType, messages: [{ topic, content }] };
  },
};
