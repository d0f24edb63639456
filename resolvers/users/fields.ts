// GraphQL fields of the users area.
import { builder } from '../../schema/builder.ts';
import { mailAccountDetails } from './account-registered.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { UserType } from '../../schema/users.ts';
import { requireUser } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, UnauthorizedPrincipalError } from '../errors.ts';
import { announceNewUser, createUser } from './create.ts';
import { realmHost } from '../realm/urls.ts';
import { markOnboardingStepRead, nextOnboardingSteps, type OnboardingStepWire } from './onboarding.ts';
import { isAdmin } from './roles.ts';
import { userRecord } from './wire.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { exactInsensitive } from '../rows.ts';
import { addAlertWords, listAlertWords, removeAlertWords } from './alert-words.ts';
import { listMutedUsers, muteUser, unmuteUser } from './muted-users.ts';
import { MutedUserType } from '../../schema/drafts.ts';
import { imageArg } from '../../schema/emoji.ts';
import { deleteAvatar, uploadAvatar } from './avatars.ts';
// The area's part of register's initial state.
import './initial-state.ts';

builder.queryFields((t) => ({
  me: t.prismaField({
    type: UserType,
    description: 'The authenticated user.',
    resolve: (query, _root, _args, ctx) => {
      const user = requireUser(ctx);
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  user: t.prismaField({
    type: UserType,
    description: 'A user of the viewer\'s organization by ID.',
    args: { userId: t.arg.int({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireUser(ctx);
      const found = await ctx.db.user.findFirst({ ...query, where: { id: args.userId, realmId: ctx.realm.id } });
      if (!found) throw new BadRequestError('No such user');
      return found;
    },
  }),
  userByEmail: t.prismaField({
    type: UserType,
    description: 'A user of the viewer\'s organization by API or delivery email.',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireUser(ctx);
      const found = await ctx.db.user.findFirst({
        ...query,
        where: {
          realmId: ctx.realm.id,
          OR: [{ email: exactInsensitive(args.email) }, { deliveryEmail: exactInsensitive(args.email) }],
        },
      });
      if (!found) throw new BadRequestError('No such user');
      return found;
    },
  }),
  users: t.prismaField({
    type: [UserType],
    description: 'All users of the viewer\'s organization, deactivated ones included (see `isActive`).',
    resolve: (query, _root, _args, ctx) => {
      requireUser(ctx);
      return ctx.db.user.findMany({ ...query, where: { realmId: ctx.realm.id }, orderBy: { id: 'asc' } });
    },
  }),
  maxMessageId: t.int({
    description: 'The highest message ID the viewer has received, or -1.',
    resolve: forUser(async (ctx, user) => {
      const row = await ctx.db.userMessage.aggregate({ where: { userId: user.id }, _max: { messageId: true } });
      return row._max.messageId ?? -1;
    }),
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.int({
    description: 'Creates a user in the viewer\'s organization (administrators only) and returns its ID.',
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      fullName: t.arg.string({ required: true }),
    },
    resolve: forUser(async (ctx, actor, args) => {
      if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
      const user = await createUser(ctx.db, ctx.realm.id, { email: args.email, password: args.password, fullName: args.fullName, realmHost: realmHost(ctx.realm, ctx.config) });
      await announceNewUser(ctx, user);
      await mailAccountDetails(ctx, user);
      return user.id;
    }),
  }),
}));

builder.queryFields((t) => ({
  alertWords: t.stringList({
    description: 'The viewer\'s alert words: words or phrases whose appearance in a message alerts them (case-insensitive).',
    resolve: forUser(listAlertWords),
  }),
}));

builder.mutationFields((t) => ({
  addAlertWords: t.stringList({
    description: 'Adds alert words (words the viewer has already, in any case, are ignored); returns the whole list.',
    args: { alertWords: t.arg.stringList({ required: true, description: 'Words or phrases of at most 100 characters; surrounding white space is removed.' }) },
    resolve: forUser((ctx, user, args) => addAlertWords(ctx, user, args.alertWords)),
  }),
  removeAlertWords: t.stringList({
    description: 'Removes alert words, ignoring case (words the viewer does not have are ignored); returns the whole list.',
    args: { alertWords: t.arg.stringList({ required: true, description: 'The words or phrases to remove.' }) },
    resolve: forUser((ctx, user, args) => removeAlertWords(ctx, user, args.alertWords)),
  }),
}));

builder.queryFields((t) => ({
  mutedUsers: t.field({
    type: [MutedUserType],
    description: 'The users the viewer muted, longest muted first.',
    resolve: forUser((ctx, user) => listMutedUsers(ctx.db, user)),
  }),
}));

builder.mutationFields((t) => ({
  muteUser: t.boolean({
    description: 'Mutes a user (bots and deactivated users too, not oneself): their messages, past and future, are read for the viewer, and their typing is not shown.',
    args: { mutedUserId: t.arg.int({ required: true, description: 'The user to mute.' }) },
    resolve: userAction((ctx, user, args) => muteUser(ctx, user, args.mutedUserId)),
  }),
  unmuteUser: t.boolean({
    description: 'Unmutes a user the viewer muted.',
    args: { mutedUserId: t.arg.int({ required: true, description: 'The user to unmute.' }) },
    resolve: userAction((ctx, user, args) => unmuteUser(ctx, user, args.mutedUserId)),
  }),
}));

builder.mutationFields((t) => ({
  uploadAvatar: t.string({
    description: 'Sets the viewer\'s avatar to an uploaded image (at most max_avatar_file_size_mib), stored at 100 and 500 pixels. Returns the new avatar URL.',
    args: imageArg,
    resolve: forUser((ctx, user, args) => uploadAvatar(ctx, user, args.files)),
  }),
  deleteAvatar: t.string({
    description: 'Returns the viewer to the default avatar (generated by the server, or Gravatar\'s where the server links it). Returns its URL.',
    resolve: forUser(deleteAvatar),
  }),
}));

const OnboardingStepType = builder.objectRef<OnboardingStepWire>('OnboardingStep').implement({
  description: 'A one-time notice or action a client shows the user until dismissed.',
  fields: (t) => ({
    type: t.exposeString('type', { description: '"one_time_notice" or "one_time_action".' }),
    name: t.exposeString('name', { description: 'The step\'s name.' }),
  }),
});

builder.queryFields((t) => ({
  onboardingSteps: t.field({
    type: [OnboardingStepType],
    description: 'The onboarding steps the viewer has not dismissed yet.',
    resolve: forUser(nextOnboardingSteps),
  }),
}));

builder.mutationFields((t) => ({
  markOnboardingStepRead: t.boolean({
    description: 'Marks an onboarding step as seen (not for bots); the viewer\'s queues get the new list in an `onboarding_steps` event.',
    args: { onboardingStep: t.arg.string({ required: true, description: 'The step\'s name.' }) },
    resolve: userAction((ctx, user, args) => markOnboardingStepRead(ctx, user, args.onboardingStep)),
  }),
}));
