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
  const exported = data.manifest.realm as Json;
  const oldRealmId = data.manifest.realm_id as number;
  const stringId = options.stringId ?? (exported.stringId as string);
  const t = data.tables as Record<string, Json[]>;
  const stored: string[] = [];

  try {
    const result = await db.$transaction(async (tx) => {
      if (await tx.realm.findUnique({ where: { stringId } })) throw new Error(`An organization already uses the subdomain '${stringId}'.`);
      const realmColumns: Json = {};
      for (const [key, value] of Object.entries(exported)) {
        if (key.endsWith('GroupId') || key.endsWith('ChannelId') || key === 'stringId') continue;
        realmColumns[key] = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? new Date(value) : value;
      }
      const realm = await tx.realm.create({ data: { ...(realmColumns as Prisma.RealmCreateInput), stringId } });
      const systemGroups = await createSystemGroups(tx, realm.id);

      const userIds = new Map<number, number>();
      for (const u of t.users!) {
        const created = await tx.user.create({
          data: {
            realmId: realm.id, email: u.email, deliveryEmail: u.deliveryEmail, fullName: u.fullName, role: u.role,
            isActive: u.isActive, isBot: u.isBot, botType: u.botType, apiKey: generateApiKey(), passwordHash: u.passwordHash,
            dateJoined: date(u.dateJoined)!, timezone: u.timezone, avatarSource: u.avatarSource, avatarVersion: u.avatarVersion,
            avatarKey: u.avatarKey, settings: u.settings ?? {}, lastActivity: date(u.lastActivity), isImported: true,
          },
        });
        userIds.set(u.id, created.id);
        await syncRoleGroups(tx, realm.id, created.id, created.role);
      }
      const user = (id: number | null | undefined) => (id == null ? null : userIds.get(id) ?? null);
      for (const u of t.users!) {
        if (u.botOwnerId != null) await tx.user.update({ where: { id: user(u.id)! }, data: { botOwnerId: user(u.botOwnerId) } });
      }

      const group = async (ref: GroupRef | null): Promise<number | null> => {
        if (!ref) return null;
        if ('system' in ref) return systemGroups[ref.system] ?? null;
        const subgroups: number[] = [];
        for (const s of ref.subgroups) { const id = await group(s); if (id != null) subgroups.push(id); }
        return createAnonymousGroup(tx, realm.id, ref.members.map((m) => user(m)).filter((m): m is number => m != null), subgroups);
      };
      const realmGroups: Json = {};
      for (const column of groupColumns(exported)) realmGroups[column] = await group(exported[column] as GroupRef | null);

      const channelIds = new Map<number, number>();
      for (const c of t.channels!) {
        const permissions: Json = {};
        for (const { column } of CHANNEL_PERMISSION_SETTINGS) permissions[column] = await group(c[column] as GroupRef | null);
        const created = await tx.channel.create({
          data: {
            realmId: realm.id, name: c.name, description: c.description, renderedDescription: c.renderedDescription, dateCreated: date(c.dateCreated)!,
            creatorId: user(c.creatorId), inviteOnly: c.inviteOnly, isWebPublic: c.isWebPublic, historyPublicToSubscribers: c.historyPublicToSubscribers,
            messageRetentionDays: c.messageRetentionDays, topicsPolicy: c.topicsPolicy, isArchived: c.isArchived, isRecentlyActive: c.isRecentlyActive,
            ...permissions,
          },
        });
        channelIds.set(c.id, created.id);
      }
      const channel = (id: number | null | undefined) => (id == null ? null : channelIds.get(id) ?? null);
      await tx.realm.update({
        where: { id: realm.id },
        data: {
          ...realmGroups,
          moderationRequestChannelId: channel(exported.moderationRequestChannelId),
          newStreamAnnouncementsChannelId: channel(exported.newStreamAnnouncementsChannelId),
          signupAnnouncementsChannelId: channel(exported.signupAnnouncementsChannelId),
          zulipUpdateAnnouncementsChannelId: channel(exported.zulipUpdateAnnouncementsChannelId),
        },
      });

      await tx.subscription.createMany({
        data: t.subscriptions!.filter((s) => channel(s.channelId) && user(s.userId)).map(({ id: _id, userId, channelId, dateCreated, ...rest }) => ({
          ...rest, userId: user(userId)!, channelId: channel(channelId)!, dateCreated: date(dateCreated)!,
        })) as Prisma.SubscriptionCreateManyInput[],
      });

      const conversationIds = new Map<number, number>();
      for (const c of t.direct_conversations!) {
        const members = (c.members as number[]).map((m) => user(m)!).sort((a, b) => a - b);
        const created = await tx.directConversation.create({
          data: { realmId: realm.id, participantKey: members.join(','), members: { createMany: { data: members.map((userId) => ({ userId })) } } },
        });
        conversationIds.set(c.id, created.id);
      }

      const uploadPrefix = new RegExp(`/user_uploads/${oldRealmId}/`, 'g');
      const messageIds = new Map<number, number>();
      for (const m of t.messages!) {
        const created = await tx.message.create({
          data: {
            realmId: realm.id, senderId: user(m.senderId)!, channelId: channel(m.channelId), topic: m.topic,
            directConversationId: m.directConversationId == null ? null : conversationIds.get(m.directConversationId)!,
            content: (m.content as string).replace(uploadPrefix, `/user_uploads/${realm.id}/`),
            renderedContent: (m.renderedContent as string).replace(uploadPrefix, `/user_uploads/${realm.id}/`),
            dateSent: date(m.dateSent)!, sendingClient: m.sendingClient, lastEditTime: date(m.lastEditTime), lastMovedTime: date(m.lastMovedTime),
            editHistory: m.editHistory ?? undefined, isMeMessage: m.isMeMessage, hasLink: m.hasLink, hasImage: m.hasImage, hasAttachment: m.hasAttachment,
          },
        });
        messageIds.set(m.id, created.id);
      }
      const message = (id: number) => messageIds.get(id) ?? null;
      for (const c of t.channels!) {
        if (c.firstMessageId != null && message(c.firstMessageId)) await tx.channel.update({ where: { id: channel(c.id)! }, data: { firstMessageId: message(c.firstMessageId) } });
      }
      await tx.userMessage.createMany({
        data: t.user_messages!.filter((um) => user(um.userId) && message(um.messageId)).map((um) => ({ ...um, userId: user(um.userId)!, messageId: message(um.messageId)! })) as Prisma.UserMessageCreateManyInput[],
      });
      await tx.reaction.createMany({
        data: t.reactions!.filter((r) => user(r.userId) && message(r.messageId)).map(({ id: _id, ...r }) => ({
          ...r, userId: user(r.userId)!, messageId: message(r.messageId)!, createdAt: date(r.createdAt)!,
        })) as Prisma.ReactionCreateManyInput[],
      });
      for (const a of t.attachments!) {
        const owner = user(a.ownerId);
        if (!owner) continue;
        const pathId = (a.pathId as string).replace(new RegExp(`^${oldRealmId}/`), `${realm.id}/`);
        const created = await tx.attachment.create({
          data: {
            realmId: realm.id, ownerId: owner, pathId, fileName: a.fileName, contentType: a.contentType, size: a.size,
            createdAt: date(a.createdAt)!, width: a.width, height: a.height, frames: a.frames, thumbnails: a.thumbnails,
          },
        });
        const links = (a.messageIds as number[]).map(message).filter((id): id is number => id != null);
        await tx.attachmentMessage.createMany({ data: links.map((messageId) => ({ attachmentId: created.id, messageId })) });
      }

      for (const [key, file] of data.files) {
        const target = moveKey(key, oldRealmId, realm.id);
        await store.put(target, file.bytes, file.contentType);
        stored.push(target);
      }
      return { realm: (await tx.realm.findUniqueOrThrow({ where: { id: realm.id } })), users: userIds.size, channels: channelIds.size, messages: messageIds.size, files: stored.length };
    }, { timeout: 10 * 60_000, maxWait: 60_000 });
    return result;
  } catch (error) {
    await store.delete(stored).catch(() => {});
    throw error;
  }
}

