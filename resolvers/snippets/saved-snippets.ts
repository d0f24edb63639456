// Saved snippets (Zulip's zerver/views/saved_snippets.py). Only their owner sees or changes them;
// someone else's snippet answers exactly like a missing one.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { SavedSnippetShape } from '../../schema/snippets.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { MAX_MESSAGE_LENGTH } from '../limits.ts';
import { codePointLength } from '../text.ts';
import { toUnixSeconds } from '../time.ts';
import { isDbId } from '../rows.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SNIPPET_TITLE_LENGTH = 60;

const DOES_NOT_EXIST = 'Saved snippet does not exist.';

function shape(row: { id: number; title: string; content: string; dateCreated: Date }): SavedSnippetShape {
  return { id: row.id, title: row.title, content: row.content, dateCreated: toUnixSeconds(row.dateCreated) };
}

export function savedSnippetWire(s: SavedSnippetShape): Record<string, unknown> {
  return { id: s.id, title: s.title, content: s.content, date_created: s.dateCreated };
}

/** A snippet's title or content, trimmed: not empty, and at most `limit` code points. */
function cleanText(value: string, name: 'Title' | 'Content', limit: number): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new BadRequestError(`${name} cannot be empty.`);
  if (codePointLength(trimmed) > limit) throw new BadRequestError(`${name.toLowerCase()} is too long (limit: ${limit} characters)`);
  return trimmed;
}

const cleanTitle = (title: string) => cleanText(title, 'Title', MAX_SNIPPET_TITLE_LENGTH);
const cleanContent = (content: string) => cleanText(content, 'Content', MAX_MESSAGE_LENGTH);

export async function listSavedSnippets(ctx: Pick<Context, 'db'>, user: Pick<User, 'id'>): Promise<SavedSnippetShape[]> {
  const rows = await ctx.db.savedSnippet.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
  return rows.map(shape);
}

export async function createSavedSnippet(ctx: Context, user: User, input: { title: string; content: string }): Promise<number> {
  const title = cleanTitle(input.title);
  const content = cleanContent(input.content);
  const row = await ctx.db.$transaction((tx) => tx.savedSnippet.create({ data: { userId: user.id, title, content } }));
  ctx.events.publish(user.realmId, [user.id], { type: 'saved_snippets', op: 'add', saved_snippet: savedSnippetWire(shape(row)) });
  return row.id;
}

export async function editSavedSnippet(
  ctx: Context, user: User, input: { savedSnippetId: number; title?: string | null; content?: string | null },
): Promise<void> {
  if (input.title == null && input.content == null) {
    throw new BadRequestError('At least one of title or content must be given.');
  }
  const title = input.title == null ? undefined : cleanTitle(input.title);
  const content = input.content == null ? undefined : cleanContent(input.content);
  const row = await ctx.db.$transaction(async (tx) => {
    const existing = isDbId(input.savedSnippetId)
      ? await tx.savedSnippet.findFirst({ where: { id: input.savedSnippetId, userId: user.id } })
      : null;
    if (!existing) throw new NotFoundError(DOES_NOT_EXIST);
    return tx.savedSnippet.update({ where: { id: existing.id }, data: { title, content } });
  });
  ctx.events.publish(user.realmId, [user.id], { type: 'saved_snippets', op: 'update', saved_snippet: savedSnippetWire(shape(row)) });
}

export async function deleteSavedSnippet(ctx: Context, user: User, savedSnippetId: number): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const existing = isDbId(savedSnippetId)
      ? await tx.savedSnippet.findFirst({ where: { id: savedSnippetId, userId: user.id } })
      : null;
    if (!existing) throw new NotFoundError(DOES_NOT_EXIST);
    await tx.savedSnippet.delete({ where: { id: existing.id } });
  });
  ctx.events.publish(user.realmId, [user.id], { type: 'saved_snippets', op: 'remove', saved_snippet_id: savedSnippetId });
}

initialStatePart(['saved_snippets'], async (s) => ({ saved_snippets: s.user ? (await listSavedSnippets(s, s.user)).map(savedSnippetWire) : [] }));
