// GraphQL fields of uploads and attachments.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { FileUploadInput } from '../../schema/emoji.ts';
import { AttachmentListType, UploadResultType } from '../../schema/uploads.ts';
import { NotFoundError, PermissionDeniedError } from '../errors.ts';
import { canReadUpload, deleteAttachment, listAttachments, uploadFile } from './attachments.ts';
import { temporaryUploadUrl } from './temporary.ts';
import './events.ts';

builder.queryFields((t) => ({
  attachments: t.field({
    type: AttachmentListType,
    description: 'The viewer\'s uploads with the messages linking each, and the organization\'s upload space used.',
    resolve: forUser(listAttachments),
  }),
  uploadTemporaryUrl: t.string({
    description: 'A URL of an upload the viewer may read that works without credentials for 60 seconds (`/user_uploads/temporary/...`).',
    args: {
      realmIdStr: t.arg.string({ required: true, description: 'The first segment of the upload\'s path: its organization\'s ID.' }),
      filename: t.arg.string({ required: true, description: 'The rest of the path after `/user_uploads/{realm_id}/`.' }),
    },
    resolve: forUser(async (ctx, viewer, args) => {
      const pathId = `${args.realmIdStr}/${args.filename}`;
      const allowed = await canReadUpload(ctx.db, viewer, ctx.realm, pathId);
      if (allowed === null) throw new NotFoundError('File not found.');
      if (!allowed) throw new PermissionDeniedError('You are not authorized to view this file.');
      return temporaryUploadUrl(ctx.db, pathId);
    }),
  }),
}));

builder.mutationFields((t) => ({
  uploadFile: t.field({
    type: UploadResultType,
    description: 'Uploads one file (at most the organization\'s max_file_upload_size_mib). Only its owner can read it until a message links it.',
    args: { files: t.arg({ type: [FileUploadInput], required: true, description: 'The file: exactly one.' }) },
    resolve: forUser((ctx, user, args) => uploadFile(ctx, user, args.files)),
  }),
  deleteAttachment: t.boolean({
    description: 'Deletes one of the viewer\'s uploads; links to it stop working.',
    args: { attachmentId: t.arg.int({ required: true, description: 'The attachment\'s ID (see attachments).' }) },
    resolve: userAction((ctx, user, args) => deleteAttachment(ctx, user, args.attachmentId)),
  }),
}));
