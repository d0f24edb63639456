// Every incoming-webhook integration Parley offers, by URL name. One line per integration.
import type { Integration } from '../integration.ts';
import { github, githubSponsors } from './github/index.ts';

export const INTEGRATIONS: readonly Integration[] = [
  github, githubSponsors,
];

const byUrlName = new Map(INTEGRATIONS.map((i) => [i.urlName, i]));

export function integrationNamed(urlName: string): Integration | undefined {
  return byUrlName.get(urlName);
}
