// Navigation views: the viewer's built-in view placement and custom views.
import type { Route } from '../route.ts';
import { navigationViewWire } from '../../resolvers/views/navigation-views.ts';

export const navigationViewRoutes: Route[] = [
  {
    method: 'GET', path: '/navigation_views', field: 'navigationViews', select: 'fragment isPinned name',
    shape: (views) => ({ navigation_views: views.map(navigationViewWire) }),
  },
  { method: 'POST', path: '/navigation_views', field: 'addNavigationView' },
  // Fragments are narrows such as `narrow/is/alerted`: the rest of the path.
  { method: 'PATCH', path: '/navigation_views/{fragment:path}', field: 'updateNavigationView' },
  { method: 'DELETE', path: '/navigation_views/{fragment:path}', field: 'removeNavigationView' },
];
