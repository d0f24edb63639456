// Saved snippets: the viewer's reusable message texts.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const savedSnippetRoutes: Route[] = [
  { method: 'GET', path: '/saved_snippets', field: 'savedSnippets', select: 'id title content dateCreated', shape: (snippets) => ({ saved_snippets: snakeKeys(snippets) }) },
  { method: 'POST', path: '/saved_snippets', field: 'createSavedSnippet', shape: (id) => ({ saved_snippet_id: id }) },
  { method: 'PATCH', path: '/saved_snippets/{saved_snippet_id}', field: 'editSavedSnippet' },
  { method: 'DELETE', path: '/saved_snippets/{saved_snippet_id}', field: 'deleteSavedSnippet' },
];
