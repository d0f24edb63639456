// Assembles one Parley server: database, event bus, GraphQL (HTTP + WebSocket) and the REST facade.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { createYoga, type YogaInitialContext } from 'graphql-yoga';
import { openDatabase, type Database } from '../prisma/database.ts';
import { schema } from '../schema/index.ts';
import { maskError, toGraphQLError, asParleyError } from '../schema/errors.ts';
import { restFacade, type Executor } from '../rest-facade/app.ts';
import { LocalEventBus, type EventBus } from '../resolvers/events/bus.ts';
import { QueueRegistry, type RegistryOptions } from '../resolvers/events/registry.ts';
import type { EventQueues } from '../resolvers/events/queues.ts';
import { restoreQueues, saveQueues } from '../resolvers/events/persistence.ts';
import { RedisLink } from '../resolvers/events/redis/link.ts';
import { RedisEventBus } from '../resolvers/events/redis/bus.ts';
import { forgetCachesOnEvents } from '../resolvers/realm-cache.ts';
import { RowCache } from '../resolvers/row-cache.ts';
import { EmptyTopicNames } from '../resolvers/realm/empty-topic-names.ts';
import { RedisQueueRegistry } from '../resolvers/events/redis/registry.ts';
import type { CredentialCache } from '../resolvers/auth/authenticate.ts';
import type { ChannelCache } from '../resolvers/channels/access.ts';
import { createContext, useRefusedCredentials, type RequestFacts, type Services } from './context.ts';
import { admit } from './gate.ts';
import { RateLimits } from './rate-limits.ts';
import type { Config } from './config.ts';
import { ensureFirstRealm } from './bootstrap.ts';
import { inputLimitPlugins } from './input-limits.ts';
import { useResultsAsIs } from '../schema/direct-results.ts';
import { graphiqlOptions, renderGraphiQL } from './graphiql.ts';
import { graphqlOverHttp, isGraphQLPath } from './graphql-http.ts';
import { graphqlWebSocket } from './websocket.ts';
import { compiledRestExecutor } from './rest-executor.ts';
import { serveOther } from './routes.ts';
import type { Context } from '../schema/context.ts';
import { openFileStore, type FileStore } from '../resolvers/files/storage.ts';
import { Thumbnailer } from '../resolvers/uploads/thumbnails.ts';
import { ServiceBots } from '../resolvers/bots/service-bots.ts';
import { openMailer } from '../resolvers/mail/mailer.ts';
import { startMissedMessageEmails, type MissedMessageEmails } from '../resolvers/notifications/missed-message-emails.ts';
import { startScheduledDelivery, type ScheduledDelivery } from '../resolvers/scheduled/delivery.ts';
import { startFullMemberPromotion, type FullMemberPromotion } from '../resolvers/groups/full-members.ts';

