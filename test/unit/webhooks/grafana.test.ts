// Grafana's webhook contact point, legacy and unified alerting: the messages Zulip's
// zerver/webhooks/grafana/tests.py expects, and payloads Zulip refuses.
import { describe, it, expect } from 'vitest';
import { ParleyError } from '../../../resolvers/errors.ts';
import { grafana } from '../../../resolvers/webhooks/integrations/grafana.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { refusalOf } from '../../support/webhooks.ts';

function translate(body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return grafana.translate(new IncomingWebhookRequest({ body: text }));
}

function refusal(body: unknown): ParleyError {
  return refusalOf(() => translate(body));
}

const IMAGE = 'https://grafana.com/assets/img/blog/mixed_styles.png';

/** A Grafana 7 notification of the test rule (Grafana's "Send Test"). */
function legacy(state: string, extra: Record<string, unknown> = {}) {
  const title = `[${state.charAt(0).toUpperCase()}${state.slice(1)}] Test notification`;
  return {
    dashboardId: 1,
    panelId: 1,
    ruleId: 0,
    ruleName: 'Test rule',
    ruleUrl: 'http://localhost:3000/',
    state,
    title,
    message: 'Someone is testing the alert notification within grafana.',
    imageUrl: IMAGE,
    evalMatches: [
      { metric: 'High value', value: 100, tags: null },
      { metric: 'Higher Value', value: 200, tags: null },
    ],
    tags: {},
    ...extra,
  };
}

const PLAY = 'https://play.grafana.org';
const MEMORY_SILENCE = `${PLAY}/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DMemory+%28copy%29&matcher=debug%3Dtrue&matcher=grafana_folder%3Ddevice&orgId=1`;

/** A Grafana 11 alert of the "Memory (copy)" rule, with its evaluated values. */
function memoryAlert(extra: Record<string, unknown> = {}) {
  return {
    status: 'firing',
    labels: { alertname: 'Memory (copy)', debug: 'true', grafana_folder: 'device' },
    annotations: { summary: 'High memory usage' },
    startsAt: '2024-03-01T02:09:00Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: `${PLAY}/alerting/grafana/dd2f0260-3cfc-4c65-a4c4-f3f632c551f4/view?orgId=1`,
    fingerprint: 'e6349a25f5ef0e9e',
    silenceURL: MEMORY_SILENCE,
    dashboardURL: `${PLAY}/d/ece9fb32-7f71-4be9-bd94-2f23608ae5b9?orgId=1`,
    panelURL: `${PLAY}/d/ece9fb32-7f71-4be9-bd94-2f23608ae5b9?orgId=1&viewPanel=2`,
    values: { A: 2473545728, B: 0, C: 1, minute: 9 },
    valueString: "[ var='A' labels={} value=2.473545728e+09 ], [ var='B' labels={} value=0 ]",
    imageURL: IMAGE,
    ...extra,
  };
}

function unified(alerts: unknown[]) {
  return { receiver: 'Zulip', status: 'firing', orgId: 1, alerts, version: '1', state: 'alerting', title: '[FIRING:1]', message: 'ignored' };
}

describe('grafana: registration', () => {
  it('is found by its URL name, with the legacy and unified event types', () => {
    expect(integrationNamed('grafana')).toBe(grafana);
    expect(grafana.eventTypes).toEqual(['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved']);
  });
});

describe('grafana: legacy alerting state', () => {
  it('alerting (test_alert_v7)', () => {
    expect(translate(legacy('alerting'))).toEqual({
      eventType: 'alerting',
      messages: [{
        topic: '[Alerting] Test notification',
        content: `:alert: **ALERTING**

[Test rule](http://localhost:3000/)

Someone is testing the alert notification within grafana.

**High value:** 100
**Higher Value:** 200

[Click to view visualization](${IMAGE})`,
      }],
    });
  });

  it('alerting without data nor image (test_no_data_alert_v7)', () => {
    const { imageUrl: _image, ...payload } = legacy('alerting', {
      title: '[Alerting] No Data alert',
      ruleName: 'No Data alert',
      ruleUrl: 'http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=6&orgId=1',
      message: 'The panel has no data.',
      evalMatches: [],
    });
    expect(translate(payload).messages).toEqual([{
      topic: '[Alerting] No Data alert',
      content: `:alert: **ALERTING**

[No Data alert](http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=6&orgId=1)

The panel has no data.`,
    }]);
  });

  it('alerting without a message, with a fractional value (test_no_message_alert_v7)', () => {
    const { imageUrl: _image, message: _message, ...payload } = legacy('alerting', {
      title: '[Alerting] No Message alert',
      ruleName: 'No Message alert',
      ruleUrl: 'http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=8&orgId=1',
      evalMatches: [{ metric: 'A-series', value: 21.573108436586445, tags: {} }],
    });
    expect(translate(payload).messages).toEqual([{
      topic: '[Alerting] No Message alert',
      content: `:alert: **ALERTING**

[No Message alert](http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=8&orgId=1)

**A-series:** 21.573108436586445`,
    }]);
  });
});

