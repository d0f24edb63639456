// Linkifiers (Zulip still calls the write endpoints "filters").
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const linkifierRoutes: Route[] = [
  { method: 'GET', path: '/realm/linkifiers', field: 'realmLinkifiers', select: 'id pattern urlTemplate exampleInput reverseTemplate alternativeUrlTemplates', shape: (linkifiers) => ({ linkifiers: snakeKeys(linkifiers) }) },
  { method: 'PATCH', path: '/realm/linkifiers', field: 'reorderLinkifiers' },
  { method: 'POST', path: '/realm/filters', field: 'addLinkifier', shape: (id) => ({ id }) },
  { method: 'PATCH', path: '/realm/filters/{filter_id}', field: 'updateLinkifier' },
  { method: 'DELETE', path: '/realm/filters/{filter_id}', field: 'removeLinkifier' },
];
