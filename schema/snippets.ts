import { builder } from './builder.ts';

export interface SavedSnippetShape {
  id: number;
  title: string;
  content: string;
  dateCreated: number;
}

export const SavedSnippetType = builder.objectRef<SavedSnippetShape>('SavedSnippet').implement({
  description: 'A piece of message text the viewer saved for reuse.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The saved snippet ID.' }),
    title: t.exposeString('title', { description: 'Its title.' }),
    content: t.exposeString('content', { description: 'Markdown inserted into a message when the snippet is used.' }),
    dateCreated: t.exposeInt('dateCreated', { description: 'When it was created (Unix seconds).' }),
  }),
});
