// Builds the GraphQL context for every transport from the same three request facts.
import type { Context, Services } from '../schema/context.ts';
import type { Realm, User } from '../prisma/generated/client/client.ts';
import { Kind, type DocumentNode, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { authenticate, authenticateByApiKey, clientNameFromUserAgent, parseBasicAuth, realmForHost, subdomainForHost } from '../resolvers/auth/authenticate.ts';
import { BadRequestError, InvalidApiKeyError, ParleyError } from '../resolvers/errors.ts';
import { toGraphQLError } from '../schema/errors.ts';
import { INCOMING_WEBHOOK_BOT } from '../resolvers/bots/bots.ts';

export type { Services } from '../schema/context.ts';

export interface RequestFacts {
  host?: string | null;
  authorization?: string | null;
  userAgent?: string | null;
  signal?: AbortSignal;
  /** The credentials already checked (server/gate.ts, before the body is read), so they are not checked twice. */
  checked?: CheckedCredentials;
}

/** The user the credentials name, or why they are refused. */
export type CheckedCredentials = { realm: Realm; user: User } | { refused: ParleyError };

// How stale User.lastActivity may get: writing it on every request would double the writes of the
// busiest endpoints for a value only read at minute-level precision.
const ACTIVITY_RESOLUTION_MS = 5 * 60_000;

function noteActivity(services: Services, user: { id: number; lastActivity: Date | null }): void {
  const now = Date.now();
  if (user.lastActivity && now - user.lastActivity.getTime() < ACTIVITY_RESOLUTION_MS) return;
  // The row may be the credential cache's: it learns the new value here, so the write, raw SQL
  // unseen by the cache (prisma/database.ts watchWrites), need not empty it.
  user.lastActivity = new Date(now);
  services.db.$executeRaw`UPDATE "User" SET "lastActivity" = ${user.lastActivity.toISOString()}::timestamp(3) WHERE id = ${user.id}`
    .catch(() => {});
}

/**
 * The user the credentials name, or why they are refused (a bad key, a deactivated user or
 * organization, another organization's account); database failures are thrown.
 */
export async function checkCredentials(services: Services, facts: RequestFacts): Promise<CheckedCredentials> {
  if (facts.checked) return facts.checked;
  try {
    const credentials = parseBasicAuth(facts.authorization);
    if (!credentials) throw new InvalidApiKeyError();
    return await authenticate(services.db, subdomainForHost(facts.host ?? undefined, services.config), credentials, services.credentials);
  } catch (error) {
    if (error instanceof ParleyError) return { refused: error };
    throw error;
  }
}

/** The user an incoming webhook's `api_key` names (no email: see authenticateByApiKey), or why it is refused. */
export async function checkApiKey(services: Services, facts: RequestFacts, apiKey: string): Promise<CheckedCredentials> {
  try {
    return await authenticateByApiKey(services.db, subdomainForHost(facts.host ?? undefined, services.config), apiKey, services.credentials);
  } catch (error) {
    if (error instanceof ParleyError) return { refused: error };
    throw error;
  }
}

/**
 * Refused credentials do not fail the context: the operation fails instead (useRefusedCredentials),
 * unless it only asks what Zulip serves without looking at credentials at all.
 */
export async function createContext(services: Services, facts: RequestFacts): Promise<Context> {
  let realm: Realm | undefined;
  let user: User | null = null;
  let refusedCredentials: ParleyError | undefined;
  if (facts.authorization || facts.checked) {
    const checked = await checkCredentials(services, facts);
    if ('refused' in checked) refusedCredentials = checked.refused;
    else {
      ({ realm, user } = checked);
      noteActivity(services, user);
    }
  }
  realm ??= await realmForHost(services.db, facts.host ?? undefined, services.config);
  // Object.assign rather than `{ ...services, realm, … }`: V8 (Node 20) builds an object spread
  // followed by more properties through a slow path, several microseconds per request here.
  return Object.assign({}, services, { realm, user, refusedCredentials, clientName: clientNameFromUserAgent(facts.userAgent), signal: facts.signal });
}

/** Why a WebSocket's credentials (graphql-ws `connection_init`) are refused, or null. */
export async function refusedCredentials(services: Services, facts: RequestFacts): Promise<ParleyError | null> {
  if (!facts.authorization) return null;
  const checked = await checkCredentials(services, facts);
  return 'refused' in checked ? checked.refused : null;
}

/**
 * Root fields that answer whatever credentials come with them, as Zulip's views behind them are
 * plain Django views that never read the Authorization header: GET /server_settings (the Python
 * client's constructor calls it before anything else, so a bad or deactivated key must still
 * get its 200 and then the real error on the next call) and the two ways of getting a key.
 */
export const CREDENTIAL_FREE_FIELDS = new Set(['serverSettings', 'fetchApiKey', 'devFetchApiKey', '__typename']);

function onlyCredentialFreeFields(document: DocumentNode, operationName?: string | null): boolean {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return false;
  return operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && CREDENTIAL_FREE_FIELDS.has(s.name.value));
}

function refusal(args: { document: DocumentNode; operationName?: string | null; contextValue: unknown }): GraphQLError | null {
  const refused = (args.contextValue as Partial<Context>).refusedCredentials;
  if (!refused || onlyCredentialFreeFields(args.document, args.operationName)) return null;
  return toGraphQLError(refused, undefined, true);
}

/** Root fields an incoming-webhook bot may use: sending messages and its integrations (Zulip's allow_incoming_webhooks). */
const INCOMING_WEBHOOK_FIELDS = new Set(['postMessage', 'sendMessage', 'deliverWebhook', 'checkWebhookUrl', ...CREDENTIAL_FREE_FIELDS]);

function webhookRefusal(args: { document: DocumentNode; operationName?: string | null; contextValue: unknown }): GraphQLError | null {
  const user = (args.contextValue as Partial<Context>).user;
  if (!user?.isBot || user.botType !== INCOMING_WEBHOOK_BOT) return null;
  const operations = args.document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
  const allowed = operation?.operation !== 'subscription'
    && operation?.selectionSet.selections.every((s) => s.kind === Kind.FIELD && INCOMING_WEBHOOK_FIELDS.has(s.name.value));
  return allowed ? null : toGraphQLError(new BadRequestError('This API is not available to incoming webhook bots.'), undefined, true);
}

/**
 * Why the caller may not run this operation at all (refused credentials, or an incoming-webhook bot
 * asking for more than sending messages), or null. Every transport checks it before executing.
 */
export function operationRefusal(args: { document: DocumentNode; operationName?: string | null; contextValue: unknown }): GraphQLError | null {
  return refusal(args) ?? webhookRefusal(args);
}

/** Fails every operation sent with refused credentials, except those of CREDENTIAL_FREE_FIELDS. */
export function useRefusedCredentials(): Plugin {
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      const error = operationRefusal(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      const error = operationRefusal(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
