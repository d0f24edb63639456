// Restoring an export (archive.ts) as a new organization of this server (Zulip's
// `manage.py import`): every row gets a new ID, so references are mapped as they are written;
// upload paths and the links to them in messages move to the new organization's ID; users get new
// API keys (an export carries none) and keep their password hashes. One transaction: an import
// that fails leaves nothing behind but the files it had stored, which it deletes.
import type { Prisma, Realm } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { FileStore } from '../files/storage.ts';
import { generateApiKey } from '../auth/credentials.ts';
import { createSystemGroups, syncRoleGroups } from '../groups/system.ts';
import { createAnonymousGroup } from '../groups/membership.ts';
import { CHANNEL_PERMISSION_SETTINGS } from '../channels/permission-settings.ts';
import { groupColumns, unpackExport, type GroupRef } from './archive.ts';

type Json = Record<string, any>;


export interface ImportOptions {
  /** The new organization's subdomain; default the exported one. */
  stringId?: string;
}

export interface ImportResult {
  realm: Realm;
  users: number;
  channels: number;
  messages: number;
  files: number;
}

const date = (value: unknown) => (value == null ? null : new Date(value as string));

/** Storage keys and upload URLs name the organization's ID; the import's is new. */
function moveKey(key: string, from: number, to: number): string {
  for (const prefix of ['files/', 'thumbnail/', 'avatars/']) {
    if (key.startsWith(`${prefix}${from}/`)) return `${prefix}${to}/${key.slice(`${prefix}${from}/`.length)}`;
  }
  return key;
}

export async function importRealm(db: Db, store: FileStore, archive: Buffer, options: ImportOptions = {}): Promise<ImportResult> {
  const data = await unpackExport(archive);
  const stored: string[] = [];
  try {
    return await db.$transaction(async (tx) => {
      const run = await RealmImport.begin(tx, data.manifest, options.stringId);
      await run.users(data.tables.users!);
      await run.channels(data.tables.channels!);
      await run.subscriptions(data.tables.subscriptions!);
      await run.conversations(data.tables.direct_conversations!);
      await run.messages(data.tables.messages!, data.tables.channels!);
      await run.messageRows(data.tables.user_messages!, data.tables.reactions!);
      await run.attachments(data.tables.attachments!);
      for (const [key, file] of data.files) {
        const target = moveKey(key, run.oldRealmId, run.realm.id);
        await store.put(target, file.bytes, file.contentType);
        stored.push(target);
      }
      return { realm: await tx.realm.findUniqueOrThrow({ where: { id: run.realm.id } }), ...run.counts(), files: stored.length };
    }, { timeout: 10 * 60_000, maxWait: 60_000 });
  } catch (error) {
    await store.delete(stored).catch(() => {});
    throw error;
  }
}

/** One import in its transaction: the new organization, and the map from each exported ID to its new one. */
class RealmImport {
  private readonly userIds = new Map<number, number>();
  private readonly channelIds = new Map<number, number>();
  private readonly conversationIds = new Map<number, number>();
  private readonly messageIds = new Map<number, number>();

  private constructor(
    private readonly tx: Prisma.TransactionClient,
    readonly realm: Realm,
    readonly oldRealmId: number,
    private readonly exported: Json,
    private readonly systemGroups: Record<string, number>,
  ) {}

  static async begin(tx: Prisma.TransactionClient, manifest: Json, stringIdOption: string | undefined): Promise<RealmImport> {
    const exported = manifest.realm as Json;
    const stringId = stringIdOption ?? (exported.stringId as string);
    if (await tx.realm.findUnique({ where: { stringId } })) throw new Error(`An organization already uses the subdomain '${stringId}'.`);
    // Group and channel settings point at rows that do not exist yet: they are set once those do.
    const realmColumns: Json = {};
    for (const [key, value] of Object.entries(exported)) {
      if (key.endsWith('GroupId') || key.endsWith('ChannelId') || key === 'stringId') continue;
      realmColumns[key] = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? new Date(value) : value;
    }
    const realm = await tx.realm.create({ data: { ...(realmColumns as Prisma.RealmCreateInput), stringId } });
    return new RealmImport(tx, realm, manifest.realm_id as number, exported, await createSystemGroups(tx, realm.id));
  }

