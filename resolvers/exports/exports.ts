// Organization exports, after Zulip's zerver/views/realm_export.py and zerver/actions/realm_export.py:
// administrators request one (POST /export/realm), it is built in the background into an archive
// (archive.ts) kept in the file store and served at an unguessable URL, and every administrator
// hears of each change (`realm_export` events). GET lists them, DELETE removes an archive, and
// GET /export/realm/consents says which members allow their private data to be exported.
import { randomBytes } from 'node:crypto';
import type { RealmExport, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { isAdmin, ROLE_ADMINISTRATOR, ROLE_OWNER } from '../users/roles.ts';
import { collectExport, EXPORT_FULL_WITH_CONSENT, EXPORT_PUBLIC, packExport } from './archive.ts';

type Json = Record<string, unknown>;

/** Zulip's limits: five exports a week; larger organizations are exported by the operator. */
const EXPORT_LIMIT = 5;
const EXPORT_LIMIT_DAYS = 7;
const MAX_MESSAGE_HISTORY = 250_000;
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024 * 1024;

export interface ExportRecord {
  id: number;
  acting_user_id: number | null;
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  export_url: string | null;
  pending: boolean;
  export_type: number;
}

export interface RealmExportEvent {
  type: 'realm_export';
  exports: ExportRecord[];
}

export interface RealmExportConsentEvent {
  type: 'realm_export_consent';
  user_id: number;
  consented: boolean;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm_export: RealmExportEvent;
    realm_export_consent: RealmExportConsentEvent;
  }
}

/** Where an export's archive is served: like Zulip's, public but unguessable. */
export function exportUrl(archiveKey: string): string {
  return `/user_avatars/${archiveKey}`;
}

const seconds = (date: Date | null) => (date ? date.getTime() / 1000 : null);

/** Zulip's get_realm_exports_serialized entry. */
function exportRecord(row: RealmExport): ExportRecord {
  const succeeded = row.dateSucceeded != null && row.dateDeleted == null && row.archiveKey != null;
  return {
    id: row.id,
    acting_user_id: row.actingUserId,
    export_time: seconds(row.dateRequested)!,
    deleted_timestamp: seconds(row.dateDeleted),
    failed_timestamp: seconds(row.dateFailed),
    export_url: succeeded ? exportUrl(row.archiveKey!) : null,
    pending: row.dateSucceeded == null && row.dateFailed == null && row.dateDeleted == null,
    export_type: row.exportType,
  };
}

function requireAdmin(actor: User): void {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
}

async function administrators(ctx: Pick<Context, 'db'>, realmId: number): Promise<number[]> {
  const rows = await ctx.db.user.findMany({ where: { realmId, isActive: true, isBot: false, role: { lte: ROLE_ADMINISTRATOR } }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** Zulip's notify_realm_export: every export of the organization, to its administrators. */
async function announceExports(ctx: Pick<Context, 'db' | 'events'>, realmId: number): Promise<void> {
  const rows = await ctx.db.realmExport.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  ctx.events.publish(realmId, await administrators(ctx, realmId), { type: 'realm_export', exports: rows.map(exportRecord) });
}

/** GET /export/realm. */
export async function listExports(ctx: Context, actor: User): Promise<ExportRecord[]> {
  requireAdmin(actor);
  const rows = await ctx.db.realmExport.findMany({ where: { realmId: ctx.realm.id }, orderBy: { id: 'asc' } });
  return rows.map(exportRecord);
}

/** GET /export/realm/consents: active human members and whether they allow private data export. */
export async function exportConsents(ctx: Context, actor: User): Promise<{ user_id: number; consented: boolean }[]> {
  requireAdmin(actor);
  const users = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, isBot: false }, select: { id: true, settings: true }, orderBy: { id: 'asc' } });
  return users.map((u) => ({ user_id: u.id, consented: (u.settings as Json | null)?.allow_private_data_export === true }));
}

