import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { NavigationViewType } from '../../schema/navigation-views.ts';
import { addNavigationView, listNavigationViews, removeNavigationView, updateNavigationView } from './navigation-views.ts';

builder.queryFields((t) => ({
  navigationViews: t.field({
    type: [NavigationViewType],
    description: "The viewer's navigation views (Zulip's GET /navigation_views), oldest first.",
    resolve: forUser(listNavigationViews),
  }),
}));

builder.mutationFields((t) => ({
  addNavigationView: t.boolean({
    description: 'Adds a navigation view for the viewer: a built-in view (no name) or a named custom view. Duplicate fragments or names are refused.',
    args: {
      fragment: t.arg.string({ required: true, description: 'The view\'s URL hash fragment; cannot be blank.' }),
      isPinned: t.arg.boolean({ required: true, description: 'Whether the view is pinned to the sidebar.' }),
      name: t.arg.string({ description: 'Name of a custom view; must be omitted for built-in views.' }),
    },
    resolve: userAction(addNavigationView),
  }),
  updateNavigationView: t.boolean({
    description: "Changes a navigation view's pinning or name.",
    args: {
      fragment: t.arg.string({ required: true, description: 'The view to change.' }),
      isPinned: t.arg.boolean({ description: 'New pinning, if changing.' }),
      name: t.arg.string({ description: 'New name, if changing (custom views only).' }),
    },
    resolve: userAction(updateNavigationView),
  }),
  removeNavigationView: t.boolean({
    description: 'Removes one of the viewer\'s navigation views.',
    args: { fragment: t.arg.string({ required: true, description: 'The view to remove.' }) },
    resolve: userAction((ctx, user, args) => removeNavigationView(ctx, user, args.fragment)),
  }),
}));
