// New Relic's workflow notifications, with the default payload template and the one Zulip's
// documentation gives: the messages Zulip's zerver/webhooks/newrelic/tests.py expects.
import { describe, it, expect } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { newrelic } from '../../../resolvers/webhooks/integrations/newrelic.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(newrelic, { body });

const STORAGE_TITLE = "PIETER-UBUNTU query result is > 1.0 for 5 minutes on 'Storage on Host Exceeded Threshold'";
const STORAGE_URL = 'https://radar-api.service.newrelic.com/accounts/4420147/issues/13bbcdca-f0b6-470d-b0be-b34583c58869?notifier=WEBHOOK';
const CPU_URL = 'https://radar-api.service.newrelic.com/accounts/1/issues/0ea2df1c-adab-45d2-aae0-042b609d2322?notifier=SLACK';

/** An incident as the documented template writes it. */
function incident(extra: Record<string, unknown> = {}) {
  return {
    id: '13bbcdca-f0b6-470d-b0be-b34583c58869',
    issueUrl: STORAGE_URL,
    title: STORAGE_TITLE,
    priority: 'HIGH',
    totalIncidents: 1,
    state: 'ACTIVATED',
    createdAt: 1713769949493,
    updatedAt: 1713769949494,
    alertPolicyNames: ['Golden Signals'],
    alertConditionNames: ['Storage on Host Exceeded Threshold'],
    owner: 'N/A',
    zulipCustomFields: {},
    ...extra,
  };
}

function storageMessage({ state = 'ACTIVATED', updated = '2024-04-22T07:12:29+00:00', owner = '', custom = '' } = {}) {
  return `:orange_circle: **[${STORAGE_TITLE}](${STORAGE_URL})**

\`\`\`quote
**Priority**: HIGH
**State**: ${state}
**Updated at**: <time:${updated}>
${owner}
\`\`\`

\`\`\`spoiler :file: Incident details

- **Alert policies**: \`Golden Signals\`
- **Conditions**: \`Storage on Host Exceeded Threshold\`
- **Total incidents**: 1
- **Incident created at**: <time:2024-04-22T07:12:29+00:00>
${custom}
\`\`\``;
}

const STORAGE_TOPIC = "PIETER-UBUNTU query result is > 1.0 for 5 minutes on 'Sto...";

describe('newrelic: registration', () => {
  it("is found by its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('newrelic')).toBe(newrelic);
    expect(newrelic.displayName).toBe('NewRelic');
    expect(newrelic.eventTypes).toEqual(['CREATED', 'ACTIVATED', 'CLOSED']);
  });
});

describe('newrelic: CREATED', () => {
  const created = {
    issueUrl: CPU_URL,
    priority: 'CRITICAL',
    state: 'CREATED',
    createdAt: 1713767789495,
    updatedAt: 1713767789495,
    alertConditionNames: ['High CPU'],
  };
  const expected = (title: string, owner: string) => `:red_circle: **[${title}](${CPU_URL})**

\`\`\`quote
**Priority**: CRITICAL
**State**: CREATED
**Updated at**: <time:2024-04-22T06:36:29+00:00>
${owner}
\`\`\`

\`\`\`spoiler :file: Incident details

- **Alert policies**: \`Golden Signals\`
- **Conditions**: \`High CPU\`
- **Total incidents**: 1
- **Incident created at**: <time:2024-04-22T06:36:29+00:00>

\`\`\``;

  it('test_incident_created_default_payload', () => {
    const title = "MAIN-APP-UBUNTU query result is > 2.0 for 1 minutes on 'High CPU'";
    const { owner: _o, zulipCustomFields: _z, ...body } = incident({ ...created, title, impactedEntities: ['MAIN-APP-UBUNTU'], trigger: 'INCIDENT_ADDED' });
    expectMessage(translate(body), "MAIN-APP-UBUNTU query result is > 2.0 for 1 minutes on 'H...", expected(title, ''), 'CREATED');
  });

  it('test_incident_created_provided_base_payload', () => {
    const title = "PIETER-UBUNTU query result is > 2.0 for 1 minutes on 'High CPU'";
    expectMessage(translate(incident({ ...created, title, owner: 'John Doe' })),
      "PIETER-UBUNTU query result is > 2.0 for 1 minutes on 'Hig...", expected(title, '**Acknowledged by**: John Doe'), 'CREATED');
  });
});

