import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { SavedSnippetType } from '../../schema/snippets.ts';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, listSavedSnippets } from './saved-snippets.ts';

builder.queryFields((t) => ({
  savedSnippets: t.field({
    type: [SavedSnippetType],
    description: "The viewer's saved snippets (Zulip's GET /saved_snippets), oldest first.",
    resolve: (_root, _args, ctx) => listSavedSnippets(ctx, requireUser(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  createSavedSnippet: t.int({
    description: 'Saves a snippet for the viewer; returns its ID. Title: 1 to 60 characters; content: 1 to 10000 (both trimmed).',
    args: {
      title: t.arg.string({ required: true, description: 'The title.' }),
      content: t.arg.string({ required: true, description: 'The Markdown content.' }),
    },
    resolve: (_root, args, ctx) => createSavedSnippet(ctx, requireUser(ctx), args),
  }),
  editSavedSnippet: t.boolean({
    description: "Changes the title and/or content of one of the viewer's saved snippets (at least one).",
    args: {
      savedSnippetId: t.arg.int({ required: true, description: 'The snippet to edit.' }),
      title: t.arg.string({ description: 'New title.' }),
      content: t.arg.string({ description: 'New content.' }),
    },
    resolve: async (_root, args, ctx) => {
      await editSavedSnippet(ctx, requireUser(ctx), args);
      return true;
    },
  }),
  deleteSavedSnippet: t.boolean({
    description: "Deletes one of the viewer's saved snippets.",
    args: { savedSnippetId: t.arg.int({ required: true, description: 'The snippet to delete.' }) },
    resolve: async (_root, args, ctx) => {
      await deleteSavedSnippet(ctx, requireUser(ctx), args.savedSnippetId);
      return true;
    },
  }),
}));
