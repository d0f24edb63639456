// Subscription events that are their own GraphQL result. graphql-tools executes the operation
// again for every event (MapSourceToResponseEvent: a per-event execution context, an async
// generator per result and a flattening layer); for a root field that resolves its event as it is
// to a scalar that serializes it as it is (queueEvents: JSON), that execution can only produce
// `{ data: { <response key>: event } }`. An operation that selects just such a field, with no
// directive, gets that result built directly; the subscription's setup (variables, arguments, the
// field's `subscribe`, its errors) still runs through graphql-tools as before, and envelop's
// result hooks (error masking) still see every result.
import { Kind, getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

interface AsIsStream {
  stream: AsyncIterableIterator<unknown>;
  json?: (event: any) => string;
}

/** The streams the fields marked with `resultsAsIs`, by the operation's context (one operation per context). */
const asIs = new WeakMap<object, AsIsStream>();

/**
 * Returns `stream` from a subscription field's `subscribe`, marked as yielding events the field
 * resolves and serializes unchanged (`resolve: (event) => event` to a scalar whose `serialize` is
 * the identity): only such a field may use it. `json`, when given, is JSON.stringify(event) made
 * more cheaply (a fan-out's events share most of their JSON): see `takeDirectStream`.
 */
export function resultsAsIs<T>(ctx: object, stream: AsyncIterableIterator<T>, json?: (event: T) => string): AsyncIterableIterator<T> {
  asIs.set(ctx, { stream, json });
  return stream;
}

/**
 * A subscription whose events a transport may write itself: the stream, the response key its
 * results carry, and the event's JSON. Each result is `{"data":{"<key>":<json(event)>}}`, so a
 * transport that frames results itself (server/websocket.ts) can write that from the stream
 * directly, past the per-result layers of yoga and its own protocol server. Error masking, the one
 * result hook here, has nothing to do: such a result never carries errors.
 */
export interface DirectStream {
  stream: AsyncIterableIterator<unknown>;
  key: string;
  json: (event: any) => string;
}

/** The direct streams made for operations not yet claimed by their transport, by context. */
const direct = new WeakMap<object, DirectStream>();

/**
 * The direct stream subscribing with `contextValue` made, if its field was given a `json`: the
 * caller takes it over (once) and writes its results itself; it still ends the subscription
 * through the iterable `subscribe` returned, which ends this stream.
 */
export function takeDirectStream(contextValue: object): DirectStream | undefined {
  const found = direct.get(contextValue);
  direct.delete(contextValue);
  return found;
}

/** The response key of an operation's only root field, when it has no directive; else null. */
const soleFields = new WeakMap<DocumentNode, Map<string | undefined, string | null>>();

function soleFieldKey(document: DocumentNode, operationName: string | undefined | null): string | null {
  let byName = soleFields.get(document);
  if (!byName) soleFields.set(document, (byName = new Map()));
  const name = operationName ?? undefined;
  let key = byName.get(name);
  if (key === undefined) {
    const selections = getOperationAST(document, operationName)?.selectionSet.selections ?? [];
    const [field] = selections;
    key = selections.length === 1 && field!.kind === Kind.FIELD && !field!.directives?.length ? (field!.alias ?? field!.name).value : null;
    byName.set(name, key);
  }
  return key;
}

/** The events of `stream` as the results per-event execution would have made of them. */
class AsIsResults implements AsyncIterableIterator<{ data: Record<string, unknown> }> {
  constructor(
    private readonly stream: AsyncIterableIterator<unknown>,
    readonly key: string,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<{ data: Record<string, unknown> }>> {
    return this.stream.next().then(this.toResult);
  }

  // Made once per subscription, not per event (tsx names every closure as it is made).
  private readonly toResult = (step: IteratorResult<unknown>): IteratorResult<{ data: Record<string, unknown> }> => {
    if (step.done) return step;
    const data: Record<string, unknown> = {};
    data[this.key] = step.value;
    return { done: false, value: { data } };
  };

  return(): Promise<IteratorResult<{ data: Record<string, unknown> }>> {
    return this.stream.return!().then(() => ({ done: true, value: undefined }));
  }

  throw(error?: unknown): Promise<IteratorResult<{ data: Record<string, unknown> }>> {
    return this.stream.throw!(error).then(() => ({ done: true, value: undefined }));
  }
}

/** The yoga plugin: subscriptions to a field marked with `resultsAsIs` skip per-event execution. */
export function useResultsAsIs(): Plugin {
  return {
    onSubscribe: ({ args, subscribeFn, setSubscribeFn }) => {
      const key = soleFieldKey(args.document, args.operationName);
      if (key == null) return;
      setSubscribeFn(async (subscribeArgs) => {
        const result = await subscribeFn(subscribeArgs);
        const marked = asIs.get(subscribeArgs.contextValue as object);
        if (!marked || !(Symbol.asyncIterator in (result as object))) return result;
        // graphql-tools' per-event wrapper around the stream is dropped unread.
        asIs.delete(subscribeArgs.contextValue as object);
        if (marked.json) direct.set(subscribeArgs.contextValue as object, { stream: marked.stream, key, json: marked.json });
        return new AsIsResults(marked.stream, key);
      });
    },
  };
}
