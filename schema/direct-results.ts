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

/** The streams the fields marked with `resultsAsIs`, by the operation's context (one operation per context). */
const asIs = new WeakMap<object, AsyncIterableIterator<unknown>>();

/**
 * Returns `stream` from a subscription field's `subscribe`, marked as yielding events the field
 * resolves and serializes unchanged (`resolve: (event) => event` to a scalar whose `serialize` is
 * the identity): only such a field may use it.
 */
export function resultsAsIs<T>(ctx: object, stream: AsyncIterableIterator<T>): AsyncIterableIterator<T> {
  asIs.set(ctx, stream);
  return stream;
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
  constructor(private readonly stream: AsyncIterableIterator<unknown>, private readonly key: string) {}

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
        const stream = asIs.get(subscribeArgs.contextValue as object);
        if (!stream || !(Symbol.asyncIterator in (result as object))) return result;
        // graphql-tools' per-event wrapper around `stream` is dropped unread.
        asIs.delete(subscribeArgs.contextValue as object);
        return new AsIsResults(stream, key);
      });
    },
  };
}
