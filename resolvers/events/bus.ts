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
  subscribe(listener: DeliveryListener): () => void;
  close(): Promise<void>;
}

export class LocalEventBus implements EventBus {
  private listeners = new Set<DeliveryListener>();

  publish(realmId: number, userIds: number[], event: ParleyEvent): void {
    if (userIds.length === 0) return;
    this.deliver({ realmId, userIds, event });
  }

  /** Hands a delivery to this process's listeners (also called for deliveries from other processes). */
  deliver(delivery: Delivery): void {
    for (const listener of this.listeners) {
      try {
        listener(delivery);
      } catch (error) {
        console.error('event listener failed', error);
      }
    }
  }

  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
