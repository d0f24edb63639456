import { builder } from './builder.ts';

export interface NavigationViewShape {
  fragment: string;
  isPinned: boolean;
  name: string | null;
}

export const NavigationViewType = builder.objectRef<NavigationViewShape>('NavigationView').implement({
  description: "One of the viewer's navigation views: a built-in view's placement, or a custom view with a name.",
  fields: (t) => ({
    fragment: t.exposeString('fragment', { description: 'Unique identifier; clients navigate to the matching URL hash.' }),
    isPinned: t.exposeBoolean('isPinned', { description: 'True: shown in the sidebar; false: in the "More views" menu.' }),
    name: t.exposeString('name', { nullable: true, description: 'User-facing name of a custom view; null for built-in views.' }),
  }),
});
