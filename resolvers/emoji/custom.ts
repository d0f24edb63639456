// Custom emoji: uploading, listing and deactivating, after Zulip's zerver/views/realm_emoji.py and
// check_add_realm_emoji (same order of checks, same wording). Images live in the CustomEmoji row and
// are served by server/app.ts at their `source_url`.
import type { Context } from '../../schema/context.ts';
import type { Db } from '../../prisma/database.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { unicodeEmojiByName } from './unicode.ts';
import { isAnimatedGif } from './gif.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

type Reader = Db | Prisma.TransactionClient;

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB default. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** An uploaded file as the domain sees it, whichever transport carried it. */
export interface UploadedFile {
  fileName: string;
  contentType?: string | null;
  /** The file's bytes, base64-encoded. */
  base64: string;
}

export interface CustomEmojiRow {
  id: number;
  realmId: number;
  name: string;
  authorId: number | null;
  deactivated: boolean;
  contentType: string;
  isAnimated: boolean;
}

export interface RealmEmojiRecord {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/gif': 'gif', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };
export const EMOJI_COLUMNS = { id: true, realmId: true, name: true, authorId: true, deactivated: true, contentType: true, isAnimated: true } as const;

/** The image format from the file's own bytes (a client's content type is not trusted). */
function detectImageType(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

function emojiSourceUrl(realmId: number, id: number, contentType: string): string {
  return `/user_avatars/${realmId}/emoji/images/${id}.${EXTENSIONS[contentType] ?? 'png'}`;
}

export function realmEmojiRecord(row: CustomEmojiRow): RealmEmojiRecord {
  return {
    id: String(row.id),
    name: row.name,
    source_url: emojiSourceUrl(row.realmId, row.id, row.contentType),
    still_url: row.isAnimated ? `/user_avatars/${row.realmId}/emoji/images/still/${row.id}.png` : null,
    deactivated: row.deactivated,
    author_id: row.authorId,
  };
}

export async function customEmojiRows(db: Reader, realmId: number): Promise<CustomEmojiRow[]> {
  return db.customEmoji.findMany({ where: { realmId }, select: EMOJI_COLUMNS, orderBy: { id: 'asc' } });
}

/** Every custom emoji of the realm (deactivated ones too), keyed by ID: `realm_emoji`. */
export async function realmEmojiDict(db: Reader, realmId: number): Promise<Record<string, RealmEmojiRecord>> {
  return Object.fromEntries((await customEmojiRows(db, realmId)).map((row) => [String(row.id), realmEmojiRecord(row)]));
}

/** Zulip's check_valid_emoji_name. */
function checkValidEmojiName(name: string): void {
  if (!name) throw new BadRequestError('Emoji name is missing');
  if (/^[0-9a-z\-_]+(?<![\-_])$/.test(name)) return;
  if (/^[0-9a-z\-_]+$/.test(name)) throw new BadRequestError('Emoji names must end with either a letter or digit.');
  throw new BadRequestError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

async function activeUserIds(db: Reader, realmId: number): Promise<number[]> {
  return (await db.user.findMany({ where: { realmId, isActive: true }, select: { id: true } })).map((u) => u.id);
}

export async function addCustomEmoji(ctx: Context, actor: User, rawName: string, files: UploadedFile[]): Promise<RealmEmojiRecord> {
  if (isGuest(actor)) throw new BadRequestError('Not allowed for guest users');
  if (actor.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  const name = rawName.trim().replace(/ /g, '_');
  checkValidEmojiName(name);
  if (!(await isUserInGroup(ctx.db, actor, ctx.realm.canAddCustomEmojiGroupId))) throw new BadRequestError('Insufficient permission');
  const taken = await ctx.db.customEmoji.findFirst({ where: { realmId: ctx.realm.id, name, deactivated: false }, select: { id: true } });
  if (taken) throw new BadRequestError('A custom emoji with this name already exists.');
  if (files.length !== 1) throw new BadRequestError('You must upload exactly one file.');
  if (unicodeEmojiByName(name) && !isAdmin(actor)) throw new BadRequestError('Only administrators can override built-in emoji.');
  const file = files[0]!;
  const bytes = Buffer.from(file.base64, 'base64');
  if (bytes.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw new BadRequestError(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  const contentType = detectImageType(bytes);
  if (!contentType) throw new BadRequestError('Invalid image format');

  const { row, all } = await ctx.db.$transaction(async (tx) => {
    // Re-checked inside the transaction: two uploads of one name at once must not both succeed.
    if (await tx.customEmoji.findFirst({ where: { realmId: ctx.realm.id, name, deactivated: false }, select: { id: true } })) {
      throw new BadRequestError('A custom emoji with this name already exists.');
    }
    const row = await tx.customEmoji.create({
      data: {
        realmId: ctx.realm.id, name, authorId: actor.id, fileName: file.fileName.slice(0, 255), contentType, content: bytes,
        isAnimated: contentType === 'image/gif' && isAnimatedGif(bytes),
      },
      select: EMOJI_COLUMNS,
    });
    return { row, all: await realmEmojiDict(tx, ctx.realm.id) };
  });
  const record = realmEmojiRecord(row);
  ctx.events.publish(ctx.realm.id, await activeUserIds(ctx.db, ctx.realm.id), { type: 'realm_emoji', op: 'add', emoji: record, realm_emoji: all });
  return record;
}

export async function deactivateCustomEmoji(ctx: Context, actor: User, name: string): Promise<void> {
  const emoji = await ctx.db.customEmoji.findFirst({ where: { realmId: ctx.realm.id, name, deactivated: false }, select: EMOJI_COLUMNS });
  if (!emoji) throw new NotFoundError(`Emoji '${name}' does not exist`);
  if (!isAdmin(actor) && emoji.authorId !== actor.id) throw new BadRequestError('Must be an organization administrator or emoji author');
  const all = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.customEmoji.updateMany({ where: { id: emoji.id, deactivated: false }, data: { deactivated: true } });
    // Deactivated meanwhile by a concurrent request, which announced it.
    if (count === 0) throw new NotFoundError(`Emoji '${name}' does not exist`);
    return realmEmojiDict(tx, ctx.realm.id);
  });
  ctx.events.publish(ctx.realm.id, await activeUserIds(ctx.db, ctx.realm.id), {
    type: 'realm_emoji', op: 'edit', emoji_id: String(emoji.id), data: { deactivated: true }, realm_emoji: all,
  });
}

initialStatePart(['realm_emoji'], async (s) => ({ realm_emoji: await realmEmojiDict(s.db, s.realm.id) }));
