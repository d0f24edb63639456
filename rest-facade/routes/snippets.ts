// Saved snippets: the viewer's reusable message texts.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const savedSnippetRoutes: Route[] = [
  {
    method: 'GET', path: '/saved_snippets', params: {},
    document: `query { savedSnippets { id title content dateCreated } }`,
    shape: (d) => ({ saved_snippets: snakeKeys(d.savedSnippets) }),
  },
  {
    method: 'POST', path: '/saved_snippets',
    params: { title: { type: 'string', required: true }, content: { type: 'string', required: true } },
    document: `mutation($title: String!, $content: String!) { createSavedSnippet(title: $title, content: $content) }`,
    shape: (d) => ({ saved_snippet_id: d.createSavedSnippet }),
  },
  {
    method: 'PATCH', path: '/saved_snippets/{saved_snippet_id}',
    params: {
      saved_snippet_id: { type: 'int', in: 'path', required: true },
      title: { type: 'string' },
      content: { type: 'string' },
    },
    document: `mutation($savedSnippetId: Int!, $title: String, $content: String) { editSavedSnippet(savedSnippetId: $savedSnippetId, title: $title, content: $content) }`,
  },
  {
    method: 'DELETE', path: '/saved_snippets/{saved_snippet_id}',
    params: { saved_snippet_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($savedSnippetId: Int!) { deleteSavedSnippet(savedSnippetId: $savedSnippetId) }`,
  },
];
