// Bulk seeding: `count` channel messages (and every subscriber's UserMessage row) with
// INSERT ... SELECT generate_series, in chunks, through the Prisma client's $executeRawUnsafe.
// The generated column fills "searchVector". Topics: one message in ten goes to LARGEST_TOPIC (100,000 of a
// million, the size of a busy Zulip topic), the rest cycle over topic-1 … topic-49. One message in
// UNREAD_EVERY is unread for every subscriber, the rest read.
import type { PrismaClient } from '../prisma/generated/client/client.ts';

/** Words the seed puts into the content, with how often; SEARCH_WORD is the one the search benchmark uses. */
export const SEARCH_WORD = 'kumquat'; // 1 message in 100
export const RARE_WORD = 'zeppelin'; // 1 message in 1,000

/** The topic holding one message in ten. */
export const LARGEST_TOPIC = 'topic-0';
export const UNREAD_EVERY = 20;

const SUBJECTS = ['deployment', 'database', 'release', 'meeting', 'lunch', 'incident', 'review', 'design', 'budget', 'roadmap'];

export interface SeedTarget {
  realmId: number;
  channelId: number;
  /** Senders cycle over these; every one of them (the subscribers) gets a UserMessage row. */
  userIds: number[];
}

export async function seedMessages(
  prisma: PrismaClient, target: SeedTarget, count: number, onProgress: (done: number) => void = () => {},
): Promise<{ messages: number; userMessages: number }> {
  const chunk = 10_000;
  const users = target.userIds.map((id) => Math.trunc(id)).join(',');
  const subjects = SUBJECTS.map((s) => `'${s}'`).join(',');
  let userMessages = 0;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    // Each message: about 120 characters, a rotating subject word, the search words now and then.
    userMessages += await prisma.$executeRawUnsafe(`
      WITH ins AS (
        INSERT INTO "Message" ("realmId", "senderId", "channelId", "topic", "content", "renderedContent", "dateSent", "sendingClient")
        SELECT ${Math.trunc(target.realmId)}, (ARRAY[${users}])[1 + (g % ${target.userIds.length})], ${Math.trunc(target.channelId)},
               'topic-' || CASE WHEN g % 10 = 0 THEN 0 ELSE 1 + g % 49 END, c, '<p>' || c || '</p>',
               now() - make_interval(secs => ${count} - g), 'bench-seed'
        FROM (
          SELECT g, 'Seeded message ' || g || ' about the ' || (ARRAY[${subjects}])[1 + (g % ${SUBJECTS.length})]
                 || CASE WHEN g % 100 = 37 THEN ' with a ${SEARCH_WORD}' ELSE '' END
                 || CASE WHEN g % 1000 = 123 THEN ' and a ${RARE_WORD}' ELSE '' END
                 || ', reference ' || md5(g::text) || ' for the record.' AS c
          FROM generate_series(${from}, ${to}) g
        ) s
        ORDER BY g
        RETURNING id
      )
      INSERT INTO "UserMessage" ("userId", "messageId", "read")
      SELECT u, ins.id, ins.id % ${UNREAD_EVERY} <> 0 FROM ins CROSS JOIN unnest(ARRAY[${users}]::int[]) u`);
    onProgress(to);
  }
  // PostgreSQL's autovacuum would get to this soon; PGlite has no autovacuum, so do it explicitly
  // for both (planner statistics, visibility map) and keep it out of the timed requests.
  await prisma.$executeRawUnsafe('VACUUM ANALYZE "Message"');
  await prisma.$executeRawUnsafe('VACUUM ANALYZE "UserMessage"');
  // Seeding a million messages writes gigabytes of WAL: the checkpoints it sets off write the
  // table back spread over minutes (checkpoint_completion_target), i.e. through the timed GETs that
  // follow. One checkpoint now writes it back before them.
  await prisma.$executeRawUnsafe('CHECKPOINT');
  return { messages: count, userMessages };
}
