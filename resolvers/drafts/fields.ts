import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { DraftInputType, DraftType } from '../../schema/drafts.ts';
import { createDrafts, deleteDraft, editDraft, listDrafts } from './drafts.ts';

builder.queryFields((t) => ({
  drafts: t.field({
    type: [DraftType],
    description: 'The viewer\'s drafts, most recently edited first (refused while the viewer has turned off `enable_drafts_synchronization`).',
    resolve: (_root, _args, ctx) => listDrafts(ctx, requireUser(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  createDrafts: t.intList({
    description: 'Stores drafts (all or none); returns their IDs in the order given.',
    args: { drafts: t.arg({ type: [DraftInputType], required: true, description: 'The drafts.' }) },
    resolve: (_root, args, ctx) => createDrafts(ctx, requireUser(ctx), args.drafts),
  }),
  editDraft: t.boolean({
    description: 'Replaces one of the viewer\'s drafts.',
    args: {
      draftId: t.arg.int({ required: true, description: 'The draft to replace.' }),
      draft: t.arg({ type: DraftInputType, required: true, description: 'Its new content and recipient.' }),
    },
    resolve: async (_root, args, ctx) => {
      await editDraft(ctx, requireUser(ctx), args.draftId, args.draft);
      return true;
    },
  }),
  deleteDraft: t.boolean({
    description: 'Deletes one of the viewer\'s drafts.',
    args: { draftId: t.arg.int({ required: true, description: 'The draft to delete.' }) },
    resolve: async (_root, args, ctx) => {
      await deleteDraft(ctx, requireUser(ctx), args.draftId);
      return true;
    },
  }),
}));
