// Drafts kept in step across the viewer's clients.
import type { Route } from '../route.ts';

export const draftRoutes: Route[] = [
  { method: 'GET', path: '/drafts', field: 'drafts', shape: (drafts: unknown[]) => ({ count: drafts.length, drafts }) },
  { method: 'POST', path: '/drafts', field: 'createDrafts', shape: (ids) => ({ ids }) },
  { method: 'PATCH', path: '/drafts/{draft_id}', field: 'editDraft' },
  { method: 'DELETE', path: '/drafts/{draft_id}', field: 'deleteDraft' },
];
