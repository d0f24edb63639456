// The one event system. Domain actions call `publish` after their transaction commits; consumers
// (REST event queues, GraphQL subscriptions) subscribe here. With several server processes the bus
// is bridged over Redis (see resolvers/events/redis/bus.ts), so consumers never care where an event arose.

import type { ParleyEvent } from './kinds.ts';

export type { ParleyEvent } from './kinds.ts';

/** One event addressed to some users of one realm. */
export interface Delivery {
  realmId: number;
  userIds: number[];
  event: ParleyEvent;
  /**
   * Set when the event arose on another server process (redis/bus.ts). Such deliveries arrive
   * JSON-decoded, and shared queues have already received them from the process where they arose.
   */
  remote?: boolean;
}

export type DeliveryListener = (delivery: Delivery) => void;

export interface EventBus {
  publish(realmId: number, userIds: number[], event: ParleyEvent): void;
  /** Every delivery (the queue registry, which finds the addressed queues itself). */
  subscribe(listener: DeliveryListener): () => void;
  /**
   * The deliveries addressed to one user, once each. The bus finds these listeners from the
   * delivery's users, so a thousand live subscriptions cost a delivery nothing unless it names them.
   */
  subscribeUser(realmId: number, userId: number, listener: DeliveryListener): () => void;
  close(): Promise<void>;
}

function notify(listener: DeliveryListener, delivery: Delivery): void {
  try {
    listener(delivery);
  } catch (error) {
    console.error('event listener failed', error);
  }
}

export class LocalEventBus implements EventBus {
  private listeners = new Set<DeliveryListener>();
  /** Listeners of one user's deliveries, by realm and user. */
  private addressed = new Map<number, Map<number, Set<DeliveryListener>>>();

  publish(realmId: number, userIds: number[], event: ParleyEvent): void {
    if (userIds.length === 0) return;
    this.deliver({ realmId, userIds, event });
  }

  /** Hands a delivery to this process's listeners (also called for deliveries from other processes). */
  deliver(delivery: Delivery): void {
    for (const listener of this.listeners) notify(listener, delivery);
    const byUser = this.addressed.get(delivery.realmId);
    if (!byUser) return;
    // Made only when someone listens: a user named twice in a delivery is told once.
    let told: Set<number> | null = null;
    for (const userId of delivery.userIds) {
      const listeners = byUser.get(userId);
      if (!listeners || told?.has(userId)) continue;
      (told ??= new Set()).add(userId);
      for (const listener of listeners) notify(listener, delivery);
    }
  }

  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeUser(realmId: number, userId: number, listener: DeliveryListener): () => void {
    let byUser = this.addressed.get(realmId);
    if (!byUser) this.addressed.set(realmId, (byUser = new Map()));
    let listeners = byUser.get(userId);
    if (!listeners) byUser.set(userId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      // Only the first call acts, and it removes only the containers it created: a later
      // subscription of the same user may have made new ones.
      if (!listeners.delete(listener) || listeners.size) return;
      if (byUser.get(userId) === listeners) byUser.delete(userId);
      if (!byUser.size && this.addressed.get(realmId) === byUser) this.addressed.delete(realmId);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.addressed.clear();
  }
}
