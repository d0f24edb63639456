// GraphQL fields of presence.
import { builder } from '../../schema/builder.ts';
import { forUser } from '../../schema/fields.ts';
import { PresenceSnapshotType, UserPresenceType } from '../../schema/presence.ts';
import { checkPresenceQuery, presenceOfUser, realmPresence, updatePresence } from './presence.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';

builder.queryFields((t) => ({
  presences: t.field({
    type: PresenceSnapshotType,
    description: 'The presence of the organization\'s users the viewer may see, who share their presence.',
    args: {
      lastUpdateId: t.arg.float({ description: 'Only changes newer than this update ID (an integer); -1 or omitted for all.' }),
      historyLimitDays: t.arg.int({ description: 'How far back to look (default 14 days); ignored when `lastUpdateId` is positive.' }),
    },
    resolve: forUser(realmPresence),
  }),
  userPresence: t.field({
    type: UserPresenceType,
    description: 'One user\'s presence, by user ID or API email.',
    args: { userIdOrEmail: t.arg.string({ required: true, description: 'A user ID or API email address.' }) },
    resolve: forUser((ctx, user, args) => presenceOfUser(ctx, user, args.userIdOrEmail)),
  }),
}));

builder.mutationFields((t) => ({
  updatePresence: t.field({
    type: PresenceSnapshotType,
    nullable: true,
    description: 'Reports the viewer\'s presence (humans only) and, unless `pingOnly`, returns everyone\'s.',
    args: {
      status: t.arg.string({ required: true, description: '`active` (the user is using the device) or `idle`.' }),
      pingOnly: t.arg.boolean({ defaultValue: false, description: 'Only report; return null instead of the presence data.' }),
      newUserInput: t.arg.boolean({ defaultValue: false, description: 'Whether the user interacted with the client since the last report (usage statistics only).' }),
      lastUpdateId: t.arg.float({ description: 'Only changes newer than this update ID (an integer); -1 for all.' }),
      historyLimitDays: t.arg.int({ description: 'How far back to look (default 14 days); ignored when `lastUpdateId` is positive.' }),
    },
    resolve: forUser(async (ctx, user, args) => {
      checkPresenceQuery(args);
      await updatePresence(ctx, user, args.status);
      if (args.pingOnly) return null;
      return realmPresence(ctx, user, args);
    }),
  }),
}));
