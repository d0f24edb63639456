// GraphQL subscriptions (and queries) over graphql-ws at /graphql, through yoga's envelop pipeline so
// they see the same context, plugins and rules as HTTP requests.
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { toGraphQLError } from '../schema/errors.ts';
import { refusedCredentials, type RequestFacts, type Services } from './context.ts';
import { limitRequest } from './gate.ts';

export interface GraphQLWebSocket {
  wsServer: WebSocketServer;
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function graphqlWebSocket(services: Services, yoga: YogaServerInstance<any, any>, settled: (() => Promise<void>) | undefined): GraphQLWebSocket {
  // The WebSocket server is not attached to the HTTP server: that would hand it the HTTP server's
  // errors (a port in use), which graphql-ws reports as an internal error of its own.
  const wsServer = new WebSocketServer({ noServer: true, path: '/graphql' });
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
      // A result without errors is the payload as it is: graphql-ws would otherwise build the payload
      // with two spreads per event (V8's slow path for spreads in Node 20); the object rest it does
      // before calling onNext remains.
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? undefined : result),
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
        // Each operation counts as a request against the caller's rate limit.
        const limited = await limitRequest(services, facts, ctx.extra.request.socket.remoteAddress ?? '');
        if (limited) return [toGraphQLError(limited)];
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
    wsServer,
    close: async () => {
      await wsCleanup.dispose();
      wsServer.close();
    },
  };
}
