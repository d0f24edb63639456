// Code playgrounds.
import type { Route } from '../route.ts';

export const playgroundRoutes: Route[] = [
  { method: 'POST', path: '/realm/playgrounds', field: 'addRealmPlayground', shape: (id) => ({ id }) },
  { method: 'DELETE', path: '/realm/playgrounds/{playground_id}', field: 'removeRealmPlayground', shape: () => ({}) },
];