describe('grafana: legacy ok state', () => {
  it('test_alert_ok_v7', () => {
    const outcome = translate(legacy('ok', { evalMatches: [{ metric: 'High value', value: 0, tags: null }] }));
    expect(outcome.eventType).toBe('ok');
    expect(outcome.messages).toEqual([{
      topic: '[Ok] Test notification',
      content: `:squared_ok: **OK**

[Test rule](http://localhost:3000/)

Someone is testing the alert notification within grafana.

**High value:** 0

[Click to view visualization](${IMAGE})`,
    }]);
  });
});

describe('grafana: legacy paused state', () => {
  it('test_alert_paused_v7', () => {
    const { evalMatches: _matches, ...payload } = legacy('paused');
    const outcome = translate(payload);
    expect(outcome.eventType).toBe('paused');
    expect(outcome.messages).toEqual([{
      topic: '[Paused] Test notification',
      content: `:info: **PAUSED**

[Test rule](http://localhost:3000/)

Someone is testing the alert notification within grafana.


[Click to view visualization](${IMAGE})`,
    }]);
  });
});

describe('grafana: legacy pending state', () => {
  it('test_alert_pending_v7', () => {
    const outcome = translate(legacy('pending'));
    expect(outcome.eventType).toBe('pending');
    expect(outcome.messages).toEqual([{
      topic: '[Pending] Test notification',
      content: `:info: **PENDING**

[Test rule](http://localhost:3000/)

Someone is testing the alert notification within grafana.

**High value:** 100
**Higher Value:** 200

[Click to view visualization](${IMAGE})`,
    }]);
  });
});

describe('grafana: legacy no_data and unknown states', () => {
  it('are accepted with the info icon, their state as the event type', () => {
    const outcome = translate(legacy('no_data', { title: '[No Data] Test notification', evalMatches: [{ metric: 'A', value: null }] }));
    expect(outcome.eventType).toBe('no_data');
    expect(outcome.messages[0]?.content).toMatch(/^:info: \*\*NO_DATA\*\*\n\n\[Test rule\]/);
    expect(outcome.messages[0]?.content).toContain('**A:** None\n');
    expect(translate(legacy('unknown')).messages[0]?.content).toMatch(/^:info: \*\*UNKNOWN\*\*/);
  });

  it("prints values as Python does (Zulip's str())", () => {
    const outcome = translate(legacy('alerting', { evalMatches: [{ metric: 'tiny', value: 0.00001 }, { metric: 'huge', value: 1e21 }, { metric: 'flag', value: true }] }));
    expect(outcome.messages[0]?.content).toContain('**tiny:** 1e-05\n**huge:** 1e+21\n**flag:** True\n');
  });
});

describe('grafana: unified alerting, resolved', () => {
  it('with a value string and an empty generator URL (test_alert_v8)', () => {
    const payload = unified([{
      status: 'resolved',
      labels: { alertname: 'TestAlert', instance: 'Grafana' },
      annotations: { summary: 'Notification test' },
      startsAt: '2022-08-31T05:54:04.52289368Z',
      endsAt: '2022-08-31T10:30:00.52288431Z',
      generatorURL: '',
      fingerprint: '57c6d9296de2ad39',
      silenceURL: 'https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana',
      dashboardURL: '',
      panelURL: '',
      valueString: "[ metric='foo' labels={instance=bar} value=10 ]",
    }]);
    expect(translate(payload)).toEqual({
      messages: [{
        topic: '[TestAlert]',
        content: `:checkbox: **RESOLVED**

**TestAlert**

This alert was fired at <time:2022-08-31T05:54:04+00:00>.

This alert was resolved at <time:2022-08-31T10:30:00+00:00>.

Labels:
- alertname: TestAlert
- instance: Grafana

Values:
[ metric='foo' labels={instance=bar} value=10 ]

Annotations:
- summary: Notification test

[Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)`,
        eventType: 'resolved',
      }],
    });
  });
});

