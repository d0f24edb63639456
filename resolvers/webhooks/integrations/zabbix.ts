// Zabbix's webhook media type, as Zulip's zerver/webhooks/zabbix renders it. The user writes the
// JSON body in Zabbix from its macros (Zulip's documented template: hostname, severity, status,
// item, trigger, link), so a body missing one is the user's script or template to mend: the bot's
// owner is told so.
import { BadRequestError, MisconfiguredWebhookPayloadError } from '../../errors.ts';
import type { Integration } from '../integration.ts';

const ownerNotice = (botName: string, supportEmail: string) => `Hi there! Your bot ${botName} just received a Zabbix payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your Zabbix webhook settings. Please make sure that you set the
script correctly and provide all the required parameters
when configuring the Zabbix webhook. Contact ${supportEmail} if you
need further help!`;

export const zabbix: Integration = {
  urlName: 'zabbix',
  displayName: 'Zabbix',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    try {
      const field = (name: string) => payload.get(name).str();
      const hostname = field('hostname');
      const content = `${field('status')} (${field('severity')}) alert on [${hostname}](${field('link')}):\n`
        + `* ${field('trigger')}\n* ${field('item')}`;
      return { messages: [{ topic: hostname, content }] };
    } catch (error) {
      if (error instanceof BadRequestError) throw new MisconfiguredWebhookPayloadError(ownerNotice);
      throw error;
    }
  },
};
