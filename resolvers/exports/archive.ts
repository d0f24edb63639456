// An organization's data as an archive (Zulip's zerver/lib/export.py, in Parley's own layout): a
// gzipped tar of JSON tables and the files they name, read back by the import (import.ts).
//
//   parley-export.json   format, version, export type, time, the organization's settings
//   users.json, channels.json, subscriptions.json, direct_conversations.json, messages.json,
//   user_messages.json, reactions.json, attachments.json (with the messages linking each)
//   files/<storage key>  uploads, avatars, the organization's icon and logos
//
// Which data: a public export (type 1) has public channels and their messages; a standard export
// (type 2) adds private channels and direct messages that a member who consented to private data
// export received, and only those members' message flags. Permission settings name groups: a
// system group by its name, any other by its members.
import { createGzip, gunzipSync } from 'node:zlib';
import { pack as tarPack, extract as tarExtract } from 'tar-stream';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { FileStore } from '../files/storage.ts';
import { uploadKey } from '../uploads/attachments.ts';
import { thumbnailKey } from '../uploads/images.ts';
import { avatarFileKey } from '../users/avatars.ts';
import { realmImageKey, type RealmImage } from '../realm/branding.ts';
import { CHANNEL_PERMISSION_SETTINGS } from '../channels/permission-settings.ts';

type Reader = Db | Prisma.TransactionClient;
type Json = Record<string, unknown>;

export const EXPORT_FORMAT = 'parley-export';
export const EXPORT_VERSION = 1;
export const EXPORT_PUBLIC = 1;
export const EXPORT_FULL_WITH_CONSENT = 2;

/** A permission setting's group, independent of the server's group IDs. */
export type GroupRef = { system: string } | { members: number[]; subgroups: GroupRef[] };

export interface ExportData {
  manifest: Json;
  tables: Record<string, Json[]>;
  /** Storage key → bytes and content type. */
  files: Map<string, { bytes: Buffer; contentType: string }>;
}

/** The Realm columns that hold group IDs (permission settings), by their `...GroupId` suffix. */
export function groupColumns(row: Json): string[] {
  return Object.keys(row).filter((k) => k.endsWith('GroupId'));
}

async function groupRef(db: Reader, groupId: number | null, depth = 0): Promise<GroupRef | null> {
  if (groupId == null) return null;
  const group = await db.userGroup.findUnique({
    where: { id: groupId },
    select: { name: true, isSystemGroup: true, members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } },
  });
  if (!group) return null;
  if (group.isSystemGroup && group.name) return { system: group.name };
  const subgroups: GroupRef[] = [];
  if (depth < 8) for (const s of group.subgroups) { const ref = await groupRef(db, s.subgroupId, depth + 1); if (ref) subgroups.push(ref); }
  return { members: group.members.map((m) => m.userId).sort((a, b) => a - b), subgroups };
}

