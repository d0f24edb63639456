// Uploaded files (attachments).
import { builder } from './builder.ts';
import type { AttachmentRecord } from '../resolvers/uploads/events.ts';
import type { UploadResult } from '../resolvers/uploads/attachments.ts';

export const UploadResultType = builder.objectRef<UploadResult>('UploadResult').implement({
  description: 'A stored upload: link it in a message as `[filename](url)` to share it.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Path of the file, relative to the organization\'s URL (`/user_uploads/...`).' }),
    filename: t.exposeString('filename', { description: 'The file\'s name as uploaded (the URL carries a sanitized one).' }),
  }),
});

const AttachmentMessageType = builder.objectRef<AttachmentRecord['messages'][number]>('AttachmentMessage').implement({
  description: 'A message linking an upload.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The message\'s ID.' }),
    dateSent: t.float({ description: 'When it was sent, in milliseconds since the epoch.', resolve: (m) => m.date_sent }),
  }),
});

export const AttachmentType = builder.objectRef<AttachmentRecord>('Attachment').implement({
  description: 'A file the viewer uploaded (Zulip\'s attachment).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The attachment\'s ID (for deleteAttachment).' }),
    name: t.exposeString('name', { description: 'The file\'s name as uploaded.' }),
    pathId: t.string({ description: 'The path after `/user_uploads/` where the file is served.', resolve: (a) => a.path_id }),
    size: t.exposeInt('size', { description: 'Size in bytes.' }),
    createTime: t.float({ description: 'When it was uploaded, in milliseconds since the epoch.', resolve: (a) => a.create_time }),
    messages: t.field({ type: [AttachmentMessageType], description: 'The messages linking it; whoever can read one of them can read the file.', resolve: (a) => a.messages }),
  }),
});

export const AttachmentListType = builder.objectRef<{ attachments: AttachmentRecord[]; uploadSpaceUsed: number }>('AttachmentList').implement({
  description: 'The viewer\'s uploads and the space the organization\'s uploads take.',
  fields: (t) => ({
    attachments: t.field({ type: [AttachmentType], description: 'The viewer\'s uploads, oldest first.', resolve: (l) => l.attachments }),
    uploadSpaceUsed: t.float({ description: 'Bytes used by every upload of the organization (counted against its quota).', resolve: (l) => l.uploadSpaceUsed }),
  }),
});
