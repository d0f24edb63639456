// Alertmanager's webhook receiver: the messages Zulip's zerver/webhooks/alertmanager/tests.py expects.
import { describe, it, expect } from 'vitest';
import { ParleyError } from '../../../resolvers/errors.ts';
import { alertmanager } from '../../../resolvers/webhooks/integrations/alertmanager.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { refusalOf } from '../../support/webhooks.ts';

// Zulip's tests read the topic from an annotation and the description from another.
const ZULIP_TEST_PARAMS = { name: 'topic', desc: 'description' };

function translate(body: unknown, params: Record<string, string> = ZULIP_TEST_PARAMS) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return alertmanager.translate(new IncomingWebhookRequest({ body: text, params }));
}

function refusal(body: unknown, params?: Record<string, string>): ParleyError {
  return refusalOf(() => translate(body, params));
}

const GRAPH = 'http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15';

function alert(status: string, description: string, extra: Record<string, unknown> = {}) {
  return {
    status,
    labels: { alertname: 'High CPU Temperature', host: 'andromeda', severity: 'critical' },
    annotations: { description, topic: 'andromeda', summary: 'High CPU core temperature' },
    startsAt: '2020-02-06T00:17:58.432911368Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: `${GRAPH}&g0.tab=1`,
    ...extra,
  };
}

function notification(status: string, alerts: unknown[]) {
  return {
    version: '4',
    receiver: 'ops-zulip',
    status,
    commonLabels: { alertname: 'High CPU Temperature', severity: 'critical' },
    externalURL: 'http://ops1:9093',
    alerts,
  };
}

describe('alertmanager: registration', () => {
  it('is found by its URL name, with no event types and no listed config options', () => {
    expect(integrationNamed('alertmanager')).toBe(alertmanager);
    expect(alertmanager.eventTypes).toBeNull();
    expect(alertmanager.configOptions).toBeUndefined();
  });
});

describe('alertmanager: firing alerts', () => {
  it('lists several alerts of one topic in one message (test_error_issue_message)', () => {
    const outcome = translate(notification('firing', [
      alert('firing', 'CPU core temperature is 34.75C'),
      alert('firing', 'CPU core temperature is 17.625C'),
    ]));
    expect(outcome.eventType).toBeUndefined();
    expect(outcome.messages).toEqual([{
      topic: 'andromeda',
      content: `:alert: **FIRING**
* CPU core temperature is 34.75C ([source](${GRAPH}&g0.tab=0))
* CPU core temperature is 17.625C ([source](${GRAPH}&g0.tab=0))`,
    }]);
  });

  it('reads the topic from `instance` and the description from `alertname` by default', () => {
    const outcome = translate(notification('firing', [
      alert('firing', 'ignored', { labels: { alertname: 'DiskFull', instance: 'db-1:9100' }, generatorURL: 'http://prometheus/graph?g0.tab=1' }),
    ]), {});
    expect(outcome.messages).toEqual([{ topic: 'db-1:9100', content: ':alert: **FIRING** DiskFull ([source](http://prometheus/graph?g0.tab=0))' }]);
  });

  it('prefers a label to an annotation of the same name, and falls back to annotations without labels', () => {
    const labelled = translate(notification('firing', [
      alert('firing', 'from the annotation', { labels: { description: 'from the label', topic: 'label-topic' } }),
    ]));
    expect(labelled.messages[0]).toEqual({ topic: 'label-topic', content: `:alert: **FIRING** from the label ([source](${GRAPH}&g0.tab=0))` });

    const { labels: _labels, ...unlabelled } = alert('firing', 'only annotated');
    expect(translate(notification('firing', [unlabelled])).messages[0])
      .toEqual({ topic: 'andromeda', content: `:alert: **FIRING** only annotated ([source](${GRAPH}&g0.tab=0))` });
  });

  it('names what is missing when neither labels nor annotations have the fields', () => {
    const outcome = translate(notification('firing', [
      { status: 'firing', labels: { alertname: 'Watchdog' }, generatorURL: 'http://prometheus/graph' },
    ]));
    expect(outcome.messages).toEqual([{ topic: '(unknown)', content: ':alert: **FIRING** <missing field: description> ([source](http://prometheus/graph))' }]);
  });
});

