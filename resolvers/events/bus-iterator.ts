// Turns bus deliveries into an async iterator for a GraphQL subscription: a small buffer between
// the bus (which never waits) and the subscriber (which reads at its own pace).
import type { Delivery, EventBus } from './bus.ts';

/** What of the deliveries addressed to `viewer` (in their realm) a subscription yields. */
export async function* deliveriesFor<T>(
  bus: EventBus,
  viewer: { realmId: number; id: number },
  pick: (delivery: Delivery) => T | undefined,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const buffer: T[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = bus.subscribeUser(viewer.realmId, viewer.id, (delivery) => {
    const item = pick(delivery);
    if (item === undefined) return;
    buffer.push(item);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    while (!signal.aborted) {
      if (!buffer.length) await new Promise<void>((resolve) => { wake = resolve; });
      wake = null;
      while (buffer.length) yield buffer.shift()!;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs `produce` with a signal that is aborted when the consumer stops (graphql-ws calls `return()`
 * when a client unsubscribes or disconnects) or when `outer` aborts. A generator suspended in an
 * `await` cannot be stopped by `return()` until that await settles, so a subscription waiting for
 * its next event would otherwise hold its queue wait until the next heartbeat.
 */
export function stoppable<T>(produce: (signal: AbortSignal) => AsyncGenerator<T>, outer?: AbortSignal): AsyncIterableIterator<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener('abort', onOuterAbort);
  const inner = produce(controller.signal);
  const stop = () => {
    outer?.removeEventListener('abort', onOuterAbort);
    controller.abort();
  };
  return {
    next: () => inner.next(),
    return: async (value?: unknown) => {
      stop();
      await inner.return(value as never).catch(() => {});
      return { done: true, value: value as never };
    },
    throw: async (error?: unknown) => {
      stop();
      return inner.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
