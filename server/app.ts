// Assembles one Parley server: database, event bus, GraphQL (HTTP + WebSocket) and the REST facade.
import http from 'node:http';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { createYoga, type YogaInitialContext } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
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
import { RedisQueueRegistry } from '../resolvers/events/redis/registry.ts';
import { createContext, refusedCredentials, useRefusedCredentials, type RequestFacts, type Services } from './context.ts';
import type { Config } from './config.ts';
import { ensureFirstRealm } from './bootstrap.ts';
import { EMOJI_IMAGE_PATH, serveEmojiImage } from './emoji-images.ts';
import { SERVER_EMOJI_DATA_PATH, serveServerEmojiData } from './emoji-data.ts';
import type { Context } from '../schema/context.ts';
import { startScheduledDelivery, type ScheduledDelivery } from '../resolvers/scheduled/delivery.ts';

export interface ParleyServer {
  config: Config;
  database: Database;
  events: EventBus;
  queues: EventQueues;
  httpServer: http.Server;
  /** Sends scheduled messages and reminders when due (runs in every process). */
  scheduledDelivery: ScheduledDelivery;
  /** Starts listening; resolves with the bound port. */
  listen(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

type InitialContext = YogaInitialContext & { facts?: RequestFacts };

export async function createParleyServer(config: Config, log: (line: string) => void = console.log): Promise<ParleyServer> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, log });
  // With REDIS_URL, events and queues are shared by every process using that Redis (see
  // resolvers/events/redis/registry.ts); without it, everything stays in this process.
  const redis = config.redisUrl ? await RedisLink.connect(config.redisUrl, config.redisPrefix, log) : null;
  const events: EventBus = redis ? await RedisEventBus.start(redis, log) : new LocalEventBus();
  forgetCachesOnEvents(events);
  // The empty topic's display name per realm, for queues of clients that cannot show "".
  const emptyTopicNames = new Map<number, string>();
  for (const realm of await database.prisma.realm.findMany({ select: { id: true, emptyTopicDisplayName: true } })) {
    emptyTopicNames.set(realm.id, realm.emptyTopicDisplayName);
  }
  const registryOptions: RegistryOptions = {
    heartbeatMs: config.heartbeatSecs * 1000,
    gcIntervalMs: 30_000,
    emptyTopicDisplayName: (realmId) => emptyTopicNames.get(realmId) ?? 'general chat',
  };
  // In-memory queues are saved to the database across a graceful restart; Redis keeps its own.
  const memoryQueues = redis ? null : new QueueRegistry(events, registryOptions);
  const queues: EventQueues = memoryQueues ?? new RedisQueueRegistry(redis!, events, registryOptions, log);
  // Where delivery is asynchronous (Redis), a response waits until its request's events are in
  // their queues, so the client finds them there whichever process it polls next.
  const settled = queues.settled?.bind(queues);
  const services: Services = { db: database.prisma, config, events, queues };
  await ensureFirstRealm(services, log);
  if (memoryQueues) {
    const restored = await restoreQueues(database.prisma, memoryQueues);
    if (restored) log(`restored ${restored} event queues`);
  }
  const scheduledDelivery = startScheduledDelivery(services, config.scheduledPollMs, log);

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
    graphiql: {
      title: 'Parley GraphiQL',
      defaultQuery: '# Authenticate with HTTP Basic (email:api_key), or call fetchApiKey first.\n{\n  serverSettings { realmName zulipFeatureLevel }\n}\n',
    },
    maskedErrors: { maskError },
    plugins: [useRefusedCredentials()],
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

  // REST requests run through the same envelop pipeline as /graphql: same plugins, same context.
  const executeForRest: Executor = async (document, variables, facts) => {
    const { contextFactory, execute } = yoga.getEnveloped({ facts } as unknown as InitialContext);
    const contextValue = await contextFactory();
    return (await execute({ schema, document, contextValue, variableValues: variables })) as any;
  };

  const app = new Koa();
  app.proxy = true;
  if (settled) {
    app.use(async (_ctx, next) => {
      await next();
      await settled();
    });
  }
  const bodyParser = koaBody({
    multipart: true,
    urlencoded: true,
    json: true,
    text: false,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as any,
    formLimit: '20mb',
    jsonLimit: '20mb',
    formidable: {
      maxFileSize: 25 * 1024 * 1024,
      // A part with a file name but no Content-Type header (the Python client's uploads) is still
      // a file, as Django takes it; formidable would read it as a text field. What the file is,
      // the domain decides from its bytes.
      onPart: (part, handle) => {
        if (part.originalFilename && !part.mimetype) part.mimetype = 'application/octet-stream';
        handle(part);
      },
    },
    onError: () => {},
  });
  const facade = restFacade(schema, executeForRest);
  app.use(async (ctx, next) => {
    if (config.logRequests) log(`${ctx.method} ${ctx.path}`);
    if (ctx.path === '/graphql' || ctx.path.startsWith('/graphql/')) {
      // CSRF: a cross-site HTML form can post urlencoded or multipart bodies without a preflight;
      // GraphQL over HTTP only needs JSON, so nothing else is accepted for POST.
      if (ctx.method === 'POST' && !/^application\/(json|graphql-response\+json)\b/i.test(ctx.get('content-type'))) {
        ctx.status = 415;
        ctx.body = { errors: [{ message: 'POST /graphql takes application/json.', extensions: { code: 'BAD_REQUEST' } }] };
        return;
      }
      const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, {} as any);
      ctx.status = response.status;
      response.headers.forEach((value, key) => ctx.set(key, value));
      ctx.body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      return;
    }
    if (ctx.path.startsWith('/api/v1/') || ctx.path === '/api/v1') {
      try {
        await bodyParser(ctx, async () => {});
      } catch {
        ctx.status = 400;
        ctx.body = { result: 'error', msg: 'Malformed request body', code: 'BAD_REQUEST' };
        return;
      }
      await facade(ctx, next);
      return;
    }
    if (ctx.path === SERVER_EMOJI_DATA_PATH) {
      serveServerEmojiData(ctx);
      return;
    }
    if (EMOJI_IMAGE_PATH.test(ctx.path)) {
      await serveEmojiImage(ctx, database.prisma, config);
      return;
    }
    if (ctx.path === '/' || ctx.path === '/health') {
      ctx.body = { result: 'success', msg: '', server: 'parley', graphql: '/graphql', api: '/api/v1' };
      return;
    }
    ctx.status = 404;
    ctx.body = { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' };
  });

  // Long narrows travel in GET query strings; allow more than Node's 16 KiB of headers.
  const httpServer = http.createServer({ maxHeaderSize: 256 * 1024 }, app.callback());
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  // graphql-ws shares yoga's envelop pipeline, so subscriptions see the same context and rules.
  // Each WebSocket operation gets an abort signal, so a completed or dropped subscription stops
  // waiting on its queue at once.
  const wsAborts = new WeakMap<object, Map<string, AbortController>>();
  const abortsOf = (socketCtx: object) => {
    let map = wsAborts.get(socketCtx);
    if (!map) wsAborts.set(socketCtx, (map = new Map()));
    return map;
  };
  const wsCleanup = useServer(
    {
      // Refused credentials close the socket at connection_init (4403 Forbidden), before any operation.
      onConnect: async (ctx) => {
        const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
        const authorization = (params.authorization as string) ?? (params.Authorization as string) ?? ctx.extra.request.headers.authorization ?? null;
        return !(await refusedCredentials(services, { host: ctx.extra.request.headers.host, authorization }));
      },
      onComplete: (ctx, id) => {
        abortsOf(ctx).get(id)?.abort();
        abortsOf(ctx).delete(id);
      },
      onClose: (ctx) => {
        for (const controller of abortsOf(ctx).values()) controller.abort();
        wsAborts.delete(ctx);
      },
      execute: settled
        ? async (args: any) => {
            const result = await args.rootValue.execute(args);
            await settled();
            return result;
          }
        : (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
        const controller = new AbortController();
        abortsOf(ctx).set(_id, controller);
        const facts: RequestFacts = {
          signal: controller.signal,
          host: ctx.extra.request.headers.host,
          authorization: (params.authorization as string) ?? (params.Authorization as string) ?? ctx.extra.request.headers.authorization ?? null,
          userAgent: ctx.extra.request.headers['user-agent'],
        };
        const { schema: s, execute, subscribe, contextFactory, parse: p, validate: v } = yoga.getEnveloped({ facts } as any);
        const args = {
          schema: s,
          operationName: payload.operationName,
          document: p(payload.query),
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = v(args.schema, args.document);
        if (errors.length) return errors;
        return args as any;
      },
    },
    wsServer,
  );

  return {
    config,
    database,
    events,
    queues,
    httpServer,
    scheduledDelivery,
    listen: (port = config.port, host = '0.0.0.0') =>
      new Promise((resolve) => {
        httpServer.listen(port, host, () => resolve((httpServer.address() as { port: number }).port));
      }),
    close: async () => {
      // Answer waiting long-polls first, then save in-memory queues so clients resume after a
      // restart (queues in Redis outlive this process by themselves).
      queues.close();
      await scheduledDelivery.stop();
      if (memoryQueues) await saveQueues(database.prisma, memoryQueues).catch((error) => log(`could not save event queues: ${error}`));
      await wsCleanup.dispose();
      wsServer.close();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections?.();
      await events.close();
      // Events published by the last requests must reach Redis before the connections close.
      await settled?.();
      await redis?.close();
      await database.close();
    },
  };
}
