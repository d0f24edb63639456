// Uploaded files and who may read them, after Zulip's zerver/views/upload.py, zerver/lib/upload/,
// zerver/lib/attachments.py and zerver/actions/uploads.py. An upload is private to its owner until a
// message links it; from then on whoever can read one of those messages can read the file
// (public channels for members of the organization, private channels and direct messages for
// their recipients, public-history private channels for their subscribers). Nothing is ever
// readable from another organization.
import { randomBytes, randomInt } from 'node:crypto';
import mime from 'mime-types';
import { Prisma, type Realm, type User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, FileTooLargeError, ParleyError } from '../errors.ts';
import { readableMessageSql } from '../channels/access.ts';
import { inTransaction } from '../transaction.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import type { UploadedFile } from '../emoji/custom.ts';
import { imageMetadata, thumbnailKey } from './images.ts';
import { attachmentRecord, type AttachmentRecord, type AttachmentEvent } from './events.ts';

type Reader = Db | Prisma.TransactionClient;

/** Zulip's REALM_UPLOAD_QUOTA error. */
class RealmUploadQuotaError extends ParleyError {
  override readonly code = 'REALM_UPLOAD_QUOTA';
}

/** Where an upload's bytes are kept: `files/<path_id>`, as Zulip's local backend lays them out. */
export function uploadKey(pathId: string): string {
  return `files/${pathId}`;
}

const MIB = 1024 * 1024;

/**
 * Zulip's sanitize_name: safe for a file system, S3 and a URL. Unicode letters stay; other
 * characters but `.`, `-` and `_` go; runs of dashes and white space become one dash.
 */
function sanitizeFileName(name: string): string {
  let value = name.normalize('NFKC').replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, '').trim();
  value = shortened(value.replace(/[-\s]+/g, '-'));
  return value === '' || value === '.' || value === '..' ? 'uploaded-file' : value;
}

/**
 * File systems take names of at most 255 bytes (and the store adds a suffix while writing): longer
 * names keep their start and their extension, within MAX_NAME_BYTES of UTF-8.
 */
const MAX_NAME_BYTES = 180;

function shortened(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const extension = /\.[\p{L}\p{N}]{1,10}$/u.exec(name)?.[0] ?? '';
  let stem = '';
  for (const char of name.slice(0, name.length - extension.length)) {
    if (Buffer.byteLength(stem + char + extension) > MAX_NAME_BYTES) break;
    stem += char;
  }
  return stem + extension;
}

/** `{realm}/{two hex digits}/{24 random URL-safe characters}/{sanitized name}`: unguessable. */
function newPathId(realmId: number, fileName: string): string {
  return [String(realmId), randomInt(0, 256).toString(16), randomBytes(18).toString('base64url'), sanitizeFileName(fileName)].join('/');
}

/**
 * Zulip's get_file_info: the client's content type, else one guessed from the name. Multipart's
 * defaults for a part without a type (text/plain, application/octet-stream: what the Python
 * client's parts arrive as) say nothing, so the name decides when it can.
 */
function contentTypeOf(file: UploadedFile): string {
  const declared = file.contentType?.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && declared !== 'text/plain') return declared;
  return mime.lookup(file.fileName) || declared || 'application/octet-stream';
}

/** The file name as uploaded: clients may send it percent-encoded (Zulip unquotes it). */
function uploadedName(file: UploadedFile): string {
  try {
    return decodeURIComponent(file.fileName);
  } catch {
    return file.fileName;
  }
}

export async function uploadSpaceUsed(db: Reader, realmId: number): Promise<number> {
  const total = await db.attachment.aggregate({ where: { realmId }, _sum: { size: true } });
  return total._sum.size ?? 0;
}

initialStatePart(['realm'], async (s) => ({ realm_upload_quota_mib: s.ctx.realm.uploadQuotaMib ?? null }));

export interface UploadResult {
  url: string;
  filename: string;
}

/** The largest upload the organization accepts, in MiB (register's `max_file_upload_size_mib`). */
export function maxUploadMib(realm: Pick<Realm, 'maxFileUploadSizeMib'>): number {
  return realm.maxFileUploadSizeMib;
}

