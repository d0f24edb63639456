// Channel folders (Zulip's ChannelFolder, zerver/views/channel_folders.py and
// zerver/actions/channel_folders.py): named, ordered groups of an organization's channels that
// clients show as sidebar sections. Administrators create, rename, describe, archive and reorder
// them; every active user hears each change in a `channel_folder` event. Channels join a folder
// through `folder_id` (update.ts, subscribe.ts), which accepts only unarchived folders of the realm.
import type { ChannelFolder, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, InvalidArgumentError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { requireAdmin } from '../users/update.ts';
import { activeUserIds } from '../users/audience.ts';
import { isDbId } from '../rows.ts';
import { codePointLength } from '../text.ts';
import { toUnixSeconds } from '../time.ts';
import { renderForRealm } from '../messages/render.ts';

/** Zulip's ChannelFolder.MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH. */
export const MAX_FOLDER_NAME_LENGTH = 60;
export const MAX_FOLDER_DESCRIPTION_LENGTH = 1024;

export interface ChannelFolderWire {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  order: number;
  date_created: number;
  creator_id: number | null;
  is_archived: boolean;
}

export type ChannelFolderEvent =
  | { type: 'channel_folder'; op: 'add'; channel_folder: ChannelFolderWire }
  | {
    type: 'channel_folder';
    op: 'update';
    channel_folder_id: number;
    data: { name?: string; description?: string; rendered_description?: string; is_archived?: boolean };
  }
  | { type: 'channel_folder'; op: 'reorder'; order: number[] };

declare module '../events/kinds.ts' {
  interface EventKinds {
    channel_folder: ChannelFolderEvent;
  }
}

export function folderWire(f: ChannelFolder): ChannelFolderWire {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    rendered_description: f.renderedDescription,
    order: f.order,
    date_created: toUnixSeconds(f.dateCreated),
    creator_id: f.creatorId,
    is_archived: f.isArchived,
  };
}

/** The realm's folders in their order (archived ones only when asked for). */
export async function listChannelFolders(ctx: Pick<Context, 'db' | 'realm'>, includeArchived: boolean): Promise<ChannelFolderWire[]> {
  const rows = await ctx.db.channelFolder.findMany({
    where: { realmId: ctx.realm.id, ...(includeArchived ? {} : { isArchived: false }) },
    orderBy: [{ order: 'asc' }, { id: 'asc' }],
  });
  return rows.map(folderWire);
}

/** Zulip's check_channel_folder_name, first half: within the length limit, not blank, printable. */
function checkName(name: string): void {
  if (codePointLength(name) > MAX_FOLDER_NAME_LENGTH) {
    throw new InvalidArgumentError('name', `name is too long (limit: ${MAX_FOLDER_NAME_LENGTH} characters)`);
  }
  if (!name.trim()) throw new BadRequestError('Channel folder name can\'t be empty.');
  const bad = [...name].findIndex((c) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(c));
  if (bad >= 0) throw new BadRequestError(`Invalid character in channel folder name, at position ${bad + 1}.`);
}

/**
 * The second half: no other folder of the realm has the name, ignoring case, archived folders
 * included. (Zulip also counts the folder being renamed, refusing a change of case alone; here a
 * folder may change the case of its own name.)
 */
