// Channel and subscription events (Zulip's `stream`, `subscription` and `default_streams`), and how
// a queue's capabilities change them.
import { tailorEvents, type WireEvent } from '../events/kinds.ts';

type Json = Record<string, unknown>;

export type StreamEvent =
  | { type: 'stream'; op: 'create'; streams: Json[] }
  | { type: 'stream'; op: 'delete'; streams: { stream_id: number }[]; stream_ids: number[] }
  | StreamUpdateEvent;

export interface StreamUpdateEvent {
  type: 'stream';
  op: 'update';
  stream_id: number;
  name: string;
  property: string;
  value: unknown;
  [extra: string]: unknown;
  /**
   * Archiving news for clients without `archived_channels`: the event they get instead (the
   * channel vanishes or reappears). Removed before delivery.
   */
  fallback?: WireEvent;
}

export type SubscriptionEvent =
  | { type: 'subscription'; op: 'add'; subscriptions: Json[] }
  | { type: 'subscription'; op: 'remove'; subscriptions: { stream_id: number; name: string }[] }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] }
  | SubscriptionUpdateEvent;

export interface SubscriptionUpdateEvent {
  type: 'subscription';
  op: 'update';
  stream_id: number;
  property: string;
  value: unknown;
  /**
   * A notification override reset to null: what clients without `notification_settings_null` get
   * in its place (the user's default). Removed before delivery.
   */
  inherited_value?: unknown;
}

export interface DefaultStreamsEvent {
  type: 'default_streams';
  default_streams: number[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    stream: StreamEvent;
    subscription: SubscriptionEvent;
    default_streams: DefaultStreamsEvent;
  }
}

tailorEvents('stream', (event, queue) => {
  if (event.op !== 'update' || !('fallback' in event)) return [event as WireEvent];
  const { fallback, ...update } = event;
  return [queue.options.capabilities.archived_channels ? update : fallback!];
});

tailorEvents('subscription', (event, queue) => {
  if (event.op !== 'update' || !('inherited_value' in event)) return [event as WireEvent];
  const { inherited_value: inherited, ...update } = event;
  return [queue.options.capabilities.notification_settings_null ? update : { ...update, value: inherited }];
});
