// Builds the GraphQL context for every transport from the same three request facts.
import type { Context } from '../schema/context.ts';
import type { Db } from '../prisma/database.ts';
import type { Config } from './config.ts';
import type { EventBus } from '../resolvers/events/bus.ts';
import type { EventQueues } from '../resolvers/events/queues.ts';
import { authenticate, clientNameFromUserAgent, parseBasicAuth, realmForHost, subdomainForHost } from '../resolvers/auth/authenticate.ts';
import { InvalidApiKeyError } from '../resolvers/errors.ts';

export interface Services {
  db: Db;
  config: Config;
  events: EventBus;
  queues: EventQueues;
}

export interface RequestFacts {
  host?: string | null;
  authorization?: string | null;
  userAgent?: string | null;
  signal?: AbortSignal;
}

// How stale User.lastActivity may get: writing it on every request would double the writes of the
// busiest endpoints for a value only read at minute-level precision.
const ACTIVITY_RESOLUTION_MS = 5 * 60_000;

function noteActivity(services: Services, user: { id: number; lastActivity: Date | null }): void {
  const now = Date.now();
  if (user.lastActivity && now - user.lastActivity.getTime() < ACTIVITY_RESOLUTION_MS) return;
  services.db.user
    .update({ where: { id: user.id }, data: { lastActivity: new Date(now) }, select: { id: true } })
    .catch(() => {});
}

export async function createContext(services: Services, facts: RequestFacts): Promise<Context> {
  let realm;
  let user = null;
  if (facts.authorization) {
    const credentials = parseBasicAuth(facts.authorization);
    if (!credentials) throw new InvalidApiKeyError();
    ({ realm, user } = await authenticate(services.db, subdomainForHost(facts.host ?? undefined, services.config), credentials));
    noteActivity(services, user);
  } else {
    realm = await realmForHost(services.db, facts.host ?? undefined, services.config);
  }
  return { ...services, realm, user, clientName: clientNameFromUserAgent(facts.userAgent), signal: facts.signal };
}
