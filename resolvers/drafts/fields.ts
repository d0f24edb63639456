import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { DraftInputType, DraftType } from '../../schema/drafts.ts';
import { createDrafts, deleteDraft, editDraft, listDrafts } from './drafts.ts';

builder.queryFields((t) => ({
  drafts: t.field({
    type: [DraftType],
    description: 'The viewer\'s drafts, most recently edited first (refused while the viewer has turned off `enable_drafts_synchronization`).',
    resolve: forUser(listDrafts),
  }),
}));

builder.mutationFields((t) => ({
  createDrafts: t.intList({
    description: 'Stores drafts (all or none); returns their IDs in the order given.',
    args: { drafts: t.arg({ type: [DraftInputType], required: true, description: 'The drafts.' }) },
    resolve: forUser((ctx, user, args) => createDrafts(ctx, user, args.drafts)),
  }),
  editDraft: t.boolean({
    description: 'Replaces one of the viewer\'s drafts.',
    args: {
      draftId: t.arg.int({ required: true, description: 'The draft to replace.' }),
      draft: t.arg({ type: DraftInputType, required: true, description: 'Its new content and recipient.' }),
    },
    resolve: userAction((ctx, user, args) => editDraft(ctx, user, args.draftId, args.draft)),
  }),
  deleteDraft: t.boolean({
    description: 'Deletes one of the viewer\'s drafts.',
    args: { draftId: t.arg.int({ required: true, description: 'The draft to delete.' }) },
    resolve: userAction((ctx, user, args) => deleteDraft(ctx, user, args.draftId)),
  }),
}));