  counts(): { users: number; channels: number; messages: number } {
    return { users: this.userIds.size, channels: this.channelIds.size, messages: this.messageIds.size };
  }

  private user(id: number | null | undefined): number | null {
    return id == null ? null : this.userIds.get(id) ?? null;
  }

  private channel(id: number | null | undefined): number | null {
    return id == null ? null : this.channelIds.get(id) ?? null;
  }

  private message(id: number): number | null {
    return this.messageIds.get(id) ?? null;
  }

  /** A group setting: a system group by name, or a new anonymous group of the mapped members. */
  private async group(ref: GroupRef | null): Promise<number | null> {
    if (!ref) return null;
    if ('system' in ref) return this.systemGroups[ref.system] ?? null;
    const subgroups: number[] = [];
    for (const s of ref.subgroups) { const id = await this.group(s); if (id != null) subgroups.push(id); }
    return createAnonymousGroup(this.tx, this.realm.id, ref.members.map((m) => this.user(m)).filter((m): m is number => m != null), subgroups);
  }

  async users(rows: Json[]): Promise<void> {
    const { tx, realm } = this;
    for (const u of rows) {
      const created = await tx.user.create({
        data: {
          realmId: realm.id, email: u.email, deliveryEmail: u.deliveryEmail, fullName: u.fullName, role: u.role,
          isActive: u.isActive, isBot: u.isBot, botType: u.botType, apiKey: generateApiKey(), passwordHash: u.passwordHash,
          dateJoined: date(u.dateJoined)!, timezone: u.timezone, avatarSource: u.avatarSource, avatarVersion: u.avatarVersion,
          avatarKey: u.avatarKey, settings: u.settings ?? {}, lastActivity: date(u.lastActivity), isImported: true,
        },
      });
      this.userIds.set(u.id, created.id);
      await syncRoleGroups(tx, realm.id, created.id, created.role);
    }
    for (const u of rows) {
      if (u.botOwnerId != null) await tx.user.update({ where: { id: this.user(u.id)! }, data: { botOwnerId: this.user(u.botOwnerId) } });
    }
  }

  /** Channels, then the organization's group and channel settings that name them. */
  async channels(rows: Json[]): Promise<void> {
    const { tx, realm, exported } = this;
    const realmGroups: Json = {};
    for (const column of groupColumns(exported)) realmGroups[column] = await this.group(exported[column] as GroupRef | null);
    for (const c of rows) {
      const permissions: Json = {};
      for (const { column } of CHANNEL_PERMISSION_SETTINGS) permissions[column] = await this.group(c[column] as GroupRef | null);
      const created = await tx.channel.create({
        data: {
          realmId: realm.id, name: c.name, description: c.description, renderedDescription: c.renderedDescription, dateCreated: date(c.dateCreated)!,
          creatorId: this.user(c.creatorId), inviteOnly: c.inviteOnly, isWebPublic: c.isWebPublic, historyPublicToSubscribers: c.historyPublicToSubscribers,
          messageRetentionDays: c.messageRetentionDays, topicsPolicy: c.topicsPolicy, isArchived: c.isArchived, isRecentlyActive: c.isRecentlyActive,
          ...permissions,
        },
      });
      this.channelIds.set(c.id, created.id);
    }
    await tx.realm.update({
      where: { id: realm.id },
      data: {
        ...realmGroups,
        moderationRequestChannelId: this.channel(exported.moderationRequestChannelId),
        newStreamAnnouncementsChannelId: this.channel(exported.newStreamAnnouncementsChannelId),
        signupAnnouncementsChannelId: this.channel(exported.signupAnnouncementsChannelId),
        zulipUpdateAnnouncementsChannelId: this.channel(exported.zulipUpdateAnnouncementsChannelId),
      },
    });
  }

