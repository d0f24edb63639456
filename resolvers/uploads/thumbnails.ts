// Makes thumbnails of uploaded images in the background (Zulip's thumbnail worker): the upload
// answers at once; its messages show a placeholder with the image's dimensions until the
// thumbnails are stored, and are then re-rendered with them (`update_message`, rendering only).
// Every process makes the thumbnails of its own uploads, and at start-up those any process left
// unmade (a crash, a restart).
import type { Services } from '../../server/context.ts';
import { uploadKey } from './attachments.ts';
import { makeThumbnail, thumbnailFormatsFor, thumbnailKey } from './images.ts';
import { renderForRealm } from '../messages/render.ts';
import { THUMBNAIL_PLACEHOLDER_CLASS } from '../messages/markdown.ts';
import { messageAudience, messageFlagsByUser } from '../messages/access.ts';
import { toUnixSeconds } from '../time.ts';

export class Thumbnailer {
  private readonly pending = new Set<number>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly services: Services, private readonly log: (line: string) => void) {}

  /** Makes the thumbnails of an image upload soon. */
  request(attachmentId: number): void {
    if (this.stopped) return;
    this.pending.add(attachmentId);
    this.running ??= this.drain().finally(() => { this.running = null; });
  }

  /**
   * After a message linking these uploads commits: a thumbnail finished between the message's
   * rendering and its commit re-rendered nothing (the link was not visible yet), so look again.
   */
  recheck(attachmentIds: number[]): void {
    for (const id of attachmentIds) this.request(id);
  }

  /** Queues every image upload still without thumbnails. */
  async resume(): Promise<void> {
    const rows = await this.services.db.attachment.findMany({ where: { width: { not: null }, thumbnails: { isEmpty: true } }, select: { id: true } });
    for (const row of rows) this.request(row.id);
  }

  /** Resolves when nothing is queued or being made (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.clear();
    await this.idle();
  }

  private async drain(): Promise<void> {
    // Off the request that queued it: the upload's response does not wait.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size && !this.stopped) {
      const [id] = this.pending;
      this.pending.delete(id!);
      try {
        await this.thumbnail(id!);
      } catch (error) {
        this.log(`thumbnail of attachment ${id} failed: ${(error as Error).message}`);
      }
    }
  }

  private async thumbnail(attachmentId: number): Promise<void> {
    const { db, files } = this.services;
    const row = await db.attachment.findUnique({ where: { id: attachmentId } });
    if (!row || row.width == null) return;
    if (row.thumbnails.length) return this.rerenderMessages(row.id);
    const original = await files.read(uploadKey(row.pathId));
    if (!original) return;
    const made: string[] = [];
    for (const format of thumbnailFormatsFor(row.frames ?? 1)) {
      await files.put(thumbnailKey(row.pathId, format.name), await makeThumbnail(original, format), 'image/webp');
      made.push(format.name);
    }
    // Deleted meanwhile: its thumbnails go too.
    const updated = await db.attachment.updateMany({ where: { id: row.id }, data: { thumbnails: made } });
    if (!updated.count) {
      await files.delete(made.map((name) => thumbnailKey(row.pathId, name)));
      return;
    }
    await this.rerenderMessages(row.id);
  }

  /** Messages linking the image, rendered with their placeholder, get the thumbnail. */
  private async rerenderMessages(attachmentId: number): Promise<void> {
    const { db, events } = this.services;
    const links = await db.attachmentMessage.findMany({
      where: { attachmentId, message: { renderedContent: { contains: THUMBNAIL_PLACEHOLDER_CLASS } } },
      select: { message: { select: { id: true, realmId: true, content: true, renderedContent: true } } },
    });
    for (const { message } of links) {
      const rendered = await renderForRealm(db, message.realmId, message.content);
      if (rendered.html === message.renderedContent) continue;
      // Only if nobody edited it meanwhile: an edit renders with the thumbnail by itself.
      const changed = await db.message.updateMany({ where: { id: message.id, content: message.content }, data: { renderedContent: rendered.html } });
      if (!changed.count) continue;
      events.publish(message.realmId, await messageAudience(db, message.id), {
        type: 'update_message', user_id: null, edit_timestamp: toUnixSeconds(new Date()), message_id: message.id, message_ids: [message.id],
        flags: [], flags_by_user: await messageFlagsByUser(db, message.id),
        rendering_only: true, content: message.content, rendered_content: rendered.html, is_me_message: rendered.isMeMessage,
      });
    }
  }
}
