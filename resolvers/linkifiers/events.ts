// `realm_linkifiers` events: only for clients that understand URL templates (Zulip drops the
// legacy `realm_filters` event at Parley's feature level).
import { tailorEvents } from '../events/kinds.ts';

export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  realm_linkifiers: Record<string, unknown>[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm_linkifiers: RealmLinkifiersEvent;
  }
}

tailorEvents('realm_linkifiers', (event, queue) => (queue.options.capabilities.linkifier_url_template ? [{ ...event }] : []));
