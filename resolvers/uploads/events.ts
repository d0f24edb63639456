// `attachment` events: the owner's uploads as GET /attachments lists them, after every change
// (upload, a message linking or unlinking one, deletion), with the organization's space used.
import { toUnixSeconds } from '../time.ts';

export interface AttachmentRecord {
  id: number;
  name: string;
  path_id: string;
  size: number;
  /** Milliseconds, as Zulip sends them. */
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

export type AttachmentEvent =
  | { type: 'attachment'; op: 'add' | 'update'; attachment: AttachmentRecord; upload_space_used: number }
  | { type: 'attachment'; op: 'remove'; attachment: { id: number }; upload_space_used: number };

declare module '../events/kinds.ts' {
  interface EventKinds {
    attachment: AttachmentEvent;
  }
}

/** Zulip's Attachment.to_dict (times in whole seconds, as milliseconds). */
export function attachmentRecord(
  row: { id: number; fileName: string; pathId: string; size: number; createdAt: Date },
  messages: { id: number; dateSent: Date }[],
): AttachmentRecord {
  return {
    id: row.id,
    name: row.fileName,
    path_id: row.pathId,
    size: row.size,
    create_time: toUnixSeconds(row.createdAt) * 1000,
    messages: messages.map((m) => ({ id: m.id, date_sent: toUnixSeconds(m.dateSent) * 1000 })),
  };
}
