import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { LinkifierType } from '../../schema/linkifiers.ts';
import { addLinkifier, listLinkifiers, removeLinkifier, reorderLinkifiers, updateLinkifier } from './actions.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';

builder.queryFields((t) => ({
  realmLinkifiers: t.field({
    type: [LinkifierType],
    description: 'The organization\'s linkifiers, in the order they are applied. Any member may read them.',
    resolve: forUser((ctx) => listLinkifiers(ctx.db, ctx.realm.id)),
  }),
}));

builder.mutationFields((t) => {
  const fieldArgs = () => ({
    pattern: t.arg.string({ required: true, description: 'Regular expression in RE2 syntax; named groups `(?P<name>...)` feed the URL template.' }),
    urlTemplate: t.arg.string({ required: true, description: 'RFC 6570 URL template; its variables must be exactly the named groups.' }),
    exampleInput: t.arg.string({ description: 'Example text the pattern matches; "" clears it. Needed with a reverse template.' }),
    reverseTemplate: t.arg.string({ description: '`{group}` template that must turn the groups extracted from exampleInput back into exampleInput; "" clears it.' }),
    alternativeUrlTemplates: t.arg.stringList({ description: 'Further RFC 6570 templates for reverse linkification.' }),
  });
  return {
    addLinkifier: t.int({
      description: 'Adds a linkifier (last in order) and returns its ID. Administrators only.',
      args: fieldArgs(),
      resolve: forUser(addLinkifier),
    }),
    updateLinkifier: t.boolean({
      description: 'Replaces a linkifier\'s pattern and URL template; optional fields left out keep their value. Administrators only.',
      args: { filterId: t.arg.int({ required: true, description: 'The linkifier\'s ID.' }), ...fieldArgs() },
      resolve: userAction((ctx, user, { filterId, ...args }) => updateLinkifier(ctx, user, filterId, args)),
    }),
    removeLinkifier: t.boolean({
      description: 'Deletes a linkifier. Administrators only.',
      args: { filterId: t.arg.int({ required: true, description: 'The linkifier\'s ID.' }) },
      resolve: userAction((ctx, user, args) => removeLinkifier(ctx, user, args.filterId)),
    }),
    reorderLinkifiers: t.boolean({
      description: 'Sets the order in which linkifiers apply. Administrators only.',
      args: { orderedLinkifierIds: t.arg.intList({ required: true, description: 'Every linkifier\'s ID exactly once, in the new order.' }) },
      resolve: userAction((ctx, user, args) => reorderLinkifiers(ctx, user, args.orderedLinkifierIds)),
    }),
  };
});
