// GraphQL fields of the users area.
import { builder } from '../../schema/builder.ts';
import { UserType } from '../../schema/users.ts';
import { requireUser } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, UnauthorizedPrincipalError } from '../errors.ts';
import { createUser } from './create.ts';
import { isAdmin } from './roles.ts';
import { userRecord } from './wire.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { exactInsensitive } from '../text.ts';
import { addAlertWords, listAlertWords, removeAlertWords } from './alert-words.ts';

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
    resolve: async (_root, _args, ctx) => {
      const user = requireUser(ctx);
      const row = await ctx.db.userMessage.aggregate({ where: { userId: user.id }, _max: { messageId: true } });
      return row._max.messageId ?? -1;
    },
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
    resolve: async (_root, args, ctx) => {
      const actor = requireUser(ctx);
      if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
      const user = await createUser(ctx.db, ctx.realm.id, { email: args.email, password: args.password, fullName: args.fullName });
      // Guests who may not see every user do not hear of the newcomer (Zulip withholds it).
      const others = await ctx.db.user.findMany({ where: { realmId: ctx.realm.id, isActive: true, id: { not: user.id } }, select: { id: true, role: true, isActive: true } });
      const audience = [];
      for (const other of others) {
        if (other.role !== 600 || (await isUserInGroup(ctx.db, other, ctx.realm.canAccessAllUsersGroupId))) audience.push(other.id);
      }
      // The record as an ordinary member sees it.
      const person = userRecord(user, { viewer: { id: 0, role: 400 }, clientGravatar: false });
      ctx.events.publish(ctx.realm.id, audience, { type: 'realm_user', op: 'add', person });
      return user.id;
    },
  }),
}));

builder.queryFields((t) => ({
  alertWords: t.stringList({
    description: 'The viewer\'s alert words: words or phrases whose appearance in a message alerts them (case-insensitive).',
    resolve: (_root, _args, ctx) => listAlertWords(ctx, requireUser(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  addAlertWords: t.stringList({
    description: 'Adds alert words (words the viewer has already, in any case, are ignored); returns the whole list.',
    args: { alertWords: t.arg.stringList({ required: true, description: 'Words or phrases of at most 100 characters; surrounding white space is removed.' }) },
    resolve: (_root, args, ctx) => addAlertWords(ctx, requireUser(ctx), args.alertWords),
  }),
  removeAlertWords: t.stringList({
    description: 'Removes alert words, ignoring case (words the viewer does not have are ignored); returns the whole list.',
    args: { alertWords: t.arg.stringList({ required: true, description: 'The words or phrases to remove.' }) },
    resolve: (_root, args, ctx) => removeAlertWords(ctx, requireUser(ctx), args.alertWords),
  }),
}));