/** POST /user_uploads: stores one file, private to its owner until a message links it. */
export async function uploadFile(ctx: Context, user: User, files: UploadedFile[]): Promise<UploadResult> {
  if (files.length === 0) throw new BadRequestError('You must specify a file to upload');
  if (files.length !== 1) throw new BadRequestError('You may only upload one file at a time');
  const file = files[0]!;
  const bytes = Buffer.from(file.base64, 'base64');
  const limit = maxUploadMib(ctx.realm);
  if (bytes.length > limit * MIB) throw new FileTooLargeError(limit);
  const fileName = uploadedName(file);
  const contentType = contentTypeOf(file);
  const pathId = newPathId(ctx.realm.id, fileName);
  const image = await imageMetadata(bytes);

  // The bytes are stored first: a row never names a file that is not there. If the row cannot be
  // written (quota), the file goes again.
  await ctx.files.put(uploadKey(pathId), bytes, contentType);
  let id: number;
  try {
    id = await inTransaction(ctx, async (tx) => {
      const quota = ctx.realm.uploadQuotaMib;
      if (quota != null) {
        // Uploads of one organization wait for each other here, so two cannot both fit the last space.
        await tx.db.$executeRaw`SELECT id FROM "Realm" WHERE id = ${ctx.realm.id} FOR UPDATE`;
        if ((await uploadSpaceUsed(tx.db, ctx.realm.id)) + bytes.length > quota * MIB) {
          throw new RealmUploadQuotaError("Upload would exceed your organization's upload quota.");
        }
      }
      const row = await tx.db.attachment.create({
        data: {
          realmId: ctx.realm.id, ownerId: user.id, pathId, fileName: fileName.slice(0, 255), contentType, size: bytes.length,
          width: image?.width ?? null, height: image?.height ?? null, frames: image?.frames ?? null,
        },
      });
      await announce(tx, user, { op: 'add', attachment: attachmentRecord(row, []) });
      return row.id;
    });
  } catch (error) {
    await ctx.files.delete([uploadKey(pathId)]).catch(() => {});
    throw error;
  }
  if (image) ctx.thumbnails?.request(id);
  return { url: `/user_uploads/${pathId}`, filename: fileName };
}

async function announce(ctx: Context, user: Pick<User, 'id' | 'realmId'>, body: Omit<AttachmentEvent, 'type' | 'upload_space_used'>): Promise<void> {
  ctx.events.publish(user.realmId, [user.id], {
    type: 'attachment', ...body, upload_space_used: await uploadSpaceUsed(ctx.db, user.realmId),
  } as AttachmentEvent);
}

/** GET /attachments: the viewer's uploads with the messages linking them, and the organization's total. */
export async function listAttachments(ctx: Context, user: User): Promise<{ attachments: AttachmentRecord[]; uploadSpaceUsed: number }> {
  const rows = await ctx.db.attachment.findMany({
    where: { ownerId: user.id },
    orderBy: { id: 'asc' },
    include: { messages: { select: { message: { select: { id: true, dateSent: true } } }, orderBy: { messageId: 'asc' } } },
  });
  return {
    attachments: rows.map((row) => attachmentRecord(row, row.messages.map((m) => m.message))),
    uploadSpaceUsed: await uploadSpaceUsed(ctx.db, ctx.realm.id),
  };
}

/** DELETE /attachments/{id}: the owner removes an upload; links to it stop working. */
export async function deleteAttachment(ctx: Context, user: User, attachmentId: number): Promise<void> {
  const row = await ctx.db.attachment.findFirst({ where: { id: attachmentId, ownerId: user.id, realmId: ctx.realm.id } });
  if (!row) throw new BadRequestError('Invalid attachment');
  await removeAttachments(ctx, [row]);
}

/** Deletes attachment rows, then their files and thumbnails, announcing each to its owner. */
export async function removeAttachments(ctx: Context, rows: { id: number; ownerId: number; realmId: number; pathId: string; thumbnails: string[] }[]): Promise<void> {
  if (!rows.length) return;
  await inTransaction(ctx, async (tx) => {
    await tx.db.attachment.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    for (const row of rows) await announce(tx, { id: row.ownerId, realmId: row.realmId }, { op: 'remove', attachment: { id: row.id } });
  });
  await ctx.files.delete(rows.flatMap((row) => [uploadKey(row.pathId), ...row.thumbnails.map((format) => thumbnailKey(row.pathId, format))]));
}

/**
 * Zulip's validate_attachment_request: true when `viewer` may read the upload, false when it
 * exists but they may not, null when this organization has no such upload. A spectator (null
 * viewer) may read uploads linked from web-public channels only.
 */
