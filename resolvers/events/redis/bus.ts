// The event bus across server processes: every delivery published on any process reaches every
// process's listeners (typed GraphQL subscriptions, anything added later). Local listeners hear it
// at once, as with LocalEventBus; other processes hear it over one pub/sub channel, marked
// `remote` so the shared queues (redis/registry.ts) do not append it a second time.
import { randomBytes } from 'node:crypto';
import { LocalEventBus, type ParleyEvent } from '../bus.ts';
import type { RedisLink } from './link.ts';

interface Envelope {
  origin: string;
  realmId: number;
  userIds: number[];
  event: ParleyEvent;
}

export class RedisEventBus extends LocalEventBus {
  /** Tells this process's own messages apart: Redis echoes them to every subscriber, us included. */
  private readonly origin = randomBytes(8).toString('hex');
  private readonly channel: string;
  private unsubscribe: (() => void) | null = null;

  private constructor(private readonly link: RedisLink, private readonly log: (line: string) => void) {
    super();
    this.channel = link.key('bus');
  }

  static async start(link: RedisLink, log: (line: string) => void): Promise<RedisEventBus> {
    const bus = new RedisEventBus(link, log);
    bus.unsubscribe = await link.subscribe(bus.channel, (message) => bus.receive(message));
    return bus;
  }

  override publish(realmId: number, userIds: number[], event: ParleyEvent): void {
    if (userIds.length === 0) return;
    this.deliver({ realmId, userIds, event });
    const envelope: Envelope = { origin: this.origin, realmId, userIds, event };
    this.link.command.publish(this.channel, JSON.stringify(envelope))
      .catch((error) => this.log(`could not bridge a ${event.type} event to other processes: ${error}`));
  }

  private receive(message: string): void {
    const envelope = JSON.parse(message) as Envelope;
    if (envelope.origin === this.origin) return;
    this.deliver({ realmId: envelope.realmId, userIds: envelope.userIds, event: envelope.event, remote: true });
  }

  override async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await super.close();
  }
}
