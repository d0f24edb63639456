// GraphQL for code playgrounds: the list, and administrators' additions and removals.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { addPlayground, listPlaygrounds, removePlayground, type PlaygroundWire } from './playgrounds.ts';

const Playground = builder.objectRef<PlaygroundWire>('RealmPlayground').implement({
  description: 'A code playground: a link offered on code blocks of one language.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The playground\'s ID.' }),
    name: t.exposeString('name', { description: 'Its name, shown when several playgrounds serve one language.' }),
    pygmentsLanguage: t.exposeString('pygments_language', { description: 'The Pygments name of the language of the code blocks it serves.' }),
    urlTemplate: t.exposeString('url_template', { description: 'An RFC 6570 URL template whose one variable, `code`, receives the code block.' }),
  }),
});

builder.queryFields((t) => ({
  realmPlaygrounds: t.field({
    type: [Playground],
    description: 'The organization\'s code playgrounds.',
    resolve: forUser((ctx) => listPlaygrounds(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  addRealmPlayground: t.int({
    description: 'Adds a code playground (administrators); returns its ID.',
    args: {
      name: t.arg.string({ required: true, description: 'The name shown to users (at most 64 characters).' }),
      pygmentsLanguage: t.arg.string({ required: true, description: 'The Pygments name of the language (letters, digits, spaces and _+-./#).' }),
      urlTemplate: t.arg.string({ required: true, description: 'An RFC 6570 URL template with exactly one variable, `code`.' }),
    },
    resolve: forUser(addPlayground),
  }),
  removeRealmPlayground: t.boolean({
    description: 'Removes a code playground (administrators).',
    args: { playgroundId: t.arg.int({ required: true, description: 'The playground\'s ID.' }) },
    resolve: userAction((ctx, user, args) => removePlayground(ctx, user, args.playgroundId)),
  }),
}));
