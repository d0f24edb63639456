// Every incoming-webhook integration Parley offers, by URL name. One line per integration.
import type { Integration } from '../integration.ts';
import { alertmanager } from './alertmanager.ts';
import { grafana } from './grafana.ts';

export const INTEGRATIONS: readonly Integration[] = [
  alertmanager,
  grafana,
];

const byUrlName = new Map(INTEGRATIONS.map((i) => [i.urlName, i]));

export function integrationNamed(urlName: string): Integration | undefined {
  return byUrlName.get(urlName);
}