/** The organization's data (see the header for what each export type holds). */
export async function collectExport(db: Reader, store: FileStore, realmId: number, exportType: number): Promise<ExportData> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId } });
  const users = await db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  const consenting = new Set(exportType === EXPORT_FULL_WITH_CONSENT
    ? users.filter((u) => (u.settings as Json | null)?.allow_private_data_export === true).map((u) => u.id)
    : []);
  const channels = await db.channel.findMany({ where: { realmId, ...(exportType === EXPORT_PUBLIC ? { inviteOnly: false } : {}) }, orderBy: { id: 'asc' } });
  const channelIds = channels.map((c) => c.id);
  const publicIds = new Set(channels.filter((c) => !c.inviteOnly).map((c) => c.id));

  // Public channels' messages, and (standard exports) private ones a consenting member received.
  const privateReceived = consenting.size
    ? new Set((await db.userMessage.findMany({ where: { userId: { in: [...consenting] }, message: { realmId } }, select: { messageId: true } })).map((r) => r.messageId))
    : new Set<number>();
  const candidates = await db.message.findMany({
    where: { realmId, OR: [{ channelId: { in: channelIds } }, ...(consenting.size ? [{ directConversationId: { not: null } }] : [])] },
    orderBy: { id: 'asc' },
  });
  const messages = candidates.filter((m) => (m.channelId != null && publicIds.has(m.channelId)) || privateReceived.has(m.id));
  const messageIds = messages.map((m) => m.id);

  const conversationIds = [...new Set(messages.map((m) => m.directConversationId).filter((id): id is number => id != null))];
  const conversations = await db.directConversation.findMany({ where: { id: { in: conversationIds } }, include: { members: { select: { userId: true } } } });
  const subscriptions = await db.subscription.findMany({ where: { channelId: { in: channelIds } }, orderBy: { id: 'asc' } });
  const userMessages = await db.userMessage.findMany({ where: { messageId: { in: messageIds } } });
  const reactions = await db.reaction.findMany({ where: { messageId: { in: messageIds } }, orderBy: { id: 'asc' } });
  const links = await db.attachmentMessage.findMany({ where: { messageId: { in: messageIds } } });
  const attachments = await db.attachment.findMany({ where: { id: { in: [...new Set(links.map((l) => l.attachmentId))] } }, orderBy: { id: 'asc' } });

  const realmRow: Json = { ...realm };
  delete realmRow.id;
  for (const column of groupColumns(realmRow)) realmRow[column] = await groupRef(db, realm[column as keyof typeof realm] as number | null);
  const channelRows: Json[] = [];
  for (const channel of channels) {
    const row: Json = { ...channel };
    for (const { column } of CHANNEL_PERMISSION_SETTINGS) row[column] = await groupRef(db, channel[column as keyof typeof channel] as number | null);
    channelRows.push(row);
  }

  const files: ExportData['files'] = new Map();
  const addFile = async (key: string) => {
    const file = await store.get(key);
    if (file) files.set(key, { bytes: (await store.read(key))!, contentType: file.contentType });
  };
  for (const a of attachments) {
    await addFile(uploadKey(a.pathId));
    for (const format of a.thumbnails) await addFile(thumbnailKey(a.pathId, format));
  }
  for (const u of users) {
    if (u.avatarSource === 'U' && u.avatarKey) for (const medium of [false, true]) await addFile(avatarFileKey(realmId, u.avatarKey, medium));
  }
  for (const image of ['icon', 'logo', 'night_logo'] as RealmImage[]) await addFile(realmImageKey(realmId, image));

  return {
    manifest: { format: EXPORT_FORMAT, version: EXPORT_VERSION, export_type: exportType, exported_at: new Date().toISOString(), realm_id: realmId, realm: realmRow },
    tables: {
      // A user's API key is a credential: the import makes new ones. Message flags only of consenting members.
      users: users.map(({ apiKey: _apiKey, ...u }) => u),
      channels: channelRows,
      subscriptions,
      direct_conversations: conversations.map((c) => ({ id: c.id, participantKey: c.participantKey, members: c.members.map((m) => m.userId) })),
      messages,
      user_messages: userMessages.filter((um) => exportType === EXPORT_FULL_WITH_CONSENT ? consenting.has(um.userId) : true)
        .map((um) => (exportType === EXPORT_PUBLIC || !consenting.has(um.userId) ? { ...um, read: false, starred: false, collapsed: false } : um)),
      reactions,
      attachments: attachments.map((a) => ({ ...a, messageIds: links.filter((l) => l.attachmentId === a.id).map((l) => l.messageId) })),
    } as unknown as Record<string, Json[]>,
    files,
  };
}

/** The archive: a gzipped tar of the manifest, one JSON file per table, and the files. */
export async function packExport(data: ExportData): Promise<Buffer> {
  const pack = tarPack();
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    gzip.on('data', (c: Buffer) => chunks.push(c));
    gzip.on('end', () => resolve(Buffer.concat(chunks)));
    gzip.on('error', reject);
    pack.on('error', reject);
  });
  pack.pipe(gzip);
  const entry = (name: string, body: Buffer) => new Promise<void>((resolve, reject) => pack.entry({ name, size: body.length }, body, (e) => (e ? reject(e) : resolve())));
  await entry('parley-export.json', Buffer.from(JSON.stringify(data.manifest, null, 1)));
  for (const [name, rows] of Object.entries(data.tables)) await entry(`${name}.json`, Buffer.from(JSON.stringify(rows)));
  const types: Record<string, string> = {};
  for (const [key, file] of data.files) {
    await entry(`files/${key}`, file.bytes);
    types[key] = file.contentType;
  }
  await entry('file_types.json', Buffer.from(JSON.stringify(types)));
  pack.finalize();
  return done;
}

/** Reads an archive made by packExport. */
export async function unpackExport(archive: Buffer): Promise<ExportData> {
  const extract = tarExtract();
  const entries = new Map<string, Buffer>();
  const finished = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c) => chunks.push(c as Buffer));
      stream.on('end', () => { entries.set(header.name, Buffer.concat(chunks)); next(); });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(gunzipSync(archive));
  await finished;
  const json = (name: string) => {
    const body = entries.get(name);
    if (!body) throw new Error(`not a Parley export: ${name} is missing`);
    return JSON.parse(body.toString('utf8'));
  };
  const manifest = json('parley-export.json') as Json;
  if (manifest.format !== EXPORT_FORMAT || manifest.version !== EXPORT_VERSION) throw new Error('not a Parley export of a version this server reads');
  const tables: Record<string, Json[]> = {};
  for (const name of ['users', 'channels', 'subscriptions', 'direct_conversations', 'messages', 'user_messages', 'reactions', 'attachments']) tables[name] = json(`${name}.json`);
  const types = json('file_types.json') as Record<string, string>;
  const files: ExportData['files'] = new Map();
  for (const [name, bytes] of entries) {
    if (name.startsWith('files/')) {
      const key = name.slice('files/'.length);
      files.set(key, { bytes, contentType: types[key] ?? 'application/octet-stream' });
    }
  }
  return { manifest, tables, files };
}