export interface ParleyServer {
  config: Config;
  database: Database;
  events: EventBus;
  queues: EventQueues;
  /** Uploads, avatars, icons, thumbnails and exports. */
  files: FileStore;
  thumbnails: Thumbnailer;
  /** Outgoing-webhook and embedded bots at work. */
  serviceBots: ServiceBots;
  httpServer: http.Server;
  /** Sends scheduled messages and reminders when due (runs in every process). */
  scheduledDelivery: ScheduledDelivery;
  /** Makes members full members once their account is older than the waiting period (runs in every process). */
  fullMemberPromotion: FullMemberPromotion;
  /** Mails missed-message e-mails when due (runs in every process); null without a mail server. */
  missedMessageEmails: MissedMessageEmails | null;
  /** Starts listening; resolves with the bound port. */
  listen(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

type InitialContext = YogaInitialContext & { facts?: RequestFacts };

/**
 * The HTTP server before the application exists: it can be bound first, so a process that cannot
 * listen (port in use) stops before touching the database or the saved event queues. Requests and
 * WebSocket upgrades that arrive meanwhile wait until the application is ready.
 */
export interface HttpFront {
  server: http.Server;
  /** Hands the waiting and future requests to the application. */
  serve(request: http.RequestListener, upgrade: (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void): void;
}

export function httpFront(): HttpFront {
  let serve!: HttpFront['serve'];
  const handlers = new Promise<{ request: http.RequestListener; upgrade: Parameters<HttpFront['serve']>[1] }>((resolve) => {
    serve = (request, upgrade) => resolve({ request, upgrade });
  });
  // Long narrows travel in GET query strings; allow more than Node's 16 KiB of headers.
  const handle: http.RequestListener = (request, response) => {
    void handlers.then((h) => h.request(request, response));
  };
  const server = http.createServer({ maxHeaderSize: 256 * 1024 }, handle);
  // "Expect: 100-continue" is answered by the request body reader (server/request-body.ts), only
  // once the request's credentials earned it: a refused client never sends its body at all.
  server.on('checkContinue', handle);
  server.on('upgrade', (request, socket, head) => {
    socket.on('error', () => socket.destroy());
    void handlers.then((h) => h.upgrade(request, socket, head));
  });
  return { server, serve };
}

/** Binds `front` (a new one by default) to port and host; rejects with the listen error (EADDRINUSE…). */
export async function bindHttp(port: number, host: string, front: HttpFront = httpFront()): Promise<HttpFront> {
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    front.server.once('error', failed);
    front.server.listen(port, host, () => {
      front.server.off('error', failed);
      resolve();
    });
  });
  return front;
}

/** What a server runs on, opened and started: database, events and queues, files, caches, workers. */
interface Runtime {
  database: Database;
  redis: RedisLink | null;
  events: EventBus;
  /** The in-process queues (saved across restarts), or null when Redis holds them. */
  memoryQueues: QueueRegistry | null;
  queues: EventQueues;
  /** Where delivery is asynchronous (Redis): resolves once published events are in their queues. */
  settled?: () => Promise<void>;
  files: FileStore;
  services: Services;
  thumbnails: Thumbnailer;
  serviceBots: ServiceBots;
  mailer: ReturnType<typeof openMailer>;
  emptyTopicNames: EmptyTopicNames;
  credentials: CredentialCache;
  channelCache: ChannelCache;
  scheduledDelivery: ScheduledDelivery;
  fullMemberPromotion: FullMemberPromotion;
  /** Missed-message e-mails: queued as messages are sent, mailed when due; null without a mail server. */
  missedMessageEmails: MissedMessageEmails | null;
}

async function openRuntime(config: Config, log: (line: string) => void): Promise<Runtime> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, pgliteTemplate: config.pgliteTemplate, log });
  // With REDIS_URL, events and queues are shared by every process using that Redis (see
  // resolvers/events/redis/registry.ts); without it, everything stays in this process.
  const redis = config.redisUrl ? await RedisLink.connect(config.redisUrl, config.redisPrefix, log) : null;
  const events: EventBus = redis ? await RedisEventBus.start(redis, log) : new LocalEventBus();
  forgetCachesOnEvents(events);
  const emptyTopicNames = await EmptyTopicNames.open(database.prisma, events);
  const registryOptions: RegistryOptions = {
    heartbeatMs: config.heartbeatSecs * 1000,
    gcIntervalMs: 30_000,
    emptyTopicDisplayName: (realmId) => emptyTopicNames.get(realmId),
  };
  // In-memory queues are saved to the database across a graceful restart; Redis keeps its own.
  const memoryQueues = redis ? null : new QueueRegistry(events, registryOptions);
  const queues: EventQueues = memoryQueues ?? new RedisQueueRegistry(redis!, events, registryOptions, log);
  // Where delivery is asynchronous (Redis), a response waits until its request's events are in
  // their queues, so the client finds them there whichever process it polls next.
  const settled = queues.settled?.bind(queues);
  const files = await openFileStore(config.storage, config.dataDir);
  const rateLimits = new RateLimits(config.rateLimits, redis ? { command: redis.command, prefix: config.redisPrefix } : null);
  const credentials: CredentialCache = new RowCache(events, database.writes, (found) => found.realm.id);
  const channelCache: ChannelCache = new RowCache(events, database.writes, (found) => found.channel.realmId);
  const services: Services = { db: database.prisma, config, events, queues, files, rateLimits, credentials, channelCache };
  const thumbnails = (services.thumbnails = new Thumbnailer(services, log));
  const serviceBots = (services.serviceBots = new ServiceBots(services, log));
  const mailer = (services.mailer = openMailer(config, log));
  await ensureFirstRealm(services, log);
  await thumbnails.resume();
  const scheduledDelivery = startScheduledDelivery(services, config.scheduledPollMs, log);
  const fullMemberPromotion = startFullMemberPromotion(services, config.fullMemberPromotionMs, log);
  // Without a mail server nothing would leave: nothing is queued either (the log would fill up).
  const missedMessageEmails = mailer.delivers ? (services.missedMessageEmails = startMissedMessageEmails(services, config.missedMessageEmailPollMs, log)) : null;
  return {
    database, redis, events, memoryQueues, queues, settled, files, services, thumbnails, serviceBots, mailer,
    emptyTopicNames, credentials, channelCache, scheduledDelivery, fullMemberPromotion, missedMessageEmails,
  };
}

/**
 * Stops in the order that loses nothing: waiting long-polls answered, background work finished,
 * in-memory queues saved (when the server got to serve them), connections closed, stores last.
 */
