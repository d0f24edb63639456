// Statuspage's subscriber webhooks, as Zulip's zerver/webhooks/statuspage renders them: an incident
// update or a component's status change, told apart by which of the two the body carries.
import { AnomalousWebhookPayloadError, BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';

const NAME = 'Statuspage';

export const statuspage: Integration = {
  urlName: 'statuspage',
  displayName: NAME,
  eventTypes: ['incident', 'component'],
  translate(request) {
    const payload = request.payload();
    const pageStatus = () => payload.get('page').get('status_description').str();
    if (payload.has('incident')) {
      const incident = payload.get('incident');
      const name = incident.get('name').str();
      const topic = `${name}: ${pageStatus()}`;
      const updates = incident.get('incident_updates');
      const latest = updates.list()[0];
      if (latest === undefined) throw new BadRequestError(`${updates.varName}[0] is missing`);
      const content = `**${name}**:\n* State: **${incident.get('status').str()}**\n* Description: ${latest.get('body').str()}`;
      return { eventType: 'incident', messages: [{ topic, content }] };
    }
    if (payload.has('component')) {
      const name = payload.get('component').get('name').str();
      const topic = `${name}: ${pageStatus()}`;
      const update = payload.get('component_update');
      const content = `**${name}** has changed status from **${update.get('old_status').str()}** to **${update.get('new_status').str()}**.`;
      return { eventType: 'component', messages: [{ topic, content }] };
    }
    throw new AnomalousWebhookPayloadError(NAME);
  },
};
