// The event bus's listeners of one user's deliveries (the GraphQL subscriptions newMessages and
// typingNotifications): found from the delivery's users, each told once, none across realms.
import { describe, expect, it } from 'vitest';
import { LocalEventBus, type Delivery } from '../../resolvers/events/bus.ts';

const event = { type: 'heartbeat' } as const;

describe('EventBus.subscribeUser', () => {
  it('hears the deliveries that name its user in its realm, once each, until it unsubscribes', () => {
    const bus = new LocalEventBus();
    const heard: Delivery[] = [];
    const stop = bus.subscribeUser(1, 7, (delivery) => heard.push(delivery));
    const everything: Delivery[] = [];
    bus.subscribe((delivery) => everything.push(delivery));

    bus.publish(1, [5, 7, 9], event);
    bus.publish(1, [7, 7], event);
    bus.publish(1, [5, 9], event);
    bus.publish(2, [7], event);
    expect(heard.map((d) => [d.realmId, d.userIds])).toEqual([[1, [5, 7, 9]], [1, [7, 7]]]);
    expect(everything).toHaveLength(4);

    stop();
    bus.publish(1, [7], event);
    expect(heard).toHaveLength(2);
  });

  it('keeps the other listeners of the same user when one leaves, and a failing listener stops no other', () => {
    const bus = new LocalEventBus();
    const first: number[] = [];
    const second: number[] = [];
    const stopFirst = bus.subscribeUser(1, 7, () => first.push(1));
    bus.subscribeUser(1, 7, () => { throw new Error('listener failed on purpose'); });
    bus.subscribeUser(1, 7, () => second.push(1));
    bus.publish(1, [7], event);
    stopFirst();
    bus.publish(1, [7], event);
    expect(first).toEqual([1]);
    expect(second).toEqual([1, 1]);
  });
});

describe('EventBus.subscribeUser unsubscribing', () => {
  it('acts once: a second call leaves a later subscription of the same user listening', () => {
    const bus = new LocalEventBus();
    const stopFirst = bus.subscribeUser(1, 7, () => {});
    stopFirst();
    const heard: number[] = [];
    bus.subscribeUser(1, 7, () => heard.push(1));
    stopFirst();
    bus.publish(1, [7], event);
    expect(heard).toEqual([1]);
  });

  it('hears nothing once the bus is closed', async () => {
    const bus = new LocalEventBus();
    const heard: number[] = [];
    bus.subscribeUser(1, 7, () => heard.push(1));
    await bus.close();
    bus.publish(1, [7], event);
    expect(heard).toEqual([]);
  });
});