describe('grafana: unified alerting, firing', () => {
  function usage(what: string, zone: string, rule: string, minute: string, value: string, matchers: string) {
    return {
      status: 'firing',
      labels: { alertname: `High ${what} usage`, team: 'blue', zone },
      annotations: {
        description: `The system has high ${what} usage`,
        runbook_url: 'https://myrunbook.com/runbook/1234',
        summary: `This alert was triggered for zone ${zone}`,
      },
      startsAt: `2021-10-12T09:${minute}:03.157076+02:00`,
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: `${PLAY}/alerting/${rule}/edit`,
      fingerprint: 'c6eadffa33fcdf37',
      silenceURL: `${PLAY}/alerting/silence/new?alertmanager=grafana&matchers=${matchers}`,
      dashboardURL: '',
      panelURL: '',
      valueString: `[ metric='' labels={} value=${value} ]`,
    };
  }

  it('sends one message per alert, in their time zone (test_alert_multiple_v8)', () => {
    const outcome = translate(unified([
      usage('memory', 'us-1', '1afz29v7z', '51', '14151.331895396988', 'alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1'),
      usage('CPU', 'eu-1', 'd1rdpdv7k', '56', '47043.702386305304', 'alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1'),
    ]));
    expect(outcome.eventType).toBeUndefined();
    expect(outcome.messages).toEqual([
      {
        topic: '[High memory usage]',
        content: `:alert: **FIRING**

**High memory usage**

This alert was fired at <time:2021-10-12T09:51:03+02:00>.

Labels:
- alertname: High memory usage
- team: blue
- zone: us-1

Values:
[ metric='' labels={} value=14151.331895396988 ]

Annotations:
- description: The system has high memory usage
- runbook_url: https://myrunbook.com/runbook/1234
- summary: This alert was triggered for zone us-1

[Generator](https://play.grafana.org/alerting/1afz29v7z/edit)
[Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1)`,
        eventType: 'firing',
      },
      {
        topic: '[High CPU usage]',
        content: `:alert: **FIRING**

**High CPU usage**

This alert was fired at <time:2021-10-12T09:56:03+02:00>.

Labels:
- alertname: High CPU usage
- team: blue
- zone: eu-1

Values:
[ metric='' labels={} value=47043.702386305304 ]

Annotations:
- description: The system has high CPU usage
- runbook_url: https://myrunbook.com/runbook/1234
- summary: This alert was triggered for zone eu-1

[Generator](https://play.grafana.org/alerting/d1rdpdv7k/edit)
[Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1)`,
        eventType: 'firing',
      },
    ]);
  });

  const MEMORY_TAIL = `Values:
- A: 2473545728
- B: 0
- C: 1
- minute: 9

Annotations:
- summary: High memory usage

[Generator](https://play.grafana.org/alerting/grafana/dd2f0260-3cfc-4c65-a4c4-f3f632c551f4/view?orgId=1)
[Silence](${MEMORY_SILENCE})
[Image](${IMAGE})`;

  it('lists evaluated values, preferred to the value string (test_alert_values_v11)', () => {
    expect(translate(unified([memoryAlert()])).messages).toEqual([{
      topic: '[Memory (copy)]',
      content: `:alert: **FIRING**

**Memory (copy)**

This alert was fired at <time:2024-03-01T02:09:00+00:00>.

Labels:
- alertname: Memory (copy)
- debug: true
- grafana_folder: device

${MEMORY_TAIL}`,
      eventType: 'firing',
    }]);
  });

  it('falls back to the fingerprint without an alertname (test_alert_no_alertname_v11)', () => {
    const expected = `:alert: **FIRING**

This alert was fired at <time:2024-03-01T02:09:00+00:00>.

Labels:
- debug: true
- grafana_folder: device

${MEMORY_TAIL}`;
    const withoutName = memoryAlert({ labels: { debug: 'true', grafana_folder: 'device' } });
    expect(translate(unified([withoutName])).messages).toEqual([{ topic: '[e6349a25f5ef0e9e]', content: expected, eventType: 'firing' }]);
    const emptyName = memoryAlert({ labels: { alertname: '', debug: 'true', grafana_folder: 'device' } });
    expect(translate(unified([emptyName])).messages[0]?.content).toBe(expected.replace('- debug', '- alertname: \n- debug'));
  });

  it('runs the values into the first sentence when there are no labels, as Zulip does', () => {
    const outcome = translate(unified([memoryAlert({ labels: {}, annotations: {}, values: null, valueString: 'A=1', generatorURL: '', silenceURL: null, imageURL: '' })]));
    expect(outcome.messages).toEqual([{
      topic: '[e6349a25f5ef0e9e]',
      content: ':alert: **FIRING**\n\nThis alert was fired at <time:2024-03-01T02:09:00+00:00>.Values:\nA=1',
      eventType: 'firing',
    }]);
  });

  it('carries no request-wide event type when firing and resolved alerts arrive together', () => {
    const outcome = translate(unified([memoryAlert(), memoryAlert({ status: 'resolved', endsAt: '2024-03-01T02:19:00-05:30' })]));
    expect(outcome.eventType).toBeUndefined();
    expect(outcome.messages.map((m) => (m as { eventType?: string }).eventType)).toEqual(['firing', 'resolved']);
    expect(outcome.messages[1]?.content).toMatch(/^:checkbox: \*\*RESOLVED\*\*\n\n\*\*Memory \(copy\)\*\*\n\nThis alert was fired at <time:2024-03-01T02:09:00\+00:00>\.\n\nThis alert was resolved at <time:2024-03-01T02:19:00-05:30>\.\n\nLabels:/);
  });

  it('sends nothing for a notification without alerts', () => {
    expect(translate(unified([])).messages).toEqual([]);
  });
});

