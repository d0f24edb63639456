// Alert words: words or phrases whose appearance in a message alerts their owner (Zulip's
// zerver/lib/alert_words.py and zerver/actions/alert_words.py). Case-insensitive; the owner's
// spelling is kept. Changes are announced to the owner's queues with the whole list.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { InvalidArgumentError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { inTransaction } from '../transaction.ts';
import { codePointLength } from '../text.ts';

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