  async subscriptions(rows: Json[]): Promise<void> {
    await this.tx.subscription.createMany({
      data: rows.filter((s) => this.channel(s.channelId) && this.user(s.userId)).map(({ id: _id, userId, channelId, dateCreated, ...rest }) => ({
        ...rest, userId: this.user(userId)!, channelId: this.channel(channelId)!, dateCreated: date(dateCreated)!,
      })) as Prisma.SubscriptionCreateManyInput[],
    });
  }

  async conversations(rows: Json[]): Promise<void> {
    for (const c of rows) {
      const members = (c.members as number[]).map((m) => this.user(m)!).sort((a, b) => a - b);
      const created = await this.tx.directConversation.create({
        data: { realmId: this.realm.id, participantKey: members.join(','), members: { createMany: { data: members.map((userId) => ({ userId })) } } },
      });
      this.conversationIds.set(c.id, created.id);
    }
  }

  /** Messages, with links to uploads moved to the new organization's ID, then each channel's first message. */
  async messages(rows: Json[], channels: Json[]): Promise<void> {
    const { tx, realm } = this;
    const uploadPrefix = new RegExp(`/user_uploads/${this.oldRealmId}/`, 'g');
    for (const m of rows) {
      const created = await tx.message.create({
        data: {
          realmId: realm.id, senderId: this.user(m.senderId)!, channelId: this.channel(m.channelId), topic: m.topic,
          directConversationId: m.directConversationId == null ? null : this.conversationIds.get(m.directConversationId)!,
          content: (m.content as string).replace(uploadPrefix, `/user_uploads/${realm.id}/`),
          renderedContent: (m.renderedContent as string).replace(uploadPrefix, `/user_uploads/${realm.id}/`),
          dateSent: date(m.dateSent)!, sendingClient: m.sendingClient, lastEditTime: date(m.lastEditTime), lastMovedTime: date(m.lastMovedTime),
          editHistory: m.editHistory ?? undefined, isMeMessage: m.isMeMessage, hasLink: m.hasLink, hasImage: m.hasImage, hasAttachment: m.hasAttachment,
        },
      });
      this.messageIds.set(m.id, created.id);
    }
    for (const c of channels) {
      if (c.firstMessageId != null && this.message(c.firstMessageId)) await tx.channel.update({ where: { id: this.channel(c.id)! }, data: { firstMessageId: this.message(c.firstMessageId) } });
    }
  }

  /** Per-user message rows (flags) and reactions. */
  async messageRows(userMessages: Json[], reactions: Json[]): Promise<void> {
    await this.tx.userMessage.createMany({
      data: userMessages.filter((um) => this.user(um.userId) && this.message(um.messageId)).map((um) => ({ ...um, userId: this.user(um.userId)!, messageId: this.message(um.messageId)! })) as Prisma.UserMessageCreateManyInput[],
    });
    await this.tx.reaction.createMany({
      data: reactions.filter((r) => this.user(r.userId) && this.message(r.messageId)).map(({ id: _id, ...r }) => ({
        ...r, userId: this.user(r.userId)!, messageId: this.message(r.messageId)!, createdAt: date(r.createdAt)!,
      })) as Prisma.ReactionCreateManyInput[],
    });
  }

  async attachments(rows: Json[]): Promise<void> {
    const { tx, realm } = this;
    for (const a of rows) {
      const owner = this.user(a.ownerId);
      if (!owner) continue;
      const pathId = (a.pathId as string).replace(new RegExp(`^${this.oldRealmId}/`), `${realm.id}/`);
      const created = await tx.attachment.create({
        data: {
          realmId: realm.id, ownerId: owner, pathId, fileName: a.fileName, contentType: a.contentType, size: a.size,
          createdAt: date(a.createdAt)!, width: a.width, height: a.height, frames: a.frames, thumbnails: a.thumbnails,
        },
      });
      const links = (a.messageIds as number[]).map((id) => this.message(id)).filter((id): id is number => id != null);
      await tx.attachmentMessage.createMany({ data: links.map((messageId) => ({ attachmentId: created.id, messageId })) });
    }
  }
}