describe('grafana: malformed payloads', () => {
  it('refuses a body that is not JSON', () => {
    expect(refusal('state=alerting&title=x').message).toBe('Malformed JSON');
  });

  it('refuses a legacy payload without its title, rule or state', () => {
    expect(refusal({ state: 'alerting' }).message).toBe('payload["title"] is missing');
    const { ruleUrl: _url, ...noUrl } = legacy('alerting');
    expect(refusal(noUrl).message).toBe('payload["ruleUrl"] is missing');
    expect(refusal(legacy('alerting', { ruleName: 7 })).message).toBe('payload["ruleName"] is not a string');
    expect(refusal([]).message).toBe('payload is not a dict');
  });

  it('refuses a legacy state Grafana does not send', () => {
    expect(refusal(legacy('exploded')).message).toBe('Invalid payload["state"]');
    expect(refusal(legacy('alerting', { state: null })).message).toBe('payload["state"] is not a string');
  });

  it('refuses eval matches of the wrong shape', () => {
    expect(refusal(legacy('alerting', { evalMatches: null })).message).toBe('payload["evalMatches"] is not a list');
    expect(refusal(legacy('alerting', { evalMatches: [{ metric: 'A', value: '100' }] })).message).toBe('payload["evalMatches"][0]["value"] is not an allowed_type');
    expect(refusal(legacy('alerting', { evalMatches: [{ metric: 'A' }] })).message).toBe('payload["evalMatches"][0]["value"] is missing');
    expect(refusal(legacy('alerting', { message: null })).message).toBe('payload["message"] is not a string');
  });

  it('refuses a unified alert status other than firing or resolved', () => {
    expect(refusal(unified([memoryAlert({ status: 'pending' })])).message).toBe('Invalid payload["alerts"][0]["status"]');
  });

  it('refuses unified alerts with missing or mistyped fields', () => {
    expect(refusal({ alerts: 'none' }).message).toBe('payload["alerts"] is not a list');
    const { labels: _labels, ...noLabels } = memoryAlert();
    expect(refusal(unified([noLabels])).message).toBe('payload["alerts"][0]["labels"] is missing');
    const { fingerprint: _fp, ...noFingerprint } = memoryAlert({ labels: { debug: 'true' } });
    expect(refusal(unified([noFingerprint])).message).toBe('payload["alerts"][0]["fingerprint"] is missing');
    expect(refusal(unified([memoryAlert({ labels: { alertname: 42 } })])).message).toBe('payload["alerts"][0]["labels"]["alertname"] is not a string');
    expect(refusal(unified([memoryAlert({ labels: { alertname: 'A', debug: true } })])).message).toBe('payload["alerts"][0]["labels"]["debug"] is not a string');
    expect(refusal(unified([memoryAlert({ values: [1, 2] })])).message).toBe('payload["alerts"][0]["values"] is not a dict');
    expect(refusal(unified([memoryAlert({ imageURL: 5 })])).message).toBe('payload["alerts"][0]["imageURL"] is not a string');
  });

  it('refuses start and end times that are not ISO 8601 with a time zone', () => {
    for (const startsAt of ['2024-03-01T02:09:00', 'yesterday', '2024-02-30T02:09:00Z', '2024-03-01T25:09:00Z']) {
      expect(refusal(unified([memoryAlert({ startsAt })])).message).toBe('payload["alerts"][0]["startsAt"] is not a date and time with a time zone');
    }
    expect(refusal(unified([memoryAlert({ endsAt: 0 })])).message).toBe('payload["alerts"][0]["endsAt"] is not a string');
  });
});
