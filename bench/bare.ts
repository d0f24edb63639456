// The stack's limit: a bare Koa + koa-body handler (no GraphQL, no Prisma) that answers
// POST /api/v1/messages with the single INSERT of one "Message" row, through the same driver Parley
// uses (a pg Pool the size of Parley's, or a PGlite instance). Credentials are checked against an
// in-memory map, so the only database work per request is the one INSERT.
import http from 'node:http';
import Koa from 'koa';
import { koaBody } from 'koa-body';

export interface InsertDriver {
  kind: 'postgresql' | 'pglite';
  query(sql: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  close(): Promise<void>;
}

/** Parley's PrismaPg pool holds 10 connections (prisma/database.ts); the bare Pool gets the same. */
export const PARLEY_POOL_SIZE = 10;

export async function openDriver(target: { url?: string; dataDir?: string }): Promise<InsertDriver> {
  if (target.url) {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: target.url, max: PARLEY_POOL_SIZE });
    return {
      kind: 'postgresql',
      query: (sql, params) => pool.query(sql, params),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(target.dataDir!);
  return {
    kind: 'pglite',
    query: (sql, params) => db.query(sql, params) as Promise<{ rows: Record<string, unknown>[] }>,
    close: () => db.close(),
  };
}

const INSERT = `INSERT INTO "Message" ("realmId", "senderId", "channelId", "topic", "content", "renderedContent", "sendingClient")
  VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface BareServer {
  port: number;
  close(): Promise<void>;
}

export async function startBareServer(
  driver: InsertDriver,
  ids: { realmId: number; channelId: number; senders: Map<string, number> },
): Promise<BareServer> {
  const app = new Koa();
  // Same body-parser options as server/app.ts.
  app.use(koaBody({
    multipart: true, urlencoded: true, json: true, text: false,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as any,
    formLimit: '20mb', jsonLimit: '20mb', formidable: { maxFileSize: 25 * 1024 * 1024 },
  }));
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/v1/messages') {
      ctx.status = 404;
      ctx.body = { result: 'error', msg: 'Not found' };
      return;
    }
    const match = /^Basic\s+(.+)$/i.exec(ctx.get('authorization'));
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const senderId = ids.senders.get(decoded);
    if (senderId == null) {
      ctx.status = 401;
      ctx.body = { result: 'error', msg: 'Invalid API key' };
      return;
    }
    const body = (ctx.request as { body?: Record<string, string> }).body ?? {};
    const content = String(body.content ?? '');
    const { rows } = await driver.query(INSERT, [
      ids.realmId, senderId, ids.channelId, String(body.topic ?? ''), content, `<p>${escapeHtml(content)}</p>`, 'API',
    ]);
    ctx.body = { result: 'success', msg: '', id: rows[0]!.id };
  });
  const server = http.createServer(app.callback());
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    close: async () => {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
