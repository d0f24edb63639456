// Opsgenie's Webhook integration, as Zulip's zerver/webhooks/opsgenie renders it: one message per
// alert action, in a topic named after the Opsgenie integration that sent it, listing whichever of
// the alert's details the action carries.
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { rstrip } from './git.ts';

/** The alert's fields a message shows, in Zulip's order, with their labels. */
const DETAILS: readonly [field: string, label: string][] = [
  ['note', 'Note'],
  ['recipient', 'Recipient'],
  ['addedTags', 'Tags added'],
  ['team', 'Team added'],
  ['owner', 'Assigned owner'],
  ['removedTags', 'Tags removed'],
  ['message', 'Message'],
  ['tags', 'Tags'],
  ['escalationName', 'Escalation'],
];

export const opsgenie: Integration = {
  urlName: 'opsgenie',
  displayName: 'Opsgenie',
  eventTypes: [
    'AddTeam', 'UnAcknowledge', 'AddNote', 'TestAction', 'Close', 'Escalate', 'AddRecipient',
    'RemoveTags', 'Acknowledge', 'Delete', 'AddTags', 'TakeOwnership', 'Create', 'AssignOwnership',
  ],
  configOptions: [{ key: 'eu_region', label: "Use Opsgenie's European service region", validator: 'check_bool' }],
  translate(request) {
    const region = request.boolParam('eu_region', false) ? 'eu.' : '';
    const payload = request.payload();
    // Custom actions arrive under their own names: any action is an event type.
    const action = payload.get('action').str();
    const alert = payload.get('alert');
    const alertId = alert.get('alertId').str();
    const integration = payload.get('integrationName').str();
    const tags = alert.has('tags') ? alert.get('tags').list().map((tag) => `\`${tag.str()}\``).join(', ') : '';

    let details = '';
    for (const [field, label] of DETAILS) {
      const value = detail(field, payload, alert, tags);
      if (value !== null) details += `* **${label}**: ${value}\n`;
    }
    const content = `[Opsgenie alert for ${integration}](https://app.${region}opsgenie.com/alert/V2#/show/${alertId}):\n`
      + `* **Type**: ${action}\n${details}`;
    // Zulip's sending strips the trailing newline.
    return { eventType: action, messages: [{ topic: integration, content: rstrip(content) }] };
  },
};

/** A detail's value, or null when the action does not carry it. */
function detail(field: string, payload: WildValue, alert: WildValue, tags: string): string | null {
  if (field === 'tags') return tags || null;
  // The escalation is named beside the alert, not in it.
  if (field === 'escalationName' && payload.has(field)) return payload.get(field).str();
  return alert.has(field) ? alert.get(field).str() : null;
}