export async function canReadUpload(db: Reader, viewer: User | null, realm: Pick<Realm, 'id'>, pathId: string): Promise<boolean | null> {
  const attachment = await db.attachment.findUnique({ where: { pathId }, select: { id: true, realmId: true, ownerId: true } });
  if (!attachment || attachment.realmId !== realm.id) return null;
  if (viewer && viewer.realmId !== realm.id) return false;
  if (viewer && attachment.ownerId === viewer.id) return true;
  if (!viewer) {
    const [row] = await db.$queryRaw<{ ok: boolean }[]>`
      SELECT EXISTS (
        SELECT 1 FROM "AttachmentMessage" am JOIN "Message" m ON m.id = am."messageId" JOIN "Channel" c ON c.id = m."channelId"
        WHERE am."attachmentId" = ${attachment.id} AND c."isWebPublic" AND NOT c."inviteOnly"
      ) AS ok`;
    return row!.ok;
  }
  // Zulip's validate_attachment_request comes to this: some message linking the file is one the
  // viewer may read by ID (channel history through subscription or groups, messages received).
  const [row] = await db.$queryRaw<{ ok: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "AttachmentMessage" am JOIN "Message" m ON m.id = am."messageId"
      WHERE am."attachmentId" = ${attachment.id} AND ${readableMessageSql(viewer)}
    ) AS ok`;
  return row!.ok;
}

/** The upload IDs a sender may claim, read before the message is written (the send path's one statement). */
export async function claimableAttachmentIds(ctx: Context, sender: User, pathIds: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const pathId of pathIds) {
    if (await canReadUpload(ctx.db, sender, ctx.realm, pathId)) {
      ids.push((await ctx.db.attachment.findUniqueOrThrow({ where: { pathId }, select: { id: true } })).id);
    }
  }
  return ids;
}

/** `attachment` update events for the given uploads, to their owners, with their current messages. */
export async function announceUpdates(ctx: Context, attachmentIds: number[]): Promise<void> {
  if (!attachmentIds.length) return;
  const rows = await ctx.db.attachment.findMany({
    where: { id: { in: attachmentIds } },
    include: { messages: { select: { message: { select: { id: true, dateSent: true } } }, orderBy: { messageId: 'asc' } } },
  });
  for (const row of rows) {
    await announce(ctx, { id: row.ownerId, realmId: row.realmId }, { op: 'update', attachment: attachmentRecord(row, row.messages.map((m) => m.message)) });
  }
}

export interface AttachmentChange {
  add: number[];
  drop: number[];
  /** The message's `has_attachment` after the change. */
  hasAttachment: boolean;
}

/**
 * Zulip's check_attachment_reference_change, for an edit, read before the edit's transaction: the
 * message keeps the uploads its new content still links, gains the new ones its sender may read
 * (do_claim_attachments: linking an upload one cannot read shares nothing), and loses the rest.
 */
export async function planAttachmentChange(ctx: Context, sender: User, messageId: number, pathIds: string[]): Promise<AttachmentChange> {
  const current = await ctx.db.attachmentMessage.findMany({ where: { messageId }, select: { attachmentId: true, attachment: { select: { pathId: true } } } });
  const wanted = new Set(pathIds);
  const kept = new Set(current.filter((c) => wanted.has(c.attachment.pathId)).map((c) => c.attachment.pathId));
  const drop = current.filter((c) => !wanted.has(c.attachment.pathId)).map((c) => c.attachmentId);
  const add = await claimableAttachmentIds(ctx, sender, pathIds.filter((p) => !kept.has(p)));
  return { add, drop, hasAttachment: kept.size + add.length > 0 };
}

/** Writes a planned change inside the edit's transaction; announceUpdates tells the owners after it. */
export async function applyAttachmentChange(tx: Prisma.TransactionClient, messageId: number, change: AttachmentChange): Promise<void> {
  if (change.drop.length) await tx.attachmentMessage.deleteMany({ where: { messageId, attachmentId: { in: change.drop } } });
  if (change.add.length) await tx.attachmentMessage.createMany({ data: change.add.map((attachmentId) => ({ attachmentId, messageId })), skipDuplicates: true });
}

/**
 * Uploads that only the given messages linked, read before they are deleted: once the last message
 * linking an upload is gone, so is the upload (Zulip's retention of claimed attachments).
 */
export async function uploadsOnlyLinkedBy(db: Reader, messageIds: number[]) {
  if (!messageIds.length) return [];
  return db.$queryRaw<{ id: number; ownerId: number; realmId: number; pathId: string; thumbnails: string[] }[]>`
    SELECT a.id, a."ownerId", a."realmId", a."pathId", a.thumbnails FROM "Attachment" a
    WHERE a.id IN (SELECT "attachmentId" FROM "AttachmentMessage" WHERE "messageId" = ANY(${messageIds}::int[]))
      AND NOT EXISTS (SELECT 1 FROM "AttachmentMessage" o WHERE o."attachmentId" = a.id AND NOT (o."messageId" = ANY(${messageIds}::int[])))`;
}
