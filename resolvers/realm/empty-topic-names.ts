// The empty topic's display name per organization, for event queues of clients that cannot show ""
// (tailoring runs synchronously in delivery, so it needs a synchronous answer). Read at start-up,
// read again for an organization created since (the default answers until then), and refreshed
// whenever an organization's settings change.
import type { Db } from '../../prisma/database.ts';
import type { EventBus } from '../events/bus.ts';

/** Zulip's name for the empty topic, before an organization says otherwise. */
export const DEFAULT_EMPTY_TOPIC_NAME = 'general chat';

export class EmptyTopicNames {
  private readonly names = new Map<number, string>();
  private readonly unsubscribe: () => void;

  private constructor(private readonly db: Db, events: EventBus) {
    this.unsubscribe = events.subscribe(({ realmId, event }) => {
      if (event.type === 'realm') void this.load(realmId);
    });
  }

  static async open(db: Db, events: EventBus): Promise<EmptyTopicNames> {
    const names = new EmptyTopicNames(db, events);
    for (const realm of await db.realm.findMany({ select: { id: true, emptyTopicDisplayName: true } })) {
      names.names.set(realm.id, realm.emptyTopicDisplayName);
    }
    return names;
  }

  get(realmId: number): string {
    const name = this.names.get(realmId);
    if (name !== undefined) return name;
    void this.load(realmId);
    return DEFAULT_EMPTY_TOPIC_NAME;
  }

  close(): void {
    this.unsubscribe();
  }

  private async load(realmId: number): Promise<void> {
    const realm = await this.db.realm.findUnique({ where: { id: realmId }, select: { emptyTopicDisplayName: true } }).catch(() => null);
    if (realm) this.names.set(realmId, realm.emptyTopicDisplayName);
  }
}
