// Every incoming-webhook integration Parley offers, by URL name. One line per integration.
import type { Integration } from '../integration.ts';
import { slackIncoming } from './slack-incoming.ts';

export const INTEGRATIONS: readonly Integration[] = [
  slackIncoming,
];

const byUrlName = new Map(INTEGRATIONS.map((i) => [i.urlName, i]));

export function integrationNamed(urlName: string): Integration | undefined {
  return byUrlName.get(urlName);
}
