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

const tailors = new Map<string, Tailor<any>>();

/** Declares how queues see events of one kind; kinds without a tailor reach every queue as published. */
export function tailorEvents<T extends EventType>(type: T, tailor: Tailor<EventOf<T>>): void {
  if (tailors.has(type)) throw new Error(`events of type ${type} are tailored twice`);
  tailors.set(type, tailor);
}

export function wantsType(options: QueueOptions, type: string): boolean {
  return options.eventTypes === null || options.eventTypes.includes(type) || type === 'heartbeat';
}

/** The events (zero, one or several) a queue gets for `event`. */
export function tailorForQueue(event: ParleyEvent, queue: QueueView): WireEvent[] {
  if (!wantsType(queue.options, event.type)) return [];
  const tailor = tailors.get(event.type);
  return tailor ? tailor(event, queue) : [event as WireEvent];
}

/** The empty topic as this queue shows it: "" with `empty_topic_name`, else the realm's display name. */
export function topicForQueue(topic: string, queue: QueueView): string {
  return topicForClient(topic, queue.emptyTopicDisplayName, !!queue.options.capabilities.empty_topic_name);
}
