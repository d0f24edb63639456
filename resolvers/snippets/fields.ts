import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { SavedSnippetType } from '../../schema/snippets.ts';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, listSavedSnippets } from './saved-snippets.ts';

builder.queryFields((t) => ({
  savedSnippets: t.field({
    type: [SavedSnippetType],
    description: "The viewer's saved snippets (Zulip's GET /saved_snippets), oldest first.",
    resolve: forUser(listSavedSnippets),
  }),
}));

builder.mutationFields((t) => ({
  createSavedSnippet: t.int({
    description: 'Saves a snippet for the viewer; returns its ID. Title: 1 to 60 characters; content: 1 to 10000 (both trimmed).',
    args: {
      title: t.arg.string({ required: true, description: 'The title.' }),
      content: t.arg.string({ required: true, description: 'The Markdown content.' }),
    },
    resolve: forUser(createSavedSnippet),
  }),
  editSavedSnippet: t.boolean({
    description: "Changes the title and/or content of one of the viewer's saved snippets (at least one).",
    args: {
      savedSnippetId: t.arg.int({ required: true, description: 'The snippet to edit.' }),
      title: t.arg.string({ description: 'New title.' }),
      content: t.arg.string({ description: 'New content.' }),
    },
    resolve: userAction(editSavedSnippet),
  }),
  deleteSavedSnippet: t.boolean({
    description: "Deletes one of the viewer's saved snippets.",
    args: { savedSnippetId: t.arg.int({ required: true, description: 'The snippet to delete.' }) },
    resolve: userAction((ctx, user, args) => deleteSavedSnippet(ctx, user, args.savedSnippetId)),
  }),
}));
