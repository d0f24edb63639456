// `realm_emoji` events: individual `add`/`edit` for clients with `individual_emoji_changes`, the
// whole set (`update`) for the others.
import { tailorEvents, type WireEvent } from '../events/kinds.ts';

type EmojiSet = Record<string, object>;

export type RealmEmojiEvent =
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: EmojiSet }
  /** `realm_emoji` is the whole set, for queues that only know `update`; removed before delivery. */
  | { type: 'realm_emoji'; op: 'add'; emoji: object; realm_emoji: EmojiSet }
  | { type: 'realm_emoji'; op: 'edit'; emoji_id: string; data: Record<string, unknown>; realm_emoji: EmojiSet };

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm_emoji: RealmEmojiEvent;
  }
}

tailorEvents('realm_emoji', (event, queue) => {
  if (event.op === 'update') return [event as WireEvent];
  const { realm_emoji: all, ...individual } = event;
  return [queue.options.capabilities.individual_emoji_changes ? individual : { type: 'realm_emoji', op: 'update', realm_emoji: all }];
});