async function closeRuntime(runtime: Runtime, httpServer: http.Server, closeWebSocket: () => Promise<void>, saveQueuesToo: boolean, log: (line: string) => void): Promise<void> {
  const { database, redis, events, memoryQueues, queues, settled, files } = runtime;
  // Answer waiting long-polls first, then save in-memory queues so clients resume after a
  // restart (queues in Redis outlive this process by themselves).
  queues.close();
  await runtime.scheduledDelivery.stop();
  await runtime.fullMemberPromotion.stop();
  await runtime.missedMessageEmails?.stop();
  await runtime.thumbnails.stop();
  await runtime.serviceBots.idle();
  runtime.mailer.close();
  if (memoryQueues && saveQueuesToo) await saveQueues(database.prisma, memoryQueues).catch((error) => log(`could not save event queues: ${error}`));
  await closeWebSocket();
  if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  httpServer.closeAllConnections?.();
  runtime.emptyTopicNames.close();
  runtime.credentials.close();
  runtime.channelCache.close();
  await events.close();
  // Events published by the last requests must reach Redis before the connections close.
  await settled?.();
  await redis?.close();
  await files.close();
  await database.close();
}

/** The HTTP application: /graphql, the REST facade under /api/v1, and everything else (pages, files). */
function httpApp(services: Services, graphqlHttp: (ctx: Koa.Context) => Promise<void>, facade: Koa.Middleware, settled: (() => Promise<void>) | undefined, log: (line: string) => void): Koa {
  const { config } = services;
  const app = new Koa();
  if (config.trustedProxies > 0) {
    app.proxy = true;
    app.maxIpsCount = config.trustedProxies;
  }
  if (settled) {
    app.use(async (_ctx, next) => {
      await next();
      await settled();
    });
  }
  app.use(async (ctx, next) => {
    if (config.logRequests) log(`${ctx.method} ${ctx.path}`);
    if (isGraphQLPath(ctx.path)) {
      await graphqlHttp(ctx);
      return;
    }
    if (ctx.path.startsWith('/api/v1/') || ctx.path === '/api/v1') {
      await facade(ctx, next);
      return;
    }
    await serveOther(ctx, services);
  });
  return app;
}

/**
 * Opens the database and assembles the server on `front` (bound already, or bound by listen()). It
 * answers requests once listen() has restored the saved event queues, so a client polling its queue
 * right after a restart finds it rather than BAD_EVENT_QUEUE_ID.
 */
export async function createParleyServer(config: Config, log: (line: string) => void = console.log, front: HttpFront = httpFront()): Promise<ParleyServer> {
  const runtime = await openRuntime(config, log);
  const { database, events, memoryQueues, queues, settled, files, services, thumbnails, serviceBots, scheduledDelivery, fullMemberPromotion, missedMessageEmails } = runtime;

  const buildContext = async (facts: RequestFacts): Promise<Context> => {
    try {
      return await createContext(services, facts);
    } catch (error) {
      const parley = asParleyError(error);
      throw parley ? toGraphQLError(parley, undefined, true) : error;
    }
  };

  const yoga = createYoga<InitialContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: graphiqlOptions(),
    renderGraphiQL,
    maskedErrors: { maskError },
    plugins: [useRefusedCredentials(), ...inputLimitPlugins(), useResultsAsIs()],
    // Credentials travel in a header browsers attach by themselves once a user has logged in to
    // GraphiQL, so no other site may call /graphql from a browser: no CORS grant at all.
    cors: false,
    logging: false,
    context: async (initial) =>
      buildContext(initial.facts ?? {
        host: initial.request.headers.get('host'),
        authorization: initial.request.headers.get('authorization'),
        userAgent: initial.request.headers.get('user-agent'),
        signal: initial.request.signal,
      }),
  });

  // REST requests run their fixed documents compiled, with the same context, refusals, input
  // checks and error masking as /graphql (server/rest-executor.ts).
  const executeForRest: Executor = compiledRestExecutor(schema, buildContext);

  const graphqlHttp = graphqlOverHttp(services, yoga);
  // Bodies are read by the facade per route, once the request's credentials are checked (server/gate.ts).
  const facade = restFacade(schema, executeForRest, (ctx, access) => admit(services, ctx, access));
  const app = httpApp(services, graphqlHttp, facade, settled, log);

  const httpServer = front.server;
  const { wsServer, close: closeWebSocket } = graphqlWebSocket(services, yoga, settled);

  let listening = false;
  return {
    config,
    database,
    events,
    queues,
    files,
    thumbnails,
    serviceBots,
    httpServer,
    scheduledDelivery,
    fullMemberPromotion,
    missedMessageEmails,
    listen: async (port = config.port, host = config.bindAddress) => {
      // The port first: a server that cannot listen (port in use) leaves the saved queues where
      // they are, for the process that will.
      if (!httpServer.listening) await bindHttp(port, host, front);
      if (memoryQueues) {
        const restored = await restoreQueues(database.prisma, memoryQueues);
        if (restored) log(`restored ${restored} event queues`);
      }
      listening = true;
      front.serve(app.callback(), (request, socket, head) => {
        wsServer.handleUpgrade(request, socket, head, (ws) => wsServer.emit('connection', ws, request));
      });
      return (httpServer.address() as { port: number }).port;
    },
    close: () => closeRuntime(runtime, httpServer, closeWebSocket, listening, log),
  };
}
