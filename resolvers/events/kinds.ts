// The kinds of event Parley publishes, as one typed union, and how each kind is tailored to a queue.
//
// Each area declares its own event kinds beside the actions that publish them, by adding to
// `EventKinds` (TypeScript interface merging: `declare module '../events/kinds.ts'`), and registers
// how a queue sees them with `tailorEvents`. So the union grows with the areas, a publish call with
// a misspelled field does not compile, and the per-queue rules of a kind live next to the kind.
//
// Events carry Zulip's wire fields (snake_case) plus, where a queue's capabilities decide the final
// form, internal fields the tailoring step turns into what that queue receives.
import type { QueueOptions } from './queue.ts';
import { topicForClient } from '../messages/topics.ts';

/** Every event kind, by its `type`. Areas add theirs (see the header). */
export interface EventKinds {
  heartbeat: { type: 'heartbeat' };
}

/** One published event: any kind an area declared. */
export type ParleyEvent = EventKinds[keyof EventKinds];
export type EventType = keyof EventKinds;
export type EventOf<T extends EventType> = EventKinds[T];

/** An event kind's body: what an area's helper adds the `type` to. */
export type EventBody<E> = E extends unknown ? Omit<E, 'type'> : never;

/** An event as a queue receives it: Zulip's wire form (the queue adds its `id`). */
export type WireEvent = { type: string } & Record<string, unknown>;

/** The queue an event is being tailored for. */
export interface QueueView {
  /** The queue's ID (the sender's own queue gets `local_message_id` on its message event). */
  queueId: string;
  /** The queue's user; null for a spectator. */
  userId: number | null;
  options: QueueOptions;
  /** The realm's empty-topic display name, for clients without the `empty_topic_name` capability. */
  emptyTopicDisplayName: string;
}

/** How one queue sees one event: none, one or several wire events. */
export type Tailor<E> = (event: E, queue: QueueView) => WireEvent[];

/**
 * What a kind's tailored form depends on, as a key: queues with equal keys get the same events, so
 * one delivery tailors (and serializes, see queue.ts eventJson) them once for all those queues. It
 * must cover everything the tailor reads of the queue; null when this queue's form is its own.
 */
export type ShapeKey<E> = (event: E, queue: QueueView) => string | null;

interface KindTailoring {
  tailor: Tailor<any>;
  shapeKey?: ShapeKey<any>;
}

const tailors = new Map<string, KindTailoring>();

/**
 * Declares how queues see events of one kind; kinds without a tailor reach every queue as published.
 * With `shapeKey`, queues of one shape share the tailored events of a delivery (a fan-out to a
 * thousand queues tailors a message once per combination of capabilities and flags, not a thousand
 * times); the shared events are never modified afterwards.
 */
export function tailorEvents<T extends EventType>(type: T, tailor: Tailor<EventOf<T>>, shapeKey?: ShapeKey<EventOf<T>>): void {
  if (tailors.has(type)) throw new Error(`events of type ${type} are tailored twice`);
  tailors.set(type, { tailor, shapeKey });
}

export function wantsType(options: QueueOptions, type: string): boolean {
  return options.eventTypes === null || options.eventTypes.includes(type) || type === 'heartbeat';
}

/** The events (zero, one or several) a queue gets for `event`. */
export function tailorForQueue(event: ParleyEvent, queue: QueueView): WireEvent[] {
  return new Tailoring(event).forQueue(queue);
}

/**
 * One published event tailored for each queue it reaches: queues of one shape (see ShapeKey) get
 * the same event objects, and kinds without a tailor the published event itself.
 */
export class Tailoring {
  private readonly kind: KindTailoring | undefined;
  private readonly shared = new Map<string, WireEvent[]>();

  constructor(readonly event: ParleyEvent) {
    this.kind = tailors.get(event.type);
  }

  forQueue(queue: QueueView): WireEvent[] {
    if (!wantsType(queue.options, this.event.type)) return [];
    if (!this.kind) return [this.event as WireEvent];
    const key = this.kind.shapeKey?.(this.event, queue) ?? null;
    if (key === null) return this.kind.tailor(this.event, queue);
    let events = this.shared.get(key);
    if (!events) this.shared.set(key, (events = this.kind.tailor(this.event, queue)));
    return events;
  }
}

/** The empty topic as this queue shows it: "" with `empty_topic_name`, else the realm's display name. */
export function topicForQueue(topic: string, queue: QueueView): string {
  return topicForClient(topic, queue.emptyTopicDisplayName, !!queue.options.capabilities.empty_topic_name);
}