describe('newrelic: ACTIVATED', () => {
  it('test_incident_activated_new_default_payload', () => {
    const title = "zulip_app query result is > 1.0 for 1 minutes on 'Zulip Server Low Storage'";
    const url = 'https://radar-api.service.newrelic.com/accounts/4420147/issues/c5faa7e6-7b54-402d-af79-f99601e0278c?notifier=WEBHOOK';
    const { owner: _o, zulipCustomFields: _z, ...body } = incident({
      title, issueUrl: url, priority: 'CRITICAL', createdAt: 1713755131352, updatedAt: 1713769708699,
      alertConditionNames: ['Zulip Server Low Storage'], isCorrelated: false,
    });
    expectMessage(translate(body), "zulip_app query result is > 1.0 for 1 minutes on 'Zulip S...", `:red_circle: **[${title}](${url})**

\`\`\`quote
**Priority**: CRITICAL
**State**: ACTIVATED
**Updated at**: <time:2024-04-22T07:08:28+00:00>

\`\`\`

\`\`\`spoiler :file: Incident details

- **Alert policies**: \`Golden Signals\`
- **Conditions**: \`Zulip Server Low Storage\`
- **Total incidents**: 1
- **Incident created at**: <time:2024-04-22T03:05:31+00:00>

\`\`\``, 'ACTIVATED');
  });

  it('test_incident_activated_new_provided_base_payload', () => {
    const body = incident({ zulipCustomFields: { 'Your custom payload': 'somedata123' } });
    expectMessage(translate(body), STORAGE_TOPIC, storageMessage({ custom: '- **Your custom payload**: somedata123\n' }), 'ACTIVATED');
  });

  it('test_incident_acknowledged_default_payload', () => {
    const { owner: _o, zulipCustomFields: _z, ...body } = incident({ updatedAt: 1713770077412 });
    expectMessage(translate(body), STORAGE_TOPIC, storageMessage({ updated: '2024-04-22T07:14:37+00:00' }), 'ACTIVATED');
  });

  it('test_incident_acknowledged_provided_base_payload', () => {
    const body = incident({ updatedAt: 1713770077412, owner: 'Pieter Cardillo Kwok' });
    expectMessage(translate(body), STORAGE_TOPIC,
      storageMessage({ updated: '2024-04-22T07:14:37+00:00', owner: '**Acknowledged by**: Pieter Cardillo Kwok' }), 'ACTIVATED');
  });

  it('test_incident_default_base_with_zulip_custom_fields', () => {
    const body = incident({
      updatedAt: 1713769949493,
      zulipCustomFields: {
        'Your custom payload': 'somedata123',
        'custom status 1': true,
        'Custom list 1': ['SSD', 2000, false, null, 13.33],
        'Custom field 1': null,
        'custom Field 2': 9000,
      },
    });
    expectMessage(translate(body), STORAGE_TOPIC, storageMessage({
      custom: '- **Your custom payload**: somedata123\n- **Custom status 1**: True\n- **Custom list 1**: SSD, 2000, False, None, 13.33\n'
        + '- **Custom field 1**: None\n- **Custom field 2**: 9000\n',
    }), 'ACTIVATED');
  });

  it('test_incident_with_invalid_zulip_custom_fields', () => {
    const body = incident({
      zulipCustomFields: { 'Invalid fields 1': { nested: 'dict' }, 'Invalid field 2': ['ok', ['nested']], 'is valid': true },
    });
    expectMessage(translate(body), STORAGE_TOPIC, storageMessage({
      custom: '- **Invalid fields 1**: *Value is not a supported data type*\n- **Invalid field 2**: *Value is not a supported data type*\n- **Is valid**: True\n',
    }), 'ACTIVATED');
  });
});

