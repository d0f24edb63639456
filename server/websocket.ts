// GraphQL subscriptions (and queries) over graphql-ws at /graphql, through yoga's envelop pipeline so
// they see the same context, plugins and rules as HTTP requests.
//
// graphql-ws's protocol server (`makeServer`) runs over sockets of our own rather than its `ws`
// adapter (graphql-ws/use/ws), for the fan-out's sake: one event reaches a thousand subscriptions
// at once, and per frame that adapter made a promise waiting on the socket's write callback. Here a
// frame waits for its write only when the socket is behind (bufferedAmount). A subscription whose
// results are its events as they are (schema/direct-results.ts, queueEvents) has its frames
// written here from its stream and the event's shared JSON: graphql-ws's loop (several promise
// hops and a serialization of the whole event per frame) and yoga's per-result layers only see it
// start and end.
import { WebSocketServer, type WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import { CloseCode, handleProtocols, makeServer } from 'graphql-ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { toGraphQLError } from '../schema/errors.ts';
import { takeDirectStream, type DirectStream } from '../schema/direct-results.ts';
import { refusedCredentials, type RequestFacts, type Services } from './context.ts';
import { limitRequest } from './gate.ts';

export interface GraphQLWebSocket {
  wsServer: WebSocketServer;
  close(): Promise<void>;
}

/** What graphql-ws's context carries for each connection (`ctx.extra`). */
interface Extra {
  socket: WebSocket;
  request: IncomingMessage;
}

/** Pings every this often; a socket that has not answered the previous ping by then is dropped. */
const KEEP_ALIVE_MS = 12_000;

/**
 * The largest message a client may send. GraphQL operations over the socket carry no uploads, and the
 * first message (connection_init) comes before any credentials: `ws` would otherwise buffer up to
 * 100 MiB of it. A larger message closes the socket with 1009.
 */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * A socket with this much not yet handed to the kernel makes each subscription wait for its frame's
 * write: what a slow reader costs the server stays near this per socket (a thousand slow mobile
 * readers: ~64 MiB), while a fan-out's frame (under 1 KiB) never waits on a reader that keeps up.
 */
const BEHIND_BYTES = 64 * 1024;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function graphqlWebSocket(services: Services, yoga: YogaServerInstance<any, any>, settled: (() => Promise<void>) | undefined): GraphQLWebSocket {
  // The WebSocket server is not attached to the HTTP server: that would hand it the HTTP server's
  // errors (a port in use), which graphql-ws reports as an internal error of its own.
  const wsServer = new WebSocketServer({ noServer: true, path: '/graphql', handleProtocols, maxPayload: MAX_MESSAGE_BYTES });
  // Each WebSocket operation gets an abort signal, so a completed or dropped subscription stops
  // waiting on its queue at once.
  const wsAborts = new WeakMap<object, Map<string, AbortController>>();
  const abortsOf = (socketCtx: object) => {
    let map = wsAborts.get(socketCtx);
    if (!map) wsAborts.set(socketCtx, (map = new Map()));
    return map;
  };
  const protocol = makeServer<Record<string, unknown> | undefined, Extra>({
    // Refused credentials close the socket at connection_init (4403 Forbidden), before any operation.
    onConnect: async (ctx) => {
      const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
      const authorization = (params.authorization as string) ?? (params.Authorization as string) ?? ctx.extra.request.headers.authorization ?? null;
      return !(await refusedCredentials(services, { host: ctx.extra.request.headers.host, authorization }));
    },
    // A result without errors is the payload as it is (graphql-ws would otherwise build the payload
    // with two spreads per event, V8's slow path in Node 20).
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
    subscribe: async (args: any) => {
      const result = await args.rootValue.subscribe(args);
      const stream = takeDirectStream(args.contextValue);
      return stream ? new DirectFrames(result, stream, args.rootValue.socket, args.rootValue.id) : result;
    },
    onSubscribe: async (ctx, id, payload) => {
      const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
      const controller = new AbortController();
      abortsOf(ctx).set(id, controller);
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
      // A syntax error answers its operation, as over HTTP: thrown, graphql-ws would close the whole
      // socket (4500) and end the caller's other subscriptions with it.
      let document;
      try {
        document = p(payload.query);
      } catch (error) {
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
      const args = {
        schema: s,
        operationName: payload.operationName,
        document,
        variableValues: payload.variables,
        contextValue: await contextFactory(),
        rootValue: { execute, subscribe, socket: ctx.extra.socket, id },
      };
      const errors = v(args.schema, args.document);
      if (errors.length) return errors;
      return args as any;
    },
  });

  wsServer.on('error', (error) => {
    console.error('[parley] WebSocket server error:', error);
    for (const client of wsServer.clients) client.close(CloseCode.InternalServerError, 'Internal server error');
  });
  wsServer.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.once('error', (error: Error & { code?: string }) => {
      // `ws` reports a client's malformed or oversized frame as WS_ERR_… and closes the socket itself.
      if (error.code?.startsWith('WS_ERR_')) return;
      console.error('[parley] WebSocket error:', error);
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
    let answered = true;
    socket.on('pong', () => { answered = true; });
    const keepAlive = setInterval(() => {
      if (!answered) return socket.terminate();
      answered = false;
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = protocol.opened(
      {
        protocol: socket.protocol,
        send: (data) => {
          if (socket.readyState !== socket.OPEN) return;
          return sendFrame(socket, data);
        },
        // graphql-ws puts a client's operation ID in some reasons ("Subscriber for <id> already
        // exists"); ws throws on a reason over 123 bytes, which would turn the close into a 4500.
        close: (code, reason) => socket.close(code, closeReason(reason)),
        onMessage: (handle) => socket.on('message', async (message) => {
          try {
            await handle(String(message));
          } catch (error) {
            console.error('[parley] graphql-ws message handling failed:', error);
            socket.close(CloseCode.InternalServerError, 'Internal server error');
          }
        }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      clearInterval(keepAlive);
      void closed(code, String(reason));
    });
  });
  return {
    wsServer,
    close: async () => {
      for (const client of wsServer.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/** `reason` cut to the 123 bytes a WebSocket close frame has room for. */
export function closeReason(reason = ''): string {
  if (Buffer.byteLength(reason) <= 123) return reason;
  let cut = reason.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Sends `frame`; on a socket this far behind, the promise of its write, which holds the
 * subscription's next frames back until it is written.
 */
function sendFrame(socket: WebSocket, frame: string): Promise<void> | undefined {
  if (socket.bufferedAmount < BEHIND_BYTES) return void socket.send(frame);
  return new Promise<void>((resolve, reject) => socket.send(frame, (error) => (error ? reject(error) : resolve())));
}

/**
 * A direct subscription as graphql-ws sees it: an iterable that yields nothing and ends when the
 * stream does (graphql-ws then sends `complete`), while its frames go from the stream to the
 * socket, each `{"id":…,"type":"next","payload":{"data":{"<key>":<event>}}}`, as graphql-ws would
 * have written them. `return()` (the client's `complete`, a closed socket) ends the stream through
 * the iterable subscribing returned, so yoga's layers end as they began.
 */
class DirectFrames implements AsyncIterableIterator<never> {
  private readonly prefix: string;
  private ended: Promise<IteratorResult<never>> | null = null;

  constructor(
    private readonly subscribed: AsyncIterableIterator<unknown>,
    private readonly direct: DirectStream,
    private readonly socket: WebSocket,
    id: string,
  ) {
    this.prefix = `{"id":${JSON.stringify(id)},"type":"next","payload":{"data":{${JSON.stringify(direct.key)}:`;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<never>> {
    return (this.ended ??= this.pump());
  }

  private async pump(): Promise<IteratorResult<never>> {
    const { stream, json } = this.direct;
    const { socket, prefix } = this;
    try {
      for (let step = await stream.next(); !step.done; step = await stream.next()) {
        if (socket.readyState !== socket.OPEN) break;
        const written = sendFrame(socket, `${prefix}${json(step.value)}}}}`);
        if (written) await written;
      }
    } finally {
      // Whatever ended the pump (the stream, a closed socket, an error) ends the subscription's layers.
      await this.subscribed.return?.();
    }
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<never>> {
    await this.subscribed.return?.();
    return { done: true, value: undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<never>> {
    await this.subscribed.return?.();
    throw error;
  }
}
