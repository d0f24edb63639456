// Bot storage (Zulip's /bot_storage, zerver/lib/bot_storage.py): string keys and values a bot keeps
// on the server between runs. Any account may use it, as in Zulip; each sees only its own.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { BOT_STORAGE_SIZE_LIMIT } from '../limits.ts';
import { codePointLength } from '../text.ts';
import { MAX_INDEXED_TEXT_LENGTH } from '../limits.ts';
import { inTransaction } from '../transaction.ts';

const size = (key: string, value: string) => codePointLength(key) + codePointLength(value);

/** PUT /bot_storage: sets the entries, within the user's size limit. */
export async function updateBotStorage(ctx: Context, user: User, storage: Record<string, unknown>): Promise<void> {
  const entries = Object.entries(storage);
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw new BadRequestError(`storage["${key}"] is not a string`);
    // Keys are indexed; Zulip sets no limit, the index does.
    if (codePointLength(key) > MAX_INDEXED_TEXT_LENGTH) throw new BadRequestError(`Key is too long (limit: ${MAX_INDEXED_TEXT_LENGTH} characters)`);
  }
  await inTransaction(ctx, async (tx) => {
    // One user's writes take turns, so two requests cannot both fit under the limit and exceed it together.
    await tx.tx.$queryRaw`SELECT id FROM "User" WHERE id = ${user.id} FOR UPDATE`;
    const existing = await tx.db.botStorageEntry.findMany({ where: { userId: user.id } });
    const current = new Map(existing.map((e) => [e.key, size(e.key, e.value)]));
    let total = [...current.values()].reduce((a, b) => a + b, 0);
    for (const [key, value] of entries) total += size(key, value as string) - (current.get(key) ?? 0);
    if (total > BOT_STORAGE_SIZE_LIMIT) {
      throw new BadRequestError(`Request exceeds storage limit by ${total - BOT_STORAGE_SIZE_LIMIT} characters. The limit is ${BOT_STORAGE_SIZE_LIMIT} characters.`);
    }
    for (const [key, value] of entries) {
      await tx.db.botStorageEntry.upsert({ where: { userId_key: { userId: user.id, key } }, create: { userId: user.id, key, value: value as string }, update: { value: value as string } });
    }
  });
}

/** GET /bot_storage: the values of these keys (all of them when none are named). */
export async function getBotStorage(ctx: Context, user: User, keys: string[] | null | undefined): Promise<Record<string, string>> {
  const rows = await ctx.db.botStorageEntry.findMany({ where: { userId: user.id, ...(keys ? { key: { in: keys } } : {}) }, orderBy: { key: 'asc' } });
  const values = new Map(rows.map((r) => [r.key, r.value]));
  const result: Record<string, string> = {};
  for (const key of keys ?? [...values.keys()]) {
    const value = values.get(key);
    if (value === undefined) throw new BadRequestError('Key does not exist.');
    result[key] = value;
  }
  return result;
}

/** DELETE /bot_storage: removes these keys (all of them when none are named); all must exist. */
export async function removeBotStorage(ctx: Context, user: User, keys: string[] | null | undefined): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!keys) {
      await tx.db.botStorageEntry.deleteMany({ where: { userId: user.id } });
      return;
    }
    const unique = [...new Set(keys)];
    const { count } = await tx.db.botStorageEntry.deleteMany({ where: { userId: user.id, key: { in: unique } } });
    // Nothing is removed unless every key was there.
    if (count < unique.length) throw new BadRequestError('Key does not exist.');
  });
}