async function checkNameFree(ctx: Context, name: string, renamedId?: number): Promise<void> {
  const clash = await ctx.db.channelFolder.findFirst({
    where: { realmId: ctx.realm.id, name: { equals: name, mode: 'insensitive' }, ...(renamedId ? { id: { not: renamedId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new BadRequestError(`Channel folder '${name}' already exists`);
}

function checkDescription(description: string): void {
  if (codePointLength(description) > MAX_FOLDER_DESCRIPTION_LENGTH) {
    throw new InvalidArgumentError('description', `description is too long (limit: ${MAX_FOLDER_DESCRIPTION_LENGTH} characters)`);
  }
}

async function render(ctx: Context, description: string): Promise<string> {
  return description ? (await renderForRealm(ctx.db, ctx.realm.id, description)).html : '';
}

async function publish(ctx: Context, event: ChannelFolderEvent): Promise<void> {
  ctx.events.publish(ctx.realm.id, await activeUserIds(ctx.db, ctx.realm.id), event);
}

/** Creates a folder (administrators), last in the order; returns its ID. */
export async function createChannelFolder(ctx: Context, actor: User, input: { name: string; description: string }): Promise<number> {
  requireAdmin(actor);
  checkName(input.name);
  checkDescription(input.description);
  return inTransaction(ctx, async (tx) => {
    await checkNameFree(tx, input.name);
    const row = await tx.db.channelFolder.create({
      data: {
        realmId: ctx.realm.id,
        name: input.name,
        description: input.description,
        renderedDescription: await render(tx, input.description),
        creatorId: actor.id,
      },
    });
    // As Zulip: a new folder's order is its ID, so it comes after every existing one.
    const folder = await tx.db.channelFolder.update({ where: { id: row.id }, data: { order: row.id } });
    await publish(tx, { type: 'channel_folder', op: 'add', channel_folder: folderWire(folder) });
    return folder.id;
  });
}

export interface ChannelFolderChanges {
  name?: string | null;
  description?: string | null;
  isArchived?: boolean | null;
}

/** Renames, redescribes, archives or unarchives a folder (administrators); one event per change, as Zulip. */
export async function updateChannelFolder(ctx: Context, actor: User, folderId: number, changes: ChannelFolderChanges): Promise<void> {
  requireAdmin(actor);
  if (changes.name != null) checkName(changes.name);
  if (changes.description != null) checkDescription(changes.description);
  await inTransaction(ctx, async (tx) => {
    const folder = isDbId(folderId)
      ? await tx.db.channelFolder.findFirst({ where: { id: folderId, realmId: ctx.realm.id } })
      : null;
    if (!folder) throw new BadRequestError('Invalid channel folder ID');
    const { name, description, isArchived } = changes;
    if (name != null && name !== folder.name) {
      await checkNameFree(tx, name, folder.id);
      await tx.db.channelFolder.update({ where: { id: folder.id }, data: { name } });
      await publish(tx, { type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data: { name } });
    }
    if (description != null && description !== folder.description) {
      const rendered = await render(tx, description);
      await tx.db.channelFolder.update({ where: { id: folder.id }, data: { description, renderedDescription: rendered } });
      await publish(tx, { type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data: { description, rendered_description: rendered } });
    }
    if (isArchived != null && isArchived !== folder.isArchived) {
      if (isArchived) {
        const inUse = await tx.db.channel.findFirst({ where: { folderId: folder.id, isArchived: false }, select: { id: true } });
        if (inUse) throw new BadRequestError('You need to remove all the channels from this folder to archive it.');
      }
      await tx.db.channelFolder.update({ where: { id: folder.id }, data: { isArchived } });
      await publish(tx, { type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data: { is_archived: isArchived } });
    }
  });
}

/** Sets the order of the realm's folders (administrators): `order` lists every folder's ID once. */
export async function reorderChannelFolders(ctx: Context, actor: User, order: number[]): Promise<void> {
  requireAdmin(actor);
  await inTransaction(ctx, async (tx) => {
    const folders = await tx.db.channelFolder.findMany({ where: { realmId: ctx.realm.id }, select: { id: true } });
    const position = new Map(order.map((id, index) => [id, index]));
    const ids = new Set(folders.map((f) => f.id));
    if (position.size !== order.length || order.length !== folders.length || order.some((id) => !ids.has(id))) {
      throw new BadRequestError('Invalid order mapping.');
    }
    for (const [id, index] of position) await tx.db.channelFolder.update({ where: { id }, data: { order: index } });
    await publish(tx, { type: 'channel_folder', op: 'reorder', order });
  });
}
