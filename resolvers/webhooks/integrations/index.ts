// Every incoming-webhook integration Parley offers, by URL name. One line per integration.
import type { Integration } from '../integration.ts';
import { sentry } from './sentry.ts';

export const INTEGRATIONS: readonly Integration[] = [
  sentry,
];

const byUrlName = new Map(INTEGRATIONS.map((i) => [i.urlName, i]));

export function integrationNamed(urlName: string): Integration | undefined {
  return byUrlName.get(urlName);
}
