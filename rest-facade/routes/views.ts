// Navigation views: the viewer's built-in view placement and custom views.
import type { Route } from '../route.ts';
import { navigationViewWire } from '../../resolvers/views/navigation-views.ts';

export const navigationViewRoutes: Route[] = [
  {
    method: 'GET', path: '/navigation_views', params: {},
    document: `query { navigationViews { fragment isPinned name } }`,
    shape: (d) => ({ navigation_views: d.navigationViews.map(navigationViewWire) }),
  },
  {
    method: 'POST', path: '/navigation_views',
    params: {
      fragment: { type: 'string', required: true },
      is_pinned: { type: 'bool', required: true },
      name: { type: 'string' },
    },
    document: `mutation($fragment: String!, $isPinned: Boolean!, $name: String) { addNavigationView(fragment: $fragment, isPinned: $isPinned, name: $name) }`,
  },
  {
    method: 'PATCH', path: '/navigation_views/{fragment}',
    params: {
      fragment: { type: 'string', in: 'path', required: true },
      is_pinned: { type: 'bool' },
      name: { type: 'string' },
    },
    document: `mutation($fragment: String!, $isPinned: Boolean, $name: String) { updateNavigationView(fragment: $fragment, isPinned: $isPinned, name: $name) }`,
  },
  {
    method: 'DELETE', path: '/navigation_views/{fragment}',
    params: { fragment: { type: 'string', in: 'path', required: true } },
    document: `mutation($fragment: String!) { removeNavigationView(fragment: $fragment) }`,
  },
];
