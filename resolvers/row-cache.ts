// Rows read by every request of the hottest endpoints and rarely changed (who an API key belongs
// to; a channel and its subscribers), remembered between requests. Entries are forgotten
//  - in this process, on any write to the rows' tables through its Prisma client (prisma/
//    database.ts `writes`), so nothing written here is missed, events or not;
//  - in every process, when an organization publishes any event but the frequent ones that change
//    no such row (a message, a reaction, typing…), here or through the Redis bus. Role, e-mail,
//    deactivation, subscription and channel changes all publish events, after their transaction
//    commits, when a new lookup sees the new rows; the few writes without a Zulip event publish
//    `rows_changed`, which no client ever sees.
// The TTL only bounds what neither reaches (`manage.ts` writing to the database of a running server,
// a change announced to nobody).
import type { EventBus } from './events/bus.ts';
import { tailorEvents, type EventType } from './events/kinds.ts';
import type { WriteSignal } from '../prisma/database.ts';

declare module './events/kinds.ts' {
  interface EventKinds {
    /** Internal: rows changed where no Zulip event says so (no queue receives it). */
    rows_changed: { type: 'rows_changed'; user_id: number };
  }
}
tailorEvents('rows_changed', () => []);

/** Announces a change to a user's rows that no Zulip event announces (a new API key, a new password). */
export function announceRowsChange(events: EventBus, realmId: number, userId: number): void {
  events.publish(realmId, [userId], { type: 'rows_changed', user_id: userId });
}

/** Events that change none of the cached rows: the hot paths' own, which must not empty the caches. */
const KEEPS_ENTRIES: ReadonlySet<string> = new Set([
  'heartbeat', 'message', 'update_message', 'delete_message', 'update_message_flags', 'reaction', 'submessage',
  'typing', 'typing_edit_message', 'presence', 'attachment', 'drafts', 'user_topic',
] satisfies EventType[]);

interface Entry<V> {
  value: Promise<V | null>;
  until: number;
  /** The organization of the row, once loaded. */
  realmId: number | null;
}

export class RowCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped by every invalidation: a lookup that began before one is not kept. */
  private generation = 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    bus: EventBus,
    writes: WriteSignal,
    private readonly realmOf: (value: V) => number,
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {
    this.stops.push(
      bus.subscribe(({ realmId, event }) => { if (!KEEPS_ENTRIES.has(event.type)) this.forgetRealm(realmId); }),
      writes.subscribe(() => this.forgetAll()),
    );
  }

  /** The cached value for `key`, or `load`'s (kept unless null: a miss costs a lookup each time). */
  get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.until > now) return cached.value;
    const generation = this.generation;
    const value = load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const entry: Entry<V> = { value, until: now + this.ttlMs, realmId: null };
    this.entries.set(key, entry);
    const drop = () => { if (this.entries.get(key) === entry) this.entries.delete(key); };
    value.then((found) => {
      if (found == null || generation !== this.generation) drop();
      else entry.realmId = this.realmOf(found);
    }, drop);
    return value;
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  forgetRealm(realmId: number): void {
    this.generation++;
    // Entries still loading have no organization yet; the generation keeps them out.
    for (const [key, entry] of this.entries) if (entry.realmId === realmId || entry.realmId === null) this.entries.delete(key);
  }

  close(): void {
    for (const stop of this.stops) stop();
    this.entries.clear();
  }
}