/** POST /export/realm: records the request and builds the archive in the background; answers its ID. */
export async function requestExport(ctx: Context, actor: User, exportType: number | null | undefined): Promise<number> {
  requireAdmin(actor);
  const type = exportType ?? EXPORT_PUBLIC;
  if (type !== EXPORT_PUBLIC && type !== EXPORT_FULL_WITH_CONSENT) throw new BadRequestError('Invalid export_type');
  const realmId = ctx.realm.id;
  const weekAgo = new Date(Date.now() - EXPORT_LIMIT_DAYS * 86_400_000);
  if ((await ctx.db.realmExport.count({ where: { realmId, dateRequested: { gte: weekAgo } } })) >= EXPORT_LIMIT) {
    throw new BadRequestError('Exceeded rate limit.');
  }
  const messages = await ctx.db.message.count({ where: { realmId } });
  const uploads = (await ctx.db.attachment.aggregate({ where: { realmId }, _sum: { size: true } }))._sum.size ?? 0;
  if (messages > MAX_MESSAGE_HISTORY || uploads > MAX_UPLOAD_BYTES) {
    throw new BadRequestError(`Please request a manual export from ${ctx.config.adminEmail}.`);
  }
  const owners = await ctx.db.user.findMany({ where: { realmId, isActive: true, isBot: false, role: ROLE_OWNER }, select: { settings: true } });
  const setting = (u: { settings: unknown }, name: string) => (u.settings as Json | null)?.[name];
  if (type === EXPORT_FULL_WITH_CONSENT && !owners.some((o) => setting(o, 'allow_private_data_export') === true)) {
    throw new BadRequestError(`Make sure at least one Organization Owner is consenting to the export or contact ${ctx.config.adminEmail} for help.`);
  }
  // Zulip's check_public_export_is_usable: an owner whose address administrators may see (everyone, members or administrators).
  if (type === EXPORT_PUBLIC && !owners.some((o) => [undefined, 1, 2, 3].includes(setting(o, 'email_address_visibility') as number | undefined))) {
    throw new BadRequestError(`Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${ctx.config.adminEmail} for help`);
  }
  const row = await inTransaction(ctx, async (tx) => {
    const created = await tx.db.realmExport.create({ data: { realmId, actingUserId: actor.id, exportType: type } });
    await announceExports(tx, realmId);
    return created;
  });
  // After the answer, as Zulip's deferred_work queue does: the outcome reaches administrators as an event.
  void buildExport(ctx, row.id).catch(() => {});
  return row.id;
}

/** Builds and stores the archive of a requested export; a failure is recorded, never thrown. */
async function buildExport(ctx: Pick<Context, 'db' | 'events' | 'files' | 'realm'>, exportId: number): Promise<void> {
  const row = await ctx.db.realmExport.findUniqueOrThrow({ where: { id: exportId } });
  let archiveKey: string | null = null;
  try {
    const archive = await packExport(await collectExport(ctx.db, ctx.files, row.realmId, row.exportType));
    const name = `parley-export-${ctx.realm.stringId || 'root'}-${row.id}.tar.gz`;
    archiveKey = `exports/${row.realmId}/${randomBytes(18).toString('base64url')}/${name}`;
    await ctx.files.put(archiveKey, archive, 'application/gzip');
    await ctx.db.realmExport.update({ where: { id: row.id }, data: { dateSucceeded: new Date(), archiveKey, size: archive.length } });
  } catch (error) {
    if (archiveKey) await ctx.files.delete([archiveKey]).catch(() => {});
    await ctx.db.realmExport.update({ where: { id: row.id }, data: { dateFailed: new Date() } }).catch(() => {});
    await announceExports(ctx, row.realmId).catch(() => {});
    throw error;
  }
  await announceExports(ctx, row.realmId);
}

/** DELETE /export/realm/{export_id}: removes a finished export's archive. */
export async function deleteExport(ctx: Context, actor: User, exportId: number): Promise<void> {
  requireAdmin(actor);
  const row = await ctx.db.realmExport.findFirst({ where: { id: exportId, realmId: ctx.realm.id } });
  if (!row) throw new BadRequestError('Invalid data export ID');
  if (row.dateDeleted) throw new BadRequestError('Export already deleted');
  if (row.dateFailed) throw new BadRequestError('Export failed, nothing to delete');
  if (!row.dateSucceeded) throw new BadRequestError('Export still in progress');
  await inTransaction(ctx, async (tx) => {
    await tx.db.realmExport.update({ where: { id: row.id }, data: { dateDeleted: new Date() } });
    await announceExports(tx, row.realmId);
  });
  if (row.archiveKey) await ctx.files.delete([row.archiveKey]).catch(() => {});
}
