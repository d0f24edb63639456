// Event queues kept in Redis, shared by every server process: typed calls over the key layout and
// scripts described in scripts.ts. No waiting and no shaping here; see registry.ts for those.
import type { WireEvent } from '../kinds.ts';
import { decodeQueueOptions, encodeQueueOptions, queuedEvent, type QueueOptions, type QueuedEvent } from '../queue.ts';
import type { QueueHandle } from '../queues.ts';
import { SCRIPTS, type ScriptName } from './scripts.ts';
import type { RedisLink } from './link.ts';

/** A queue as stored: everything but what only a process knows (its waiters). */
export type StoredQueue = Omit<QueueHandle, 'waiting'>;

/** A queue a delivery reaches, with what shaping needs. */
export interface QueueTarget {
  id: string;
  userId: number | null;
  options: QueueOptions;
}

type Arg = string | number;

/** A read's reply as queued events; `parsed` holds the events already parsed, by their JSON. */
function queuedEvents([first, raw]: [number, string[]], parsed: Map<string, WireEvent>): QueuedEvent[] {
  return raw.map((json, i) => {
    let event = parsed.get(json);
    if (event === undefined) parsed.set(json, (event = JSON.parse(json) as WireEvent));
    return queuedEvent(event, first + i, json);
  });
}

export class RedisQueueStore {
  private readonly prefix: string;

  constructor(private readonly link: RedisLink) {
    this.prefix = link.prefix;
    // defineCommand runs scripts by SHA and reloads them if Redis lost them (restart, SCRIPT FLUSH).
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      if (!(name in link.command)) link.command.defineCommand(name, { lua, numberOfKeys: 0 });
    }
  }

  private run(name: ScriptName, ...args: Arg[]): Promise<unknown> {
    return (this.link.command as unknown as Record<ScriptName, (...a: Arg[]) => Promise<unknown>>)[name](this.prefix, ...args);
  }

  private meta(id: string): string {
    return `${this.prefix}q:${id}`;
  }

  /** The pub/sub channel announcing which queues got new events or were deleted (IDs, space-separated). */
  get wakeChannel(): string {
    return `${this.prefix}wake`;
  }

  async create(queue: StoredQueue, now: number): Promise<void> {
    const idleMs = queue.options.idleTimeoutSecs * 1000;
    const meta = this.meta(queue.id);
    const tx = this.link.command.multi()
      .hset(meta, { realm: queue.realmId, user: queue.userId ?? '', options: encodeQueueOptions(queue.options), idle: idleMs, next: 0 })
      .pexpire(meta, 2 * idleMs)
      .zadd(`${this.prefix}expiry`, now + idleMs, queue.id);
    if (queue.userId != null) tx.sadd(`${this.prefix}u:${queue.userId}`, queue.id);
    if (queue.options.allPublicStreams) tx.sadd(`${this.prefix}public:${queue.realmId}`, queue.id);
    const results = await tx.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('could not register the event queue in Redis');
  }

  async get(id: string): Promise<StoredQueue | null> {
    const [realm, user, options, next] = await this.link.command.hmget(this.meta(id), 'realm', 'user', 'options', 'next');
    const decoded = options == null ? null : decodeQueueOptions(options);
    if (realm == null || decoded == null) return null;
    return { id, realmId: Number(realm), userId: user ? Number(user) : null, options: decoded, lastEventId: Number(next) - 1 };
  }

  /**
   * Marks the queue as used now, drops events up to `acknowledge` (if given) and answers the
   * events after `afterId`; null if the queue does not exist.
   */
  async read(id: string, now: number, acknowledge: number | null, afterId: number): Promise<QueuedEvent[] | null> {
    const reply = (await this.run('parleyQueueRead', id, now, acknowledge ?? '', afterId)) as [number, string[]] | null;
    if (!reply) return null;
    return queuedEvents(reply, new Map());
  }

  /**
   * `read` for several queues at once (acknowledging nothing), in one call: the answers in the
   * order asked, null for queues that do not exist.
   */
  async readMany(reads: readonly { queueId: string; afterId: number }[], now: number): Promise<(QueuedEvent[] | null)[]> {
    const args: Arg[] = [];
    for (const { queueId, afterId } of reads) args.push(queueId, afterId);
    const replies = (await this.run('parleyQueueReadMany', now, ...args)) as ([number, string[]] | null)[];
    // The queues of one shape hold the same JSON: parsed once.
    const parsed = new Map<string, WireEvent>();
    return replies.map((reply) => (reply ? queuedEvents(reply, parsed) : null));
  }

  /** The queues a delivery reaches: its users' queues in the realm, and all_public_streams ones. */
  async targets(realmId: number, userIds: number[], includePublic: boolean): Promise<QueueTarget[]> {
    const flat = (await this.run('parleyQueueTargets', realmId, includePublic ? '1' : '0', ...userIds)) as string[];
    const targets: QueueTarget[] = [];
    for (let i = 0; i < flat.length; i += 3) {
      const options = decodeQueueOptions(flat[i + 2]!);
      // A queue saved in another format is gone for its client, which registers again.
      if (options) targets.push({ id: flat[i]!, userId: flat[i + 1] ? Number(flat[i + 1]) : null, options });
    }
    return targets;
  }

  /** Appends events (queue ID, event) in order; answers their IDs, -1 for queues that are gone. */
  async append(items: [string, WireEvent][]): Promise<number[]> {
    if (!items.length) return [];
    // Queues of one shape share their events (kinds.ts Tailoring): each is serialized once.
    const json = new Map<WireEvent, string>();
    const serialized = (event: WireEvent) => {
      let text = json.get(event);
      if (text === undefined) json.set(event, (text = JSON.stringify(event)));
      return text;
    };
    return (await this.run('parleyQueueAppend', ...items.flatMap(([id, event]) => [id, serialized(event)]))) as number[];
  }

  async push(id: string, event: WireEvent): Promise<QueuedEvent | null> {
    const [eventId] = await this.append([[id, event]]);
    return eventId == null || eventId < 0 ? null : queuedEvent(event, eventId);
  }

  async touch(ids: string[], now: number): Promise<void> {
    if (ids.length) await this.run('parleyQueueTouch', now, ...ids);
  }

  /** IDs of the user's queues (possibly including some already gone). */
  async userQueueIds(userId: number): Promise<string[]> {
    return this.link.command.smembers(`${this.prefix}u:${userId}`);
  }

  /** How many queues the user has, and the soonest time one of them becomes idle. */
  async userQueues(userId: number): Promise<{ count: number; nextExpiry: number | null }> {
    const ids = await this.userQueueIds(userId);
    if (!ids.length) return { count: 0, nextExpiry: null };
    const scores = (await this.link.command.zmscore(`${this.prefix}expiry`, ...ids)).filter((s): s is string => s != null).map(Number);
    return { count: scores.length, nextExpiry: scores.length ? Math.min(...scores) : null };
  }

  async delete(id: string): Promise<boolean> {
    return (await this.run('parleyQueueDelete', id)) === 1;
  }

  /** Removes queues idle at `now`, except `keep`; answers how many. */
  async collect(now: number, keep: string[]): Promise<number> {
    return (await this.run('parleyQueueCollect', now, ...keep)) as number;
  }
}
