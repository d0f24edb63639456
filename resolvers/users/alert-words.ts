// Alert words: words or phrases whose appearance in a message alerts their owner (Zulip's
// zerver/lib/alert_words.py and zerver/actions/alert_words.py). Case-insensitive; the owner's
// spelling is kept. Changes are announced to the owner's queues with the whole list.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { InvalidArgumentError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { inTransaction } from '../transaction.ts';
import { codePointLength } from '../text.ts';
import { RealmCache } from '../realm-cache.ts';
import type { Db } from '../../prisma/database.ts';
import type { Prisma } from '../../prisma/generated/client/client.ts';

/** Zulip's AlertWord.MAX_WORD_LENGTH. */
export const MAX_ALERT_WORD_LENGTH = 100;

export interface AlertWordsEvent {
  type: 'alert_words';
  alert_words: string[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    alert_words: AlertWordsEvent;
  }
}

initialStatePart(['alert_words'], async (s) => ({ alert_words: s.user ? await listAlertWords(s.ctx, s.user) : [] }));

export async function listAlertWords(ctx: Pick<Context, 'db'>, user: Pick<User, 'id'>): Promise<string[]> {
  const rows = await ctx.db.alertWord.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' }, select: { word: true } });
  return rows.map((r) => r.word);
}

/** Zulip's clean_alert_words: surrounding white space removed, empty words dropped; at most 100 characters. */
function cleanWords(words: string[]): string[] {
  words.forEach((word, i) => {
    if (codePointLength(word) > MAX_ALERT_WORD_LENGTH) {
      throw new InvalidArgumentError('alert_words', `alert_words[${i}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
    }
  });
  return words.map((w) => w.trim()).filter((w) => w !== '');
}

/** Adds the words the user does not have yet (ignoring case); answers the whole list. */
export async function addAlertWords(ctx: Context, user: User, words: string[]): Promise<string[]> {
  const wanted = new Map<string, string>();
  for (const word of cleanWords(words)) wanted.set(word.toLowerCase(), word);
  return inTransaction(ctx, async (tx) => {
    // Concurrent additions of the same word: the unique index keeps one, the others skip it.
    for (const word of wanted.values()) {
      await tx.db.$executeRaw`
        INSERT INTO "AlertWord" ("realmId", "userId", "word") VALUES (${user.realmId}, ${user.id}, ${word})
        ON CONFLICT ("userId", lower("word")) DO NOTHING`;
    }
    return announce(tx, user);
  });
}

/** Removes the words (ignoring case); words the user does not have are ignored. Answers the whole list. */
export async function removeAlertWords(ctx: Context, user: User, words: string[]): Promise<string[]> {
  const lower = [...new Set(words.map((w) => w.trim().toLowerCase()))];
  return inTransaction(ctx, async (tx) => {
    await tx.db.$executeRaw`DELETE FROM "AlertWord" WHERE "userId" = ${user.id} AND lower("word") = ANY(${lower}::text[])`;
    return announce(tx, user);
  });
}

async function announce(ctx: Context, user: User): Promise<string[]> {
  const words = await listAlertWords(ctx, user);
  ctx.events.publish(user.realmId, [user.id], { type: 'alert_words', alert_words: words });
  return words;
}

/** Every alert word of the organization (lowercased) and whose it is: read on every send, so cached. */
const realmAlertWords = new RealmCache<Map<string, number[]>>(['alert_words'], async (db, realmId) => {
  const byWord = new Map<string, number[]>();
  for (const { userId, word } of await db.alertWord.findMany({ where: { realmId }, select: { userId: true, word: true } })) {
    const key = word.toLowerCase();
    byWord.set(key, [...(byWord.get(key) ?? []), userId]);
  }
  return byWord;
});

// Zulip's AlertWordNotificationProcessor: a word counts where it stands between these characters
// (or at either end of the content), in the Markdown source, ignoring case. The after-set is
// Zulip's own, which lists '",' where '"' was surely meant; kept so flags agree with Zulip's.
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const ALLOWED_AFTER = new Set([' ', '\n', ')', '",', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** The users whose alert words the content contains. */
export async function usersAlertedBy(db: Db | Prisma.TransactionClient, realmId: number, content: string): Promise<Set<number>> {
  const words = await realmAlertWords.get(db, realmId);
  const alerted = new Set<number>();
  if (!words.size) return alerted;
  const text = content.toLowerCase();
  for (const [word, userIds] of words) {
    for (let start = text.indexOf(word); start !== -1; start = text.indexOf(word, start + 1)) {
      // Zulip checks the character before the match at index start-1, treating index 0 as a boundary too.
      const before = start - 1;
      const end = start + word.length;
      if ((before <= 0 || ALLOWED_BEFORE.has(text[before]!)) && (end >= text.length || ALLOWED_AFTER.has(text[end]!))) {
        for (const id of userIds) alerted.add(id);
        break;
      }
    }
  }
  return alerted;
}
