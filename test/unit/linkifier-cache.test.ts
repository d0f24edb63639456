// The renderer's per-realm linkifier cache is forgotten when a realm_linkifiers event passes on the
// bus, whichever process the change was made in.
import { describe, expect, it } from 'vitest';
import { LocalEventBus } from '../../resolvers/events/bus.ts';
import { forgetCachesOnEvents } from '../../resolvers/realm-cache.ts';
import { realmLinkifiers } from '../../resolvers/messages/render.ts';

function fakeDb(rules: { pattern: string; urlTemplate: string }[]) {
  const db = { reads: 0, linkifier: { findMany: async () => { db.reads++; return rules; } } };
  return db;
}

describe('linkifier cache', () => {
  it('serves repeated renders from the cache, and rereads after a realm_linkifiers event for that realm', async () => {
    const bus = new LocalEventBus();
    forgetCachesOnEvents(bus);
    const db = fakeDb([{ pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://x.example/{id}' }]);
    const realmId = 424242;
    await realmLinkifiers(db as never, realmId);
    await realmLinkifiers(db as never, realmId);
    expect(db.reads).toBe(1);
    bus.publish(realmId + 1, [1], { type: 'realm_linkifiers', realm_linkifiers: [] });
    bus.publish(realmId, [1], { type: 'realm_domains', op: 'remove', domain: 'x.example' });
    await realmLinkifiers(db as never, realmId);
    expect(db.reads).toBe(1);
    bus.publish(realmId, [1], { type: 'realm_linkifiers', realm_linkifiers: [] });
    await realmLinkifiers(db as never, realmId);
    expect(db.reads).toBe(2);
    await bus.close();
  });
});
