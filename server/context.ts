// Builds the GraphQL context for every transport from the same three request facts.
import type { Context } from '../schema/context.ts';
import type { Db } from '../prisma/database.ts';
import type { Config } from './config.ts';
import type { EventBus } from '../resolvers/events/bus.ts';
import type { QueueRegistry } from '../resolvers/events/registry.ts';
import { authenticate, clientNameFromUserAgent, parseBasicAuth, realmForHost, subdomainForHost } from '../resolvers/auth/authenticate.ts';
import { InvalidApiKeyError } from '../resolvers/errors.ts';

export interface Services {
  db: Db;
  config: Config;
  events: EventBus;
  queues: QueueRegistry;
}

export interface RequestFacts {
  host?: string | null;
  authorization?: string | null;
  userAgent?: string | null;
  signal?: AbortSignal;
}

export async function createContext(services: Services, facts: RequestFacts): Promise<Context> {
  let realm;
  let user = null;
  if (facts.authorization) {
    const credentials = parseBasicAuth(facts.authorization);
    if (!credentials) throw new InvalidApiKeyError();
    ({ realm, user } = await authenticate(services.db, subdomainForHost(facts.host ?? undefined, services.config), credentials));
  } else {
    realm = await realmForHost(services.db, facts.host ?? undefined, services.config);
  }
  return { ...services, realm, user, clientName: clientNameFromUserAgent(facts.userAgent), signal: facts.signal };
}
