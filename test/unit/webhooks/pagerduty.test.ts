// PagerDuty's v1, v2 and v3 webhooks: the messages Zulip's zerver/webhooks/pagerduty/tests.py
// expects, and payloads Zulip refuses.
import { describe, it, expect } from 'vitest';
import { UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { pagerduty } from '../../../resolvers/webhooks/integrations/pagerduty.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(pagerduty, { body });
const refusal = (body: unknown) => refusalOf(() => translate(body));

const V1 = 'https://zulip-test.pagerduty.com';
const ARMOOO = { email: 'armooo@zulip.com', html_url: `${V1}/users/POBCFRJ`, id: 'POBCFRJ', name: 'Jason MIchalski' };

/** A v1 webhook message about incident `number`. */
function v1(type: string, number: number, id: string, incident: Record<string, unknown> = {}) {
  return {
    id: 'a710cfd0-af0d-11e4-8aca-f23c91739642',
    type,
    created_on: '2015-02-07T21:09:49Z',
    data: {
      incident: {
        id,
        incident_number: number,
        html_url: `${V1}/incidents/${id}`,
        status: 'triggered',
        service: { id: 'PIL5CUQ', name: 'Test service', html_url: `${V1}/services/PIL5CUQ`, deleted_at: null },
        assigned_to_user: ARMOOO,
        trigger_summary_data: { subject: 'foo' },
        ...incident,
      },
    },
  };
}

const WEBDEMO = 'https://webdemo.pagerduty.com';
const LAURA = { id: 'P553OPV', type: 'user_reference', summary: 'Laura Haley', html_url: `${WEBDEMO}/users/P553OPV` };

/** A v2 webhook message about incident 33. */
function v2(event: string, incident: Record<string, unknown> = {}) {
  return {
    id: '82a33960-a2cd-11e7-8f69-22000affca53',
    event,
    created_on: '2017-09-26T15:15:17Z',
    incident: {
      id: 'PRORDTY',
      incident_number: 33,
      title: 'My new incident',
      description: 'My new incident',
      status: 'triggered',
      html_url: `${WEBDEMO}/incidents/PRORDTY`,
      service: { id: 'PN49J75', name: 'Production XDB Cluster', type: 'service', html_url: `${WEBDEMO}/services/PN49J75` },
      assignments: [{ at: '2017-09-26T15:14:36Z', assignee: LAURA }],
      last_status_change_by: LAURA,
      ...incident,
    },
  };
}

const PIG = 'https://pig208.pagerduty.com';
const PIG_USER = { id: 'PJ0LVEB', type: 'user_reference', summary: 'PIG 208', html_url: `${PIG}/users/PJ0LVEB` };

/** A v3 webhook subscription's event. */
function v3(eventType: string, number: number, id: string, extra: { title?: string; assignees?: unknown[]; agent?: unknown } = {}) {
  return {
    event: {
      id: '01BZYK8N47N5JG55J1EEEHPEJI',
      event_type: eventType,
      resource_type: 'incident',
      occurred_at: '2021-06-04T13:55:30.394Z',
      agent: 'agent' in extra ? extra.agent : PIG_USER,
      data: {
        id,
        type: 'incident',
        html_url: `${PIG}/incidents/${id}`,
        number,
        status: 'triggered',
        title: extra.title ?? 'Test Incident',
        service: { id: 'PA2P440', type: 'service_reference', summary: 'pig208', html_url: `${PIG}/services/PA2P440` },
        assignees: extra.assignees ?? [PIG_USER],
        urgency: 'high',
      },
    },
  };
}

describe('pagerduty: registration', () => {
  it('is found by its URL name, with Zulip\'s event types', () => {
    expect(integrationNamed('pagerduty')).toBe(pagerduty);
    expect(pagerduty.displayName).toBe('PagerDuty');
    expect(pagerduty.eventTypes).toEqual(['resolved', 'assigned', 'unacknowledged', 'acknowledged', 'triggered', 'reassigned']);
    expect(pagerduty.configOptions).toBeUndefined();
  });
});

describe('pagerduty: triggered', () => {
  it('v1 (test_trigger)', () => {
    const outcome = translate({ messages: [v1('incident.trigger', 3, 'P140S4Y')] });
    expectMessage(outcome, 'Incident 3', `Incident [3](${V1}/incidents/P140S4Y) triggered by [Test service](${V1}/services/PIL5CUQ) (assigned to [armooo](${V1}/users/POBCFRJ)).\n\n\`\`\` quote\nfoo\n\`\`\``);
    expect(outcome.messages[0]!.eventType).toBe('triggered');
  });

  it('v2 (test_trigger_v2)', () => {
    expectMessage(translate({ messages: [v2('incident.trigger')] }), 'Incident 33',
      `Incident [33](${WEBDEMO}/incidents/PRORDTY) triggered by [Production XDB Cluster](${WEBDEMO}/services/PN49J75) (assigned to [Laura Haley](${WEBDEMO}/users/P553OPV)).\n\n\`\`\` quote\nMy new incident\n\`\`\``);
  });

  it('v2 without an assignee (test_trigger_without_assignee_v2)', () => {
    expectMessage(translate({ messages: [v2('incident.trigger', { assignments: [] })] }), 'Incident 33',
      `Incident [33](${WEBDEMO}/incidents/PRORDTY) triggered by [Production XDB Cluster](${WEBDEMO}/services/PN49J75) (assigned to nobody).\n\n\`\`\` quote\nMy new incident\n\`\`\``);
  });

  it('v2 without a description leaves the quote out', () => {
    expectMessage(translate({ messages: [v2('incident.trigger', { description: null })] }), 'Incident 33',
      `Incident [33](${WEBDEMO}/incidents/PRORDTY) triggered by [Production XDB Cluster](${WEBDEMO}/services/PN49J75) (assigned to [Laura Haley](${WEBDEMO}/users/P553OPV)).`);
  });

  it('v3 (test_triggerer_v3)', () => {
    const outcome = translate(v3('incident.triggered', 9, 'PFQZPSY', { title: 'Test Incident 3' }));
    expectMessage(outcome, 'Incident Test Incident 3 (#9)',
      `Incident [Test Incident 3 (#9)](${PIG}/incidents/PFQZPSY) triggered by [pig208](${PIG}/services/PA2P440) (assigned to [PIG 208](${PIG}/users/PJ0LVEB)).`);
    expect(outcome.messages[0]!.eventType).toBe('triggered');
  });

  it('v1 without an assignee, with subject and description', () => {
    const outcome = translate({ messages: [v1('incident.trigger', 4, 'P1', {
      assigned_to_user: null, trigger_summary_data: { subject: 'Disk full', description: 'on db-1' },
    })] });
    expectMessage(outcome, 'Incident 4', `Incident [4](${V1}/incidents/P1) triggered by [Test service](${V1}/services/PIL5CUQ) (assigned to nobody).\n\n\`\`\` quote\nDisk full\non db-1\n\`\`\``);
  });
});

describe('pagerduty: unacknowledged', () => {
  it('v1 (test_unacknowledge)', () => {
    expectMessage(translate({ messages: [v1('incident.unacknowledge', 3, 'P140S4Y')] }), 'Incident 3',
      `Incident [3](${V1}/incidents/P140S4Y) unacknowledged by [Test service](${V1}/services/PIL5CUQ) (assigned to [armooo](${V1}/users/POBCFRJ)).\n\n\`\`\` quote\nfoo\n\`\`\``);
  });

  it('v3 (test_unacknowledged_v3)', () => {
    expectMessage(translate(v3('incident.unacknowledged', 10, 'PQ1K5C8')), 'Incident Test Incident (#10)',
      `Incident [Test Incident (#10)](${PIG}/incidents/PQ1K5C8) unacknowledged by [pig208](${PIG}/services/PA2P440) (assigned to [PIG 208](${PIG}/users/PJ0LVEB)).`);
  });
});

describe('pagerduty: resolved', () => {
  it('v1 by a user (test_resolved)', () => {
    const outcome = translate({ messages: [v1('incident.resolve', 1, 'PO1XIJ5', {
      resolved_by_user: ARMOOO, trigger_summary_data: { subject: 'It is on fire' },
    })] });
    expectMessage(outcome, 'Incident 1', `Incident [1](${V1}/incidents/PO1XIJ5) resolved by [armooo](${V1}/users/POBCFRJ).\n\n\`\`\` quote\nIt is on fire\n\`\`\``);
    expect(outcome.messages[0]!.eventType).toBe('resolved');
  });

  it('v1 automatically (test_auto_resolved)', () => {
    expectMessage(translate({ messages: [v1('incident.resolve', 2, 'PX7K9J2', {
      resolved_by_user: null, assigned_to_user: null, trigger_summary_data: { subject: 'new' },
    })] }), 'Incident 2', `Incident [2](${V1}/incidents/PX7K9J2) resolved.\n\n\`\`\` quote\nnew\n\`\`\``);
  });

  it('v1 with a description and no subject (test_no_subject)', () => {
    const incident = {
      html_url: 'https://dropbox.pagerduty.com/incidents/PJKGZF9',
      trigger_summary_data: { description: 'mp_error_block_down_critical\u2119\u01b4' },
      assigned_to_user: null,
    };
    expectMessage(translate({ messages: [v1('incident.resolve', 48219, 'PJKGZF9', incident)] }), 'Incident 48219',
      'Incident [48219](https://dropbox.pagerduty.com/incidents/PJKGZF9) resolved.\n\n``` quote\nmp_error_block_down_critical\u2119\u01b4\n```');
  });

  it('v2 (test_resolved_v2)', () => {
    expectMessage(translate({ messages: [v2('incident.resolve')] }), 'Incident 33',
      `Incident [33](${WEBDEMO}/incidents/PRORDTY) resolved by [Laura Haley](${WEBDEMO}/users/P553OPV).\n\n\`\`\` quote\nMy new incident\n\`\`\``);
  });

  it('v3 (test_resolved_v3)', () => {
    expectMessage(translate(v3('incident.resolved', 6, 'PCPZE64')), 'Incident Test Incident (#6)',
      `Incident [Test Incident (#6)](${PIG}/incidents/PCPZE64) resolved by [PIG 208](${PIG}/users/PJ0LVEB).`);
  });

  it('v2 and v3 without an agent say who resolved it no more than v1 does', () => {
    expectMessage(translate({ messages: [v2('incident.resolve', { last_status_change_by: null })] }), 'Incident 33',
      `Incident [33](${WEBDEMO}/incidents/PRORDTY) resolved.\n\n\`\`\` quote\nMy new incident\n\`\`\``);
    expectMessage(translate(v3('incident.resolved', 6, 'PCPZE64', { agent: null })), 'Incident Test Incident (#6)',
      `Incident [Test Incident (#6)](${PIG}/incidents/PCPZE64) resolved.`);
  });
});

describe('pagerduty: acknowledged', () => {
  const onFire = { trigger_summary_data: { subject: 'It is on fire' } };

  it('v1, after the assignment the same request reports (test_acknowledge)', () => {
    const outcome = translate({ messages: [v1('incident.assign', 1, 'PO1XIJ5', onFire), v1('incident.acknowledge', 1, 'PO1XIJ5', onFire)] });
    expect(outcome.messages).toEqual([
      { topic: 'Incident 1', eventType: 'assigned', content: `Incident [1](${V1}/incidents/PO1XIJ5) assigned to [armooo](${V1}/users/POBCFRJ).\n\n\`\`\` quote\nIt is on fire\n\`\`\`` },
      { topic: 'Incident 1', eventType: 'acknowledged', content: `Incident [1](${V1}/incidents/PO1XIJ5) acknowledged by [armooo](${V1}/users/POBCFRJ).\n\n\`\`\` quote\nIt is on fire\n\`\`\`` },
    ]);
    expect(outcome.eventType).toBeUndefined();
  });

  it('v1 without trigger summary data (test_acknowledge_without_trigger_summary_data)', () => {
    const outcome = translate({ messages: [v1('incident.acknowledge', 1, 'PO1XIJ5', { trigger_summary_data: null })] });
    expectMessage(outcome, 'Incident 1', `Incident [1](${V1}/incidents/PO1XIJ5) acknowledged by [armooo](${V1}/users/POBCFRJ).\n\n\`\`\` quote\n\n\`\`\``);
  });

  it('v2 (test_acknowledge_v2)', () => {
    expectMessage(translate({ messages: [v2('incident.acknowledge')] }), 'Incident 33',
      `Incident [33](${WEBDEMO}/incidents/PRORDTY) acknowledged by [Laura Haley](${WEBDEMO}/users/P553OPV).\n\n\`\`\` quote\nMy new incident\n\`\`\``);
  });

  it('v3 (test_acknowledged_v3)', () => {
    const outcome = translate(v3('incident.acknowledged', 10, 'PQ1K5C8'));
    expectMessage(outcome, 'Incident Test Incident (#10)',
      `Incident [Test Incident (#10)](${PIG}/incidents/PQ1K5C8) acknowledged by [PIG 208](${PIG}/users/PJ0LVEB).`);
    expect(outcome.messages[0]!.eventType).toBe('acknowledged');
  });
});

describe('pagerduty: assigned', () => {
  it('v2 (test_incident_assigned_v2)', () => {
    const wiley = { id: 'PFBSJ2Z', type: 'user_reference', summary: 'Wiley Jacobson', html_url: `${WEBDEMO}/users/PFBSJ2Z` };
    const outcome = translate({ messages: [v2('incident.assign', { assignments: [{ at: '2017-09-26T15:16:03Z', assignee: wiley }] })] });
    expectMessage(outcome, 'Incident 33', `Incident [33](${WEBDEMO}/incidents/PRORDTY) assigned to [Wiley Jacobson](${WEBDEMO}/users/PFBSJ2Z).\n\n\`\`\` quote\nMy new incident\n\`\`\``);
    expect(outcome.messages[0]!.eventType).toBe('assigned');
  });

  it('v1 to an address with a quoted local part', () => {
    const user = { ...ARMOOO, email: '"on call"@zulip.com' };
    expectMessage(translate({ messages: [v1('incident.assign', 5, 'P5', { assigned_to_user: user })] }), 'Incident 5',
      `Incident [5](${V1}/incidents/P5) assigned to [on call](${V1}/users/POBCFRJ).\n\n\`\`\` quote\nfoo\n\`\`\``);
  });
});

describe('pagerduty: reassigned', () => {
  it('v3 (test_reassigned_v3)', () => {
    const testUser = { id: 'PI9DT01', type: 'user_reference', summary: 'Test User', html_url: `${PIG}/users/PI9DT01` };
    const outcome = translate(v3('incident.reassigned', 3, 'PIQUG8X', { assignees: [testUser] }));
    expectMessage(outcome, 'Incident Test Incident (#3)', `Incident [Test Incident (#3)](${PIG}/incidents/PIQUG8X) reassigned to [Test User](${PIG}/users/PI9DT01).`);
    expect(outcome.messages[0]!.eventType).toBe('reassigned');
  });
});

describe('pagerduty: escalated and delegated (v1)', () => {
  it('writes who the incident went to', () => {
    expectMessage(translate({ messages: [v1('incident.escalate', 3, 'P140S4Y')] }), 'Incident 3',
      `Incident [3](${V1}/incidents/P140S4Y) escalated by [armooo](${V1}/users/POBCFRJ).\n\n\`\`\` quote\nfoo\n\`\`\``);
    const delegated = translate({ messages: [v1('incident.delegate', 3, 'P140S4Y')] });
    expectMessage(delegated, 'Incident 3', `Incident [3](${V1}/incidents/P140S4Y) delineated by [armooo](${V1}/users/POBCFRJ).\n\n\`\`\` quote\nfoo\n\`\`\``);
    expect(delegated.messages[0]!.eventType).toBe('delineated');
  });
});

describe('pagerduty: unsupported events', () => {
  const unsupported = "The 'incident.unsupported' event isn't currently supported by the PagerDuty webhook; ignoring";

  it('refuses them in every version (test_unsupported_webhook_event)', () => {
    expectError(() => translate({ messages: [v1('incident.unsupported', 1, 'P1')] }), UnsupportedWebhookEventTypeError, unsupported);
    expectError(() => translate({ messages: [v2('incident.unsupported')] }), UnsupportedWebhookEventTypeError, unsupported);
    expectError(() => translate(v3('incident.unsupported', 1, 'P1')), UnsupportedWebhookEventTypeError, unsupported);
  });

  it('refuses v2 events Zulip names only for v1, and v3 events without a type', () => {
    expectError(() => translate({ messages: [v2('incident.unacknowledge')] }), UnsupportedWebhookEventTypeError,
      "The 'incident.unacknowledge' event isn't currently supported by the PagerDuty webhook; ignoring");
    expectError(() => translate({ event: { data: {} } }), UnsupportedWebhookEventTypeError,
      "The 'None' event isn't currently supported by the PagerDuty webhook; ignoring");
  });

  it('sends nothing for a payload that is neither', () => {
    expect(translate({ messages: [] }).messages).toEqual([]);
    expect(translate({}).messages).toEqual([]);
  });
});

describe('pagerduty: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expect(refusal('messages=1').message).toBe('Malformed JSON');
    expect(refusal([1]).message).toBe('payload is not a dict');
  });

  it('refuses messages that are not a list of objects', () => {
    expect(refusal({ messages: { 0: v1('incident.trigger', 1, 'P1') } }).message).toBe('payload["messages"] is not a list');
    expect(refusal({ messages: ['incident.trigger'] }).message).toBe('payload["messages"][0] is not a dict');
    expect(refusal({ messages: [{ type: 7 }] }).message).toBe('payload["messages"][0]["type"] is not a string');
  });

  it('refuses a v1 message missing its incident, or with fields of the wrong type', () => {
    expect(refusal({ messages: [{ type: 'incident.trigger', data: {} }] }).message).toBe('payload["messages"][0]["data"]["incident"] is missing');
    expect(refusal({ messages: [v1('incident.trigger', '3' as unknown as number, 'P1')] }).message)
      .toBe('payload["messages"][0]["data"]["incident"]["incident_number"] is not an integer');
    expect(refusal({ messages: [v1('incident.trigger', 3, 'P1', { trigger_summary_data: { subject: null } })] }).message)
      .toBe('payload["messages"][0]["data"]["incident"]["trigger_summary_data"]["subject"] is not a string');
    expect(refusal({ messages: [v1('incident.trigger', 3, 'P1', { assigned_to_user: { ...ARMOOO, email: 'nobody' } })] }).message)
      .toBe('payload["messages"][0]["data"]["incident"]["assigned_to_user"]["email"] is not an email address');
  });

  it('refuses a v2 message with malformed assignments or description', () => {
    expect(refusal({ messages: [v2('incident.trigger', { assignments: [{}] })] }).message)
      .toBe('payload["messages"][0]["incident"]["assignments"][0]["assignee"] is missing');
    expect(refusal({ messages: [v2('incident.trigger', { assignments: 'Laura' })] }).message)
      .toBe('payload["messages"][0]["incident"]["assignments"] is not a list');
    expect(refusal({ messages: [v2('incident.trigger', { description: 5 })] }).message)
      .toBe('payload["messages"][0]["incident"]["description"] is not a string');
  });

  it('refuses a v3 event with malformed data', () => {
    expect(refusal({ event: 'incident.triggered' }).message).toBe('payload["event"] is not a dict');
    expect(refusal({ event: { event_type: 'incident.triggered' } }).message).toBe('payload["event"]["data"] is missing');
    expect(refusal(v3('incident.triggered', 1, 'P1', { agent: 'PIG 208', assignees: [{ summary: 'PIG 208' }] })).message)
      .toBe('payload["event"]["data"]["assignees"][0]["html_url"] is missing');
    expect(refusal(v3('incident.resolved', 1, 'P1', { agent: 'PIG 208' })).message).toBe('payload["event"]["agent"] is not a dict');
  });
});
