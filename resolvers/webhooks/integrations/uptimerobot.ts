// UptimeRobot's webhook alert contacts, as Zulip's zerver/webhooks/uptimerobot renders them. The
// user writes the JSON body in UptimeRobot from its alert variables (Zulip's documented template:
// monitor_url, monitor_friendly_name, alert_type, alert_type_friendly_name, alert_details,
// alert_friendly_duration), so a body missing one is the user's template to mend: the bot's owner
// is told so.
import { BadRequestError, MisconfiguredWebhookPayloadError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration } from '../integration.ts';

const NAME = 'UptimeRobot';

const ownerNotice = (botName: string, supportEmail: string) => `Hi there! Your bot ${botName} just received a UptimeRobot payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your UptimeRobot webhook settings. Please make sure that you set the required parameters
when configuring the UptimeRobot webhook. Contact ${supportEmail} if you
need further help!`;

export const uptimerobot: Integration = {
  urlName: 'uptimerobot',
  displayName: NAME,
  eventTypes: ['up', 'down'],
  translate(request) {
    const payload = request.payload();
    // Read before the template's other variables: a wrong one here is an ordinary bad request.
    const alertType = payload.get('alert_type_friendly_name').str();
    if (alertType !== 'Up' && alertType !== 'Down') throw new UnsupportedWebhookEventTypeError(NAME, alertType);
    const { topic, content } = fromTemplate(() => {
      const monitor = `${payload.get('monitor_friendly_name').str()} (${payload.get('monitor_url').str()})`;
      const details = payload.get('alert_details').str();
      const content = alertType === 'Up'
        ? `${monitor} is back UP (${details}).\nIt was down for ${payload.get('alert_friendly_duration').str()}.`
        : `${monitor} is DOWN (${details}).`;
      return { topic: payload.get('monitor_friendly_name').str(), content };
    });
    return { eventType: alertType.toLowerCase(), messages: [{ topic, content }] };
  },
};

/** Reads the user's template, refusing a body that lacks a variable as Zulip does. */
function fromTemplate<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof BadRequestError) throw new MisconfiguredWebhookPayloadError(ownerNotice);
    throw error;
  }
}

