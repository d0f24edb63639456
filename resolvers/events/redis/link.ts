// This process's two Redis connections: one for commands and scripts, one in subscriber mode (a
// connection that subscribes can run nothing else). Every key and channel starts with the
// deployment's prefix, so several deployments (or parallel test servers) can share one Redis.
import { Redis } from 'ioredis';

type Handler = (message: string) => void;

interface Channel {
  handlers: Set<Handler>;
  /** Settles when Redis has confirmed the SUBSCRIBE: messages published after that reach us. */
  ready: Promise<unknown>;
}

export class RedisLink {
  readonly command: Redis;
  private readonly subscriber: Redis;
  private readonly channels = new Map<string, Channel>();

  private constructor(url: string, readonly prefix: string, log: (line: string) => void) {
    // Both connections reconnect by themselves (and resubscribe); a command issued meanwhile waits
    // in ioredis' offline queue. Errors are logged rather than crashing the process.
    // Auto-pipelining: the commands of one tick leave in one write (a fan-out wakes a thousand
    // polls at once, each reading its queue).
    this.command = new Redis(url, { connectionName: 'parley', enableAutoPipelining: true });
    this.subscriber = new Redis(url, { connectionName: 'parley-sub' });
    let lastError = '';
    const onError = (error: Error) => {
      // A lost connection reports the same error on every retry; say it once.
      if (error.message !== lastError) log(`redis: ${error.message}`);
      lastError = error.message;
    };
    this.command.on('error', onError);
    this.subscriber.on('error', onError);
    this.command.on('ready', () => { lastError = ''; });
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.channels.get(channel)?.handlers ?? []) {
        try {
          handler(message);
        } catch (error) {
          log(`redis message handler failed: ${error}`);
        }
      }
    });
  }

  /** Connects both connections, failing (rather than retrying forever) if Redis is unreachable. */
  static async connect(url: string, prefix: string, log: (line: string) => void): Promise<RedisLink> {
    const link = new RedisLink(url, prefix, log);
    try {
      await Promise.all([link.command.ping(), link.subscriber.ping()]);
    } catch (error) {
      link.command.disconnect();
      link.subscriber.disconnect();
      throw error;
    }
    return link;
  }

  key(name: string): string {
    return this.prefix + name;
  }

  /**
   * Calls `handler` with each message on `channel` until the returned function is called. Resolves
   * once the subscription is in effect. One Redis subscription per channel, however many handlers.
   */
  async subscribe(channel: string, handler: Handler): Promise<() => void> {
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { handlers: new Set(), ready: this.subscriber.subscribe(channel) };
      this.channels.set(channel, entry);
    }
    entry.handlers.add(handler);
    const current = entry;
    const unsubscribe = () => {
      if (!current.handlers.delete(handler) || current.handlers.size) return;
      // Redis runs our SUBSCRIBE/UNSUBSCRIBE in order, so a later subscribe to the same channel
      // (a new entry) still ends subscribed.
      if (this.channels.get(channel) === current) this.channels.delete(channel);
      this.subscriber.unsubscribe(channel).catch(() => {});
    };
    try {
      await current.ready;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  async close(): Promise<void> {
    this.channels.clear();
    await Promise.all([this.command.quit().catch(() => {}), this.subscriber.quit().catch(() => {})]);
  }
}
