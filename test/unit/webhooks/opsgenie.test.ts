// Opsgenie's Webhook integration: the messages Zulip's zerver/webhooks/opsgenie/tests.py expects, its
// eu_region URL option, and payloads Zulip refuses.
import { describe, it, expect } from 'vitest';
import { InvalidArgumentError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { opsgenie } from '../../../resolvers/webhooks/integrations/opsgenie.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown, params?: Record<string, string>) => translateWith(opsgenie, { body, params });
const refusal = (body: unknown) => refusalOf(() => translate(body));

const ALERT_ID = '052652ac-5d1c-464a-812a-7dd18bbfba8c';
const HEADER = `[Opsgenie alert for Integration1](https://app.opsgenie.com/alert/V2#/show/${ALERT_ID}):`;

/** An action on the "test alert" of Integration1; `alert` adds to (or, with undefined, removes from) the alert. */
function action(name: string, alert: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const base: Record<string, unknown> = {
    updatedAt: 1420452224764002246,
    tags: ['tag1', 'tag2'],
    message: 'test alert',
    username: 'fili@ifountain.com',
    alertId: ALERT_ID,
    source: 'fili@ifountain.com',
    alias: 'aliastest',
    tinyId: '23',
    createdAt: 1420452191104,
    entity: '',
  };
  for (const [key, value] of Object.entries(alert)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return {
    source: { name: '', type: 'web' },
    alert: base,
    action: name,
    integrationId: '37c8f316-17c6-49d7-899b-9c7e540c048d',
    integrationName: 'Integration1',
    ...extra,
  };
}

describe('opsgenie: registration', () => {
  it('is found by its URL name, with Zulip\'s event types and its eu_region option', () => {
    expect(integrationNamed('opsgenie')).toBe(opsgenie);
    expect(opsgenie.displayName).toBe('Opsgenie');
    expect(opsgenie.eventTypes).toHaveLength(14);
    expect(opsgenie.eventTypes).toContain('TestAction');
    expect(opsgenie.configOptions).toEqual([{ key: 'eu_region', label: "Use Opsgenie's European service region", validator: 'check_bool' }]);
  });
});

describe('opsgenie: Acknowledge', () => {
  it('lists the message and tags (test_acknowledge_alert)', () => {
    const outcome = translate(action('Acknowledge'));
    expectMessage(outcome, 'Integration1', `${HEADER}\n* **Type**: Acknowledge\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'Acknowledge');
  });
});

describe('opsgenie: UnAcknowledge', () => {
  it('test_unacknowledge_alert', () => {
    expectMessage(translate(action('UnAcknowledge')), 'Integration1',
      `${HEADER}\n* **Type**: UnAcknowledge\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'UnAcknowledge');
  });
});

describe('opsgenie: AddNote', () => {
  it('test_addnote_alert', () => {
    expectMessage(translate(action('AddNote', { note: 'note to test alert' })), 'Integration1',
      `${HEADER}\n* **Type**: AddNote\n* **Note**: note to test alert\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'AddNote');
  });
});

describe('opsgenie: AddRecipient', () => {
  it('test_addrecipient_alert', () => {
    expectMessage(translate(action('AddRecipient', { recipient: 'team2_escalation' })), 'Integration1',
      `${HEADER}\n* **Type**: AddRecipient\n* **Recipient**: team2_escalation\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'AddRecipient');
  });
});

describe('opsgenie: AddTags', () => {
  it('test_addtags_alert', () => {
    expectMessage(translate(action('AddTags', { tags: ['tag1', 'tag2', 'tag3'], addedTags: 'tag1,tag2,tag3' })), 'Integration1',
      `${HEADER}\n* **Type**: AddTags\n* **Tags added**: tag1,tag2,tag3\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\`, \`tag3\``, 'AddTags');
  });
});

describe('opsgenie: RemoveTags', () => {
  it('test_removetags_alert', () => {
    expectMessage(translate(action('RemoveTags', { removedTags: 'tag3' })), 'Integration1',
      `${HEADER}\n* **Type**: RemoveTags\n* **Tags removed**: tag3\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'RemoveTags');
  });
});

describe('opsgenie: AddTeam', () => {
  it('test_addteam_alert', () => {
    expectMessage(translate(action('AddTeam', { team: 'team2' })), 'Integration1',
      `${HEADER}\n* **Type**: AddTeam\n* **Team added**: team2\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'AddTeam');
  });
});

describe('opsgenie: AssignOwnership', () => {
  it('test_assignownership_alert', () => {
    expectMessage(translate(action('AssignOwnership', { owner: 'user2@ifountain.com' })), 'Integration1',
      `${HEADER}\n* **Type**: AssignOwnership\n* **Assigned owner**: user2@ifountain.com\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'AssignOwnership');
  });
});

describe('opsgenie: TakeOwnership', () => {
  it('test_takeownership_alert', () => {
    const alertId = '8a745a79-3ed3-4044-8427-98e067c0623c';
    const outcome = translate(action('TakeOwnership', { alertId, message: 'message test' }, { integrationName: 'Webhook' }));
    expectMessage(outcome, 'Webhook',
      `[Opsgenie alert for Webhook](https://app.opsgenie.com/alert/V2#/show/${alertId}):\n* **Type**: TakeOwnership\n* **Message**: message test\n* **Tags**: \`tag1\`, \`tag2\``, 'TakeOwnership');
  });
});

describe('opsgenie: Close', () => {
  it('leaves out the tags an alert no longer has (test_close_alert)', () => {
    expectMessage(translate(action('Close', { tags: [] })), 'Integration1', `${HEADER}\n* **Type**: Close\n* **Message**: test alert`, 'Close');
  });
});

describe('opsgenie: Delete', () => {
  it('test_delete_alert', () => {
    expectMessage(translate(action('Delete', { tags: undefined })), 'Integration1', `${HEADER}\n* **Type**: Delete\n* **Message**: test alert`, 'Delete');
  });
});

describe('opsgenie: Create', () => {
  it('test_create_alert', () => {
    const alertId = 'ec03dad6-62c8-4c94-b38b-d88f398e900f';
    const outcome = translate(action('Create', { alertId, message: 'another alert', tags: ['vip'] }, { integrationName: 'Webhook' }));
    expectMessage(outcome, 'Webhook',
      `[Opsgenie alert for Webhook](https://app.opsgenie.com/alert/V2#/show/${alertId}):\n* **Type**: Create\n* **Message**: another alert\n* **Tags**: \`vip\``, 'Create');
  });
});

describe('opsgenie: Escalate', () => {
  it('names the escalation, beside the alert (test_escalate_alert)', () => {
    const alertId = '7ba97e3a-d328-4b5e-8f9a-39e945a3869a';
    const outcome = translate(
      action('Escalate', { alertId, message: undefined, tags: undefined }, { integrationName: 'Webhook_Test', escalationName: 'test_esc' }),
    );
    expectMessage(outcome, 'Webhook_Test',
      `[Opsgenie alert for Webhook_Test](https://app.opsgenie.com/alert/V2#/show/${alertId}):\n* **Type**: Escalate\n* **Escalation**: test_esc`, 'Escalate');
  });

  it('falls back to an escalation named in the alert', () => {
    const outcome = translate(action('Escalate', { message: undefined, tags: undefined, escalationName: 'night shift' }));
    expectMessage(outcome, 'Integration1', `${HEADER}\n* **Type**: Escalate\n* **Escalation**: night shift`);
  });
});

describe('opsgenie: custom actions', () => {
  it('names the action as its type (test_customaction_alert)', () => {
    expectMessage(translate(action('TestAction')), 'Integration1',
      `${HEADER}\n* **Type**: TestAction\n* **Message**: test alert\n* **Tags**: \`tag1\`, \`tag2\``, 'TestAction');
  });

  it('has no details to list for an alert without any', () => {
    expectMessage(translate(action('Ping', { message: undefined, tags: undefined })), 'Integration1', `${HEADER}\n* **Type**: Ping`, 'Ping');
  });
});

describe('opsgenie: eu_region', () => {
  it('links to the European service when the URL says so', () => {
    const outcome = translate(action('Acknowledge'), { eu_region: 'true' });
    expect(outcome.messages[0]!.content.split('\n')[0]).toBe(`[Opsgenie alert for Integration1](https://app.eu.opsgenie.com/alert/V2#/show/${ALERT_ID}):`);
    expect(translate(action('Acknowledge'), { eu_region: 'false' }).messages[0]!.content.split('\n')[0]).toBe(HEADER);
  });

  it('refuses a value that is not a JSON boolean', () => {
    expectError(() => translate(action('Acknowledge'), { eu_region: 'yes' }), InvalidArgumentError, 'eu_region is not valid JSON');
    expectError(() => translate(action('Acknowledge'), { eu_region: '1' }), InvalidArgumentError, 'eu_region is not a boolean');
  });
});

describe('opsgenie: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expect(refusal('action=Create').message).toBe('Malformed JSON');
    expect(refusal(['Create']).message).toBe('payload is not a dict');
  });

  it('refuses a payload missing what every message shows', () => {
    const { action: _action, ...noAction } = action('Create');
    expect(refusal(noAction).message).toBe('payload["action"] is missing');
    expect(refusal(action('Create', { alertId: undefined })).message).toBe('payload["alert"]["alertId"] is missing');
    const { integrationName: _name, ...noName } = action('Create');
    expect(refusal(noName).message).toBe('payload["integrationName"] is missing');
    expect(refusal({ ...action('Create'), alert: 'test alert' }).message).toBe('payload["alert"] is not a dict');
  });

  it('refuses details of the wrong type', () => {
    expect(refusal(action('Create', { tags: 'tag1' })).message).toBe('payload["alert"]["tags"] is not a list');
    expect(refusal(action('Create', { tags: null })).message).toBe('payload["alert"]["tags"] is not a list');
    expect(refusal(action('Create', { tags: ['tag1', 2] })).message).toBe('payload["alert"]["tags"][1] is not a string');
    expect(refusal(action('AddNote', { note: { text: 'x' } })).message).toBe('payload["alert"]["note"] is not a string');
    expect(refusal(action('Escalate', {}, { escalationName: 7 })).message).toBe('payload["escalationName"] is not a string');
    expect(refusal(action(3 as unknown as string)).message).toBe('payload["action"] is not a string');
  });
});
