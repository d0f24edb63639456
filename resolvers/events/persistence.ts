// Queues outlive a graceful restart: saved to the database when the server stops, restored (and
// removed from the table) when it starts. A crash loses them, as Zulip's in-memory queues are lost.
// Snapshots saved by a server whose queue format differs are dropped (see QUEUE_FORMAT_VERSION).
import type { Db } from '../../prisma/database.ts';
import type { QueueRegistry } from './registry.ts';
import { QUEUE_FORMAT_VERSION, type QueueSnapshot } from './queue.ts';

export async function saveQueues(db: Db, registry: QueueRegistry): Promise<number> {
  const snapshots = registry.snapshots();
  await db.$transaction(async (tx) => {
    await tx.persistedEventQueue.deleteMany({ where: { id: { in: snapshots.map((s) => s.id) } } });
    if (snapshots.length) {
      await tx.persistedEventQueue.createMany({
        data: snapshots.map((s) => ({ id: s.id, realmId: s.realmId, userId: s.userId, data: s as unknown as object })),
      });
    }
  });
  return snapshots.length;
}

export async function restoreQueues(db: Db, registry: QueueRegistry): Promise<number> {
  const rows = await db.persistedEventQueue.findMany();
  if (!rows.length) return 0;
  // Time spent down does not count against a queue's idle timeout.
  const now = Date.now();
  const snapshots = rows.map((row) => row.data as unknown as QueueSnapshot).filter((s) => s.formatVersion === QUEUE_FORMAT_VERSION);
  registry.restore(snapshots.map((s) => ({ ...s, lastAccess: now })));
  await db.persistedEventQueue.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  return snapshots.length;
}
