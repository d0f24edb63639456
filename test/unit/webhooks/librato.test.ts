// Librato's alerts and snapshots: the messages Zulip's zerver/webhooks/librato/tests.py expects, and
// requests it refuses.
import { describe, it, expect } from 'vitest';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { librato } from '../../../resolvers/webhooks/integrations/librato.ts';
import { expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

/** An alert as Librato posts it: JSON in the form field `payload`. */
const alertRequest = (payload: unknown) => translateWith(librato, {
  body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
  params: { payload: JSON.stringify(payload) },
});
const snapshotRequest = (body: unknown) => translateWith(librato, { body });

const condition = (type: string, summary: string, extra: Record<string, number>) => ({ id: 1, type, summary_function: summary, ...extra });
const violation = (metric: string, recordedAt: number) => ({ metric, value: 2, recorded_at: recordedAt, condition_violated: 1 });

const alert = {
  alert: { id: 6294535, name: 'alert.name', runbook_url: 'http://www.google.pl', version: 2 },
  account: 'lukasz@zulip.com',
  trigger_time: 1459415502,
  conditions: [
    condition('below', 'sum', { threshold: 44, duration: 300 }),
    condition('absent', 'average', { duration: 300 }),
    condition('above', 'derivative', { threshold: 9, duration: 300 }),
  ],
  violations: {
    'test-source': [
      violation('librato.cpu.percent.idle', 1459415502),
      violation('librato.swap.swap.cached', 1459415502),
      violation('librato.swap.swap.cached', 1459415502),
    ],
  },
  triggered_by_user_test: true,
};

const threeConditions = {
  alert: { id: 6294535, name: 'TooHighTemperature', runbook_url: 'http://www.use.water.pl', version: 2 },
  trigger_time: 1460407214,
  conditions: [
    condition('above', 'absolute_value', { threshold: 4, duration: 300 }),
    condition('above', 'max', { threshold: 99 }),
    condition('absent', 'average', { duration: 60 }),
  ],
  violations: {
    'test-source': [
      violation('collectd.interface.eth0.if_octets.tx', 1460407214),
      violation('collectd.load.load.longterm', 1460407214),
      violation('librato.swap.swap.cached', 1460407214),
    ],
  },
};

const cleared = {
  alert: { id: 6309313, name: 'Alert_name', runbook_url: '', version: 2 },
  account: 'lukasz@zulip.com',
  trigger_time: 1460466704,
  clear: 'normal',
};

const snapshot = {
  attachments: [{
    author_name: 'Hamlet',
    image_url: 'http://snapshots.librato.com/chart/nr5l3n0c-82162.png',
    title: 'https://metrics.librato.com/s/spaces/167315/explore/1731491?duration=72039&end_time=1460569409',
    fallback: 'Snapshot',
  }],
};

const TRIGGERED = 'Alert [alert_name](https://metrics.librato.com/alerts#/6294535) has triggered! [Reaction steps](http://www.google.pl):\n * Metric `librato.cpu.percent.idle`, sum was below 44 by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.\n * Metric `librato.swap.swap.cached`, average was absent  by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.\n * Metric `librato.swap.swap.cached`, derivative was above 9 by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.';

describe('librato: registration', () => {
  it('is found by its URL name', () => {
    expect(integrationNamed('librato')).toBe(librato);
    expect(librato.displayName).toBe('Librato');
    expect(librato.eventTypes).toBeNull();
  });
});

describe('librato: alert triggered', () => {
  it('test_alert_message_with_default_topic', () => {
    expectMessage(alertRequest(alert), 'Alert alert.name', TRIGGERED);
  });

  it('test_alert_message_with_custom_topic: the URL topic is the framework\'s, the content the same', () => {
    const outcome = translateWith(librato, { body: '', params: { payload: JSON.stringify(alert), topic: 'custom_name' } });
    expect(outcome.messages[0]!.content).toBe(TRIGGERED);
  });

  it('test_three_conditions_alert_message', () => {
    expectMessage(alertRequest(threeConditions), 'Alert TooHighTemperature',
      'Alert [alert_name](https://metrics.librato.com/alerts#/6294535) has triggered! [Reaction steps](http://www.use.water.pl):\n * Metric `collectd.interface.eth0.if_octets.tx`, absolute_value was above 4 by 300s, recorded at <time:2016-04-11T20:40:14+00:00>.\n * Metric `collectd.load.load.longterm`, max was above 99, recorded at <time:2016-04-11T20:40:14+00:00>.\n * Metric `librato.swap.swap.cached`, average was absent  by 60s, recorded at <time:2016-04-11T20:40:14+00:00>.');
  });

  it('leaves out reaction steps without a runbook', () => {
    const body = { ...threeConditions, alert: { ...threeConditions.alert, runbook_url: '' }, conditions: threeConditions.conditions.slice(1, 2) };
    expectMessage(alertRequest(body), 'Alert TooHighTemperature',
      'Alert [alert_name](https://metrics.librato.com/alerts#/6294535) has triggered! \n * Metric `collectd.interface.eth0.if_octets.tx`, max was above 99, recorded at <time:2016-04-11T20:40:14+00:00>.');
  });
});

describe('librato: alert cleared', () => {
  it('test_alert_clear', () => {
    expectMessage(alertRequest(cleared), 'Alert Alert_name',
      'Alert [alert_name](https://metrics.librato.com/alerts#/6309313) has cleared at <time:2016-04-12T13:11:44+00:00>!');
  });
});

describe('librato: snapshots', () => {
  it('test_snapshot', () => {
    expectMessage(snapshotRequest(snapshot), 'Snapshots',
      '**Hamlet** sent a [snapshot](http://snapshots.librato.com/chart/nr5l3n0c-82162.png) of [metric](https://metrics.librato.com/s/spaces/167315/explore/1731491?duration=72039&end_time=1460569409).');
  });
});

describe('librato: refusals', () => {
  it('test_bad_request: neither an alert nor snapshots', () => {
    expect(refusalOf(() => snapshotRequest({ attachments: [] })).message).toBe('Malformed JSON input');
    expect(refusalOf(() => snapshotRequest('not json')).message).toBe('Malformed JSON input');
  });

  it('test_bad_msg_type', () => {
    const { violations: _v, ...body } = alert;
    expect(refusalOf(() => alertRequest(body)).message).toBe('Unexpected message type');
  });

  it('refuses a form field that is not JSON', () => {
    refusalOf(() => translateWith(librato, { body: 'payload=%7B', params: { payload: '{' } }));
  });

  it('refuses a form field that is not an object', () => {
    expect(refusalOf(() => alertRequest([alert])).message).toBe('payload is not a dict');
  });

  it('refuses an alert without its alert', () => {
    const { alert: _a, ...body } = cleared;
    expect(refusalOf(() => alertRequest(body)).message).toBe('payload["alert"] is missing');
  });

  it('refuses a time that is not a number', () => {
    expect(refusalOf(() => alertRequest({ ...cleared, trigger_time: 'noon' })).message).toBe('payload["trigger_time"] is not a number');
    refusalOf(() => alertRequest({ ...cleared, trigger_time: 1e15 }));
  });

  it('refuses attachments that are not a list, or snapshots without their fields', () => {
    refusalOf(() => snapshotRequest({ attachments: 'chart' }));
    refusalOf(() => snapshotRequest({ attachments: [{ image_url: 'http://x/y.png' }] }));
    refusalOf(() => snapshotRequest({ attachments: [3] }));
  });
});
