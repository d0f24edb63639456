// Per-organization caches of data read on hot paths and rarely changed (linkifiers, alert words):
// each is forgotten when an event that changes its data is published, in this process or, through
// the Redis bus, in another one. The TTL is only a backstop. Entries are keyed by realm alone: a
// server process serves one database.
import type { EventBus } from './events/bus.ts';
import type { EventType } from './events/kinds.ts';
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { Db } from '../prisma/database.ts';

type Reader = Db | Prisma.TransactionClient;

const caches = new Set<RealmCache<unknown>>();

export class RealmCache<T> {
  private readonly entries = new Map<number, { value: Promise<T>; until: number }>();

  constructor(
    /** The event types that change the cached data. */
    readonly invalidatedBy: readonly EventType[],
    private readonly load: (db: Reader, realmId: number) => Promise<T>,
    private readonly ttlMs = 10_000,
  ) {
    caches.add(this as RealmCache<unknown>);
  }

  get(db: Reader, realmId: number): Promise<T> {
    const cached = this.entries.get(realmId);
    if (cached && cached.until > Date.now()) return cached.value;
    const value = this.load(db, realmId);
    this.entries.set(realmId, { value, until: Date.now() + this.ttlMs });
    // A failed load is not kept.
    value.catch(() => this.entries.delete(realmId));
    return value;
  }

  forget(realmId: number): void {
    this.entries.delete(realmId);
  }
}

/** Forgets the caches an event invalidates; returns the unsubscribe function. */
export function forgetCachesOnEvents(bus: EventBus): () => void {
  return bus.subscribe(({ realmId, event }) => {
    for (const cache of caches) if (cache.invalidatedBy.includes(event.type)) cache.forget(realmId);
  });
}
