// The Redis-backed queues (resolvers/events/redis/) without HTTP: two registries on their own
// connections stand for two processes publishing at once. IDs are allocated with the append, so
// they stay consecutive and match list order, and each publisher's events keep their order.
// Needs TEST_REDIS_URL; skipped otherwise.
import type { ParleyEvent } from '../../resolvers/events/kinds.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEventBus } from '../../resolvers/events/bus.ts';
import type { QueueOptions } from '../../resolvers/events/queue.ts';
import { RedisLink } from '../../resolvers/events/redis/link.ts';
import { RedisQueueRegistry } from '../../resolvers/events/redis/registry.ts';
import { dropRedisKeys, uniqueRedisPrefix } from '../support/redis.ts';

/** An event of a kind no area declares: the queues deliver untailored kinds as they are. */
const testEvent = (fields: Record<string, unknown>) => fields as unknown as ParleyEvent;

const redisUrl = process.env.TEST_REDIS_URL;
const prefix = uniqueRedisPrefix('unit');
const OPTIONS: QueueOptions = {
  eventTypes: null, narrow: [], applyMarkdown: false, clientGravatar: false, allPublicStreams: false, capabilities: {}, idleTimeoutSecs: 60,
};

interface Process { link: RedisLink; bus: LocalEventBus; queues: RedisQueueRegistry }
let one: Process;
let two: Process;

async function startProcess(): Promise<Process> {
  const link = await RedisLink.connect(redisUrl!, prefix, () => {});
  const bus = new LocalEventBus();
  const queues = new RedisQueueRegistry(link, bus, { heartbeatMs: 500, gcIntervalMs: 60_000, emptyTopicDisplayName: () => 'general chat' }, () => {});
  return { link, bus, queues };
}

describe.skipIf(!redisUrl)('Event queues in Redis', () => {
  beforeAll(async () => {
    one = await startProcess();
    two = await startProcess();
  });
  afterAll(async () => {
    for (const p of [one, two]) {
      p?.queues.close();
      await p?.bus.close();
      await p?.link.close();
    }
    await dropRedisKeys(redisUrl!, prefix);
  });

  it('numbers concurrent appends from two processes consecutively, each publisher in order', async () => {
    const queue = await one.queues.register(1, 7, OPTIONS);
    for (let i = 0; i < 200; i++) {
      one.bus.publish(1, [7], testEvent({ type: 'test', from: 'one', n: i }));
      two.bus.publish(1, [7], testEvent({ type: 'test', from: 'two', n: i }));
    }
    await Promise.all([one.queues.settled(), two.queues.settled()]);
    const events = await two.queues.fetch(await two.queues.get(queue.id, 7), null, true);
    expect(events.map((e) => e.id)).toEqual([...Array(400).keys()]);
    for (const from of ['one', 'two']) {
      expect(events.filter((e) => e.from === from).map((e) => e.n)).toEqual([...Array(200).keys()]);
    }
    // Acknowledging through either process trims the one list.
    expect((await one.queues.fetch(queue, 389, true)).map((e) => e.id)).toEqual([390, 391, 392, 393, 394, 395, 396, 397, 398, 399]);
    expect(await two.queues.fetch(queue, 399, true)).toEqual([]);
  });

  it('delivers only to the addressed users\' queues in the delivery\'s realm, shaped per queue', async () => {
    const mine = await one.queues.register(1, 8, { ...OPTIONS, eventTypes: ['wanted'] });
    const otherRealm = await two.queues.register(2, 8, OPTIONS);
    const otherUser = await two.queues.register(1, 9, OPTIONS);
    one.bus.publish(1, [8], testEvent({ type: 'unwanted' }));
    one.bus.publish(1, [8], testEvent({ type: 'wanted' }));
    await one.queues.settled();
    expect(await two.queues.fetch(mine, null, true)).toEqual([{ type: 'wanted', id: 0 }]);
    expect(await one.queues.fetch(otherRealm, null, true)).toEqual([]);
    expect(await one.queues.fetch(otherUser, null, true)).toEqual([]);
  });

  it('answers every poll one delivery wakes, each with its own queue\'s events, and a poll whose queue went with none', async () => {
    const queues = await Promise.all([11, 12, 13].map((user) => one.queues.register(1, user, OPTIONS)));
    const gone = await one.queues.register(1, 14, OPTIONS);
    // An event the poll acknowledges: it waits for the next one (that event's wake-up, if it comes
    // late, does not end the wait with a heartbeat).
    two.bus.publish(1, [11], testEvent({ type: 'test', n: 0 }));
    await two.queues.settled();
    const polls = queues.map((queue, i) => two.queues.fetch(queue, i === 0 ? 0 : null, false));
    const gonePoll = two.queues.fetch(gone, null, false);
    await new Promise((r) => setTimeout(r, 100));
    await one.queues.delete(gone);
    one.bus.publish(1, [11, 12, 13], testEvent({ type: 'test', n: 1 }));
    expect(await Promise.all(polls)).toEqual([[{ type: 'test', n: 1, id: 1 }], [{ type: 'test', n: 1, id: 0 }], [{ type: 'test', n: 1, id: 0 }]]);
    expect(await gonePoll).toEqual([]);
  });

  it('keeps a queue someone waits on through idle collection, and collects it afterwards', async () => {
    await one.queues.collectIdle(Date.now() + 120_000); // the earlier tests' queues
    const queue = await one.queues.register(1, 10, OPTIONS);
    const controller = new AbortController();
    const waiting = two.queues.fetch(queue, null, false, controller.signal);
    await new Promise((r) => setTimeout(r, 100));
    expect(await two.queues.collectIdle(Date.now() + 120_000)).toBe(0);
    controller.abort();
    expect(await waiting).toEqual([]);
    expect(await one.queues.collectIdle(Date.now() + 120_000)).toBe(1);
    await expect(two.queues.get(queue.id, 10)).rejects.toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });
});
