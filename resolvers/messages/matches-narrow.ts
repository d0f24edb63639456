// GET /messages/matches_narrow (Zulip's messages_in_narrow_backend): which of some messages the
// viewer received match a narrow, with the search highlighting GET /messages would give them, so
// clients can place live messages in views they cannot evaluate themselves (full-text search).
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { escapeHtml } from '../text.ts';
import { compileNarrow, type NarrowTerm } from './narrow.ts';
import { searchHighlights } from './present.ts';

export interface NarrowMatch {
  messageId: number;
  matchContent: string;
  matchSubject: string;
}

export async function messagesMatchingNarrow(ctx: Context, viewer: User, messageIds: number[], terms: NarrowTerm[]): Promise<NarrowMatch[]> {
  const ids = [...new Set(messageIds)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
  const narrow = await compileNarrow(ctx.db, ctx.realm, viewer, terms);
  if (!ids.length) return [];
  // Only messages the viewer received (a UserMessage row), as in Zulip.
  const rows = await ctx.db.$queryRaw<{ id: number; renderedContent: string; topic: string }[]>(Prisma.sql`
    SELECT m.id, m."renderedContent", m.topic FROM "Message" m
    JOIN "UserMessage" um ON um."messageId" = m.id AND um."userId" = ${viewer.id}
    WHERE m."realmId" = ${ctx.realm.id} AND m.id = ANY(${ids}::int[]) AND ${narrow.where}
    ORDER BY m.id`);
  const highlights = narrow.search && rows.length ? await searchHighlights(ctx.db, rows.map((r) => r.id), narrow.search) : null;
  return rows.map((r) => {
    const highlight = highlights?.get(r.id);
    return {
      messageId: r.id,
      matchContent: highlight?.content ?? r.renderedContent,
      matchSubject: highlight?.subject ?? escapeHtml(r.topic),
    };
  });
}
