// GraphQL fields of custom emoji.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { CustomEmojiType, FileUploadInput } from '../../schema/emoji.ts';
import { addCustomEmoji, customEmojiRows, deactivateCustomEmoji, realmEmojiRecord } from './custom.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';

builder.queryFields((t) => ({
  customEmoji: t.field({
    type: [CustomEmojiType],
    description: 'Every custom emoji of the viewer\'s organization, deactivated ones included, by ID.',
    resolve: forUser(async (ctx) => (await customEmojiRows(ctx.db, ctx.realm.id)).map(realmEmojiRecord)),
  }),
}));

builder.mutationFields((t) => ({
  addCustomEmoji: t.field({
    type: CustomEmojiType,
    description: 'Uploads a custom emoji (members in the organization\'s can_add_custom_emoji_group). Exactly one file, at most 5 MiB: PNG, GIF, JPEG or WebP.',
    args: {
      name: t.arg.string({ required: true, description: 'Lowercase letters, digits, dashes and underscores (spaces become underscores), ending in a letter or digit.' }),
      files: t.arg({ type: [FileUploadInput], required: true, description: 'The uploaded files: exactly one is accepted.' }),
    },
    resolve: forUser((ctx, user, args) => addCustomEmoji(ctx, user, args.name, args.files)),
  }),
  deactivateCustomEmoji: t.boolean({
    description: 'Deactivates an active custom emoji by name (its author or an administrator).',
    args: { name: t.arg.string({ required: true, description: 'The emoji\'s name.' }) },
    resolve: userAction((ctx, user, args) => deactivateCustomEmoji(ctx, user, args.name)),
  }),
}));
