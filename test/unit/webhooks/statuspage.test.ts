// Statuspage's subscriber webhooks: the messages Zulip's zerver/webhooks/statuspage/tests.py
// expects, and bodies it refuses.
import { describe, it, expect } from 'vitest';
import { AnomalousWebhookPayloadError, InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { statuspage } from '../../../resolvers/webhooks/integrations/statuspage.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(statuspage, { body });

function incident(status: string, update: string, extra: Record<string, unknown> = {}) {
  return {
    meta: { unsubscribe: 'http://mycompany24.statuspage.io/?unsubscribe=zjcdb6727vmj', generated_at: '2017-12-26T07:32:00.770Z' },
    page: { id: 'jb7j80lkgqvb', status_indicator: 'critical', status_description: 'All Systems Operational' },
    incident: {
      name: 'Database query delays',
      status,
      impact: 'none',
      shortlink: 'http://stspg.io/646947c1e',
      incident_updates: [{ status, body: update, created_at: '2017-12-26T07:32:00.548Z' }, { status: 'investigating', body: 'Older update' }],
      ...extra,
    },
  };
}

function component(extra: Record<string, unknown> = {}) {
  return {
    page: { id: 'jb7j80lkgqvb', status_indicator: 'maintenance', status_description: 'Service Under Maintenance' },
    component: { status: 'under_maintenance', name: 'Database component', id: 'sqm6pl84wzjc' },
    component_update: { old_status: 'operational', new_status: 'under_maintenance', component_id: 'sqm6pl84wzjc' },
    ...extra,
  };
}

describe('statuspage: registration', () => {
  it("is found by its URL name, with Zulip's event types", () => {
    expect(integrationNamed('statuspage')).toBe(statuspage);
    expect(statuspage.displayName).toBe('Statuspage');
    expect(statuspage.eventTypes).toEqual(['incident', 'component']);
  });
});

describe('statuspage: incident', () => {
  it('test_statuspage_incident', () => {
    const update = "We just encountered that database queries are timing out resulting in inconvenience to our end users...we'll do quick fix latest by tomorrow !!!";
    expectMessage(translate(incident('identified', update)), 'Database query delays: All Systems Operational',
      `**Database query delays**:\n* State: **identified**\n* Description: ${update}`, 'incident');
  });

  it('test_statuspage_incident_update', () => {
    expectMessage(translate(incident('resolved', 'The database issue is resolved.')), 'Database query delays: All Systems Operational',
      '**Database query delays**:\n* State: **resolved**\n* Description: The database issue is resolved.', 'incident');
  });
});

describe('statuspage: component', () => {
  it('test_statuspage_component', () => {
    expectMessage(translate(component()), 'Database component: Service Under Maintenance',
      '**Database component** has changed status from **operational** to **under_maintenance**.', 'component');
  });
});

describe('statuspage: anomalous payloads', () => {
  it('test_statuspage_anomalous_payload', () => {
    expectError(() => translate({}), AnomalousWebhookPayloadError, 'Unable to parse request: Did Statuspage generate this event?');
    expectError(() => translate(['incident']), AnomalousWebhookPayloadError, 'Unable to parse request: Did Statuspage generate this event?');
  });
});

describe('statuspage: malformed payloads', () => {
  it('refuses a body that is not JSON', () => {
    expectError(() => translate('{"incident":'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses an incident without updates', () => {
    expect(refusalOf(() => translate(incident('resolved', 'x', { incident_updates: [] }))).message)
      .toBe('payload["incident"]["incident_updates"][0] is missing');
    expect(refusalOf(() => translate(incident('resolved', 'x', { incident_updates: {} }))).message)
      .toBe('payload["incident"]["incident_updates"] is not a list');
  });

  it('refuses missing fields and fields of the wrong type', () => {
    expect(refusalOf(() => translate({ ...incident('resolved', 'x'), page: {} })).message).toBe('payload["page"]["status_description"] is missing');
    expect(refusalOf(() => translate(incident('resolved', 'x', { name: 42 }))).message).toBe('payload["incident"]["name"] is not a string');
    expect(refusalOf(() => translate({ incident: null })).message).toBe('payload["incident"] is not a dict');
    expect(refusalOf(() => translate(component({ component_update: { old_status: 'operational' } }))).message)
      .toBe('payload["component_update"]["new_status"] is missing');
  });
});