describe('newrelic: CLOSED', () => {
  it('test_incident_closed_default_payload', () => {
    const title = "main_app-UBUNTU query result is > 2.0 for 1 minutes on 'High CPU'";
    const { owner: _o, zulipCustomFields: _z, ...body } = incident({
      title, issueUrl: CPU_URL, priority: 'CRITICAL', state: 'CLOSED', createdAt: 1713766590228, updatedAt: 1713766657383,
      alertConditionNames: ['High CPU'],
    });
    expectMessage(translate(body), "main_app-UBUNTU query result is > 2.0 for 1 minutes on 'H...", `:red_circle: **[${title}](${CPU_URL})**

\`\`\`quote
**Priority**: CRITICAL
**State**: CLOSED
**Updated at**: <time:2024-04-22T06:17:37+00:00>

\`\`\`

\`\`\`spoiler :file: Incident details

- **Alert policies**: \`Golden Signals\`
- **Conditions**: \`High CPU\`
- **Total incidents**: 1
- **Incident created at**: <time:2024-04-22T06:16:30+00:00>

\`\`\``, 'CLOSED');
  });

  it('test_incident_closed_provided_base_payload', () => {
    const body = incident({ state: 'CLOSED', updatedAt: 1713770135419, owner: 'Pieter Cardillo Kwok', zulipCustomFields: { 'Your custom payload': 'somedata123' } });
    expectMessage(translate(body), STORAGE_TOPIC, storageMessage({
      state: 'CLOSED', updated: '2024-04-22T07:15:35+00:00', owner: '**Acknowledged by**: Pieter Cardillo Kwok', custom: '- **Your custom payload**: somedata123\n',
    }), 'CLOSED');
  });
});

describe('newrelic: templates missing fields', () => {
  it('test_missing_essential_fields_default_payload: names them, with no event type', () => {
    const outcome = translate({ id: '13bbcdca', impactedEntities: ['PIETER-UBUNTU'], trigger: 'USER_ACTION' });
    expectMessage(outcome, 'New Relic incident alerts', `:danger: A New Relic [incident](https://one.newrelic.com/alerts-ai) updated

**Warning**: Unable to use the default notification format because at least one expected field was missing from the incident payload. See [New Relic integration documentation](/integrations/newrelic).

**Missing fields**: \`issueUrl\`, \`title\`, \`priority\`, \`totalIncidents\`, \`state\`, \`createdAt\`, \`updatedAt\`, \`alertPolicyNames\`, \`alertConditionNames\``);
    expect(outcome.eventType).toBeUndefined();
  });

  it('names only the fields missing', () => {
    const { title: _t, updatedAt: _u, ...body } = incident();
    expect(translate(body).messages[0]!.content).toContain('**Missing fields**: `title`, `updatedAt`');
  });
});

describe('newrelic: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expectError(() => translate('{'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate('"text"')).message).toBe('payload is not a dict');
  });

  it("refuses priorities and states New Relic doesn't send", () => {
    expect(refusalOf(() => translate(incident({ priority: 'URGENT' }))).message).toBe('Invalid payload["priority"]');
    expect(refusalOf(() => translate(incident({ state: 'constructor' }))).message).toBe('Invalid payload["state"]');
  });

  it('refuses fields of the wrong type', () => {
    expect(refusalOf(() => translate(incident({ title: 5 }))).message).toBe('payload["title"] is not a string');
    expect(refusalOf(() => translate(incident({ totalIncidents: '1' }))).message).toBe('payload["totalIncidents"] is not an integer');
    expect(refusalOf(() => translate(incident({ createdAt: 1.5 }))).message).toBe('payload["createdAt"] is not an integer');
    expect(refusalOf(() => translate(incident({ alertPolicyNames: 'Golden Signals' }))).message).toBe('payload["alertPolicyNames"] is not a list');
    expect(refusalOf(() => translate(incident({ alertConditionNames: [1] }))).message).toBe('payload["alertConditionNames"][0] is not a string');
    expect(refusalOf(() => translate(incident({ owner: ['x'] }))).message).toBe('payload["owner"] is not a string');
    expect(refusalOf(() => translate(incident({ zulipCustomFields: null }))).message).toBe('payload["zulipCustomFields"] is not a dict');
    expect(refusalOf(() => translate(incident({ zulipCustomFields: [] }))).message).toBe('payload["zulipCustomFields"] is not a dict');
  });

  it('refuses times beyond what Python can show', () => {
    expect(refusalOf(() => translate(incident({ updatedAt: 1e17 }))).message).toBe('payload["updatedAt"] is out of range');
  });
});
