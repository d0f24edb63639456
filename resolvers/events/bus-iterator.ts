// Turns bus deliveries into an async iterator for a GraphQL subscription: a small buffer between
// the bus (which never waits) and the subscriber (which reads at its own pace).
import type { Delivery, EventBus } from './bus.ts';

export async function* deliveriesFor<T>(
  bus: EventBus,
  pick: (delivery: Delivery) => T | undefined,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const buffer: T[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = bus.subscribe((delivery) => {
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