describe('alertmanager: resolved alerts', () => {
  it('writes a single alert on one line (test_single_error_issue_message)', () => {
    const outcome = translate(notification('resolved', [alert('resolved', 'CPU core temperature is 34.75C')]));
    expect(outcome.messages).toEqual([{
      topic: 'andromeda',
      content: `:squared_ok: **Resolved** CPU core temperature is 34.75C ([source](${GRAPH}&g0.tab=0))`,
    }]);
  });
});

describe('alertmanager: mixed notifications', () => {
  it('sends one message per topic and status, topics in order of appearance, firing before resolved', () => {
    const outcome = translate(notification('firing', [
      alert('resolved', 'andromeda cooled down'),
      alert('firing', 'cassiopeia is hot', { annotations: { description: 'cassiopeia is hot', topic: 'cassiopeia' } }),
      alert('firing', 'andromeda is hot'),
    ]));
    expect(outcome.messages).toEqual([
      { topic: 'andromeda', content: `:alert: **FIRING** andromeda is hot ([source](${GRAPH}&g0.tab=0))` },
      { topic: 'andromeda', content: `:squared_ok: **Resolved** andromeda cooled down ([source](${GRAPH}&g0.tab=0))` },
      { topic: 'cassiopeia', content: `:alert: **FIRING** cassiopeia is hot ([source](${GRAPH}&g0.tab=0))` },
    ]);
  });

  it('sends nothing for a notification without alerts', () => {
    expect(translate(notification('resolved', [])).messages).toEqual([]);
  });
});

describe('alertmanager: malformed payloads', () => {
  it('refuses a body that is not JSON', () => {
    expect(refusal('status=firing').message).toBe('Malformed JSON');
  });

  it('refuses a payload without alerts, or with alerts that are not a list', () => {
    expect(refusal({ status: 'firing' }).message).toBe('payload["alerts"] is missing');
    expect(refusal({ alerts: { 0: alert('firing', 'x') } }).message).toBe('payload["alerts"] is not a list');
    expect(refusal([]).message).toBe('payload is not a dict');
  });

  it('refuses an alert without generatorURL or status', () => {
    const { generatorURL: _url, ...noUrl } = alert('firing', 'x');
    expect(refusal(notification('firing', [noUrl])).message).toBe('payload["alerts"][0]["generatorURL"] is missing');
    const { status: _status, ...noStatus } = alert('firing', 'x');
    expect(refusal(notification('firing', [noStatus])).message).toBe('payload["alerts"][0]["status"] is missing');
  });

  it('refuses a status other than firing or resolved', () => {
    expect(refusal(notification('firing', [alert('pending', 'x')])).message).toBe('Invalid payload["alerts"][0]["status"]');
    expect(refusal(notification('firing', [alert(1 as unknown as string, 'x')])).message).toBe('payload["alerts"][0]["status"] is not a string');
  });

  it('refuses fields of the wrong type', () => {
    expect(refusal(notification('firing', [alert('firing', 34.75 as unknown as string)])).message)
      .toBe('payload["alerts"][0]["annotations"]["description"] is not a string');
    expect(refusal(notification('firing', [alert('firing', 'x', { labels: null })])).message).toBe('payload["alerts"][0]["labels"] is not a dict');
    expect(refusal(notification('firing', [alert('firing', 'x', { annotations: ['topic'] })])).message).toBe('payload["alerts"][0]["annotations"] is not a dict');
    expect(refusal(notification('firing', ['firing'])).message).toBe('payload["alerts"][0] is not a dict');
    expect(refusal(notification('firing', [alert('firing', 'x', { generatorURL: null })])).message).toBe('payload["alerts"][0]["generatorURL"] is not a string');
  });
});
