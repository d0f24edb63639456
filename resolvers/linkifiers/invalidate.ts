// The renderer caches each realm's linkifiers (resolvers/messages/render.ts). A change made in this
// process forgets them at once; one made by another process (Redis bus) arrives as its
// `realm_linkifiers` event, which forgets them here too.
import type { EventBus } from '../events/bus.ts';
import { forgetLinkifiers } from '../messages/render.ts';

export function forgetLinkifiersOnChange(bus: EventBus): () => void {
  return bus.subscribe((delivery) => {
    if (delivery.event.type === 'realm_linkifiers') forgetLinkifiers(delivery.realmId);
  });
}
