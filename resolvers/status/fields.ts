// GraphQL fields of user status.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { UserStatusType } from '../../schema/status.ts';
import { BadRequestError } from '../errors.ts';
import { canAccessUser } from '../users/audience.ts';
import { type StatusInput, statusOf, updateOwnStatus, updateUserStatusAsAdmin } from './update.ts';

builder.queryFields((t) => ({
  userStatus: t.field({
    type: UserStatusType,
    description: 'The status a user of the viewer\'s organization has set.',
    args: { userId: t.arg.int({ required: true, description: 'The user whose status to read.' }) },
    resolve: forUser(async (ctx, viewer, args) => {
      const status = await statusOf(ctx, args.userId);
      if (!(await canAccessUser(ctx.db, ctx.realm, viewer, args.userId))) throw new BadRequestError('Insufficient permission');
      return status;
    }),
  }),
}));

const statusArgs = (t: { arg: { string: (o: { description: string }) => any } }) => ({
  statusText: t.arg.string({ description: 'New status text; the empty string clears it. At most 60 code points after trimming.' }),
  emojiName: t.arg.string({ description: 'New status emoji name; the empty string clears the emoji.' }),
  emojiCode: t.arg.string({ description: 'The emoji\'s code (looked up from the name when omitted). Needs `emojiName`.' }),
  reactionType: t.arg.string({ description: '`unicode_emoji`, `realm_emoji` or `zulip_extra_emoji` (looked up when omitted). Needs `emojiName`.' }),
});

builder.mutationFields((t) => ({
  updateStatus: t.boolean({
    description: 'Changes the viewer\'s status: only the arguments passed change. Not for bots.',
    args: {
      ...statusArgs(t),
      away: t.arg.boolean({ description: 'Deprecated: sets `presence_enabled` to its negation.' }),
    },
    resolve: userAction((ctx, user, args) => updateOwnStatus(ctx, user, args as StatusInput)),
  }),
  updateUserStatus: t.boolean({
    description: 'Changes another user\'s status (organization administrators only): only the arguments passed change.',
    args: {
      userId: t.arg.int({ required: true, description: 'The user whose status to change.' }),
      ...statusArgs(t),
    },
    resolve: userAction((ctx, user, { userId, ...input }) => updateUserStatusAsAdmin(ctx, user, userId, input as StatusInput)),
  }),
}));
