// Prometheus Alertmanager's webhook receiver (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config),
// as Zulip's zerver/webhooks/alertmanager renders it: alerts are grouped by the label (or annotation)
// the URL's `name` names, one message per topic and status, firing before resolved.
import { BadRequestError } from '../../errors.ts';
import type { Integration, WebhookMessage } from '../integration.ts';
import { WildValue } from '../payload.ts';

const STATUSES = {
  firing: { icon: ':alert:', title: 'FIRING' },
  resolved: { icon: ':squared_ok:', title: 'Resolved' },
} as const;
type Status = keyof typeof STATUSES;

export const alertmanager: Integration = {
  urlName: 'alertmanager',
  displayName: 'Alertmanager',
  eventTypes: null,
  translate(request) {
    // Zulip does not list these as config options, but reads them from the URL all the same.
    const nameField = request.param('name') ?? 'instance';
    const descField = request.param('desc') ?? 'alertname';

    const topics = new Map<string, Record<Status, string[]>>();
    for (const alert of request.payload().get('alerts').list()) {
      const labels = objectOrEmpty(alert, 'labels');
      const annotations = objectOrEmpty(alert, 'annotations');
      const name = labelOrAnnotation(labels, annotations, nameField) ?? '(unknown)';
      const desc = labelOrAnnotation(labels, annotations, descField) ?? `<missing field: ${descField}>`;
      // tab=1 is Prometheus's console view; the link should open the graph.
      const url = alert.get('generatorURL').str().replaceAll('tab=1', 'tab=0');

      const statusValue = alert.get('status');
      const status = statusValue.str();
      if (!Object.hasOwn(STATUSES, status)) throw new BadRequestError(`Invalid ${statusValue.varName}`);

      let byStatus = topics.get(name);
      if (!byStatus) topics.set(name, (byStatus = { firing: [], resolved: [] }));
      byStatus[status as Status].push(`${desc} ([source](${url}))`);
    }

    const messages: WebhookMessage[] = [];
    for (const [topic, byStatus] of topics) {
      for (const status of Object.keys(STATUSES) as Status[]) {
        const lines = byStatus[status];
        if (lines.length === 0) continue;
        const { icon, title } = STATUSES[status];
        const content = lines.length === 1
          ? `${icon} **${title}** ${lines[0]}`
          : `${icon} **${title}**\n${lines.map((line) => `* ${line}`).join('\n')}`;
        messages.push({ topic, content });
      }
    }
    return { messages };
  },
};

/** `alert[key]`, which Alertmanager may leave out: absent reads as an empty object. */
function objectOrEmpty(alert: WildValue, key: string): WildValue {
  const value = alert.opt(key);
  return value.value === undefined ? new WildValue(value.varName, {}) : value;
}

/** A label wins over an annotation of the same name; both must be objects, as in Zulip. */
function labelOrAnnotation(labels: WildValue, annotations: WildValue, field: string): string | null {
  const fromAnnotations = annotations.opt(field);
  const fromLabels = labels.opt(field);
  if (fromLabels.value !== undefined) return fromLabels.str();
  if (fromAnnotations.value !== undefined) return fromAnnotations.str();
  return null;
}
