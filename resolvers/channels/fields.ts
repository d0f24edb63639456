// GraphQL fields of the channels area (foundation level; full subscription rules come with their issue).
import { builder } from '../../schema/builder.ts';
import { forUser } from '../../schema/fields.ts';
import { ChannelType, SubscribeResult, SubscriptionType } from '../../schema/channels.ts';
import { requireUser } from '../../schema/context.ts';
import { principalList } from './principals.ts';
import { accessChannelById, accessChannelByName, hasContentAccess, hasMetadataAccess } from './access.ts';
import { subscribe, type SubscribeInput } from './subscribe.ts';
import { sendNewSubscriptionMessages } from './subscribe-events.ts';
import { groupSettingArgs, subscribeCreationArgs } from './subscribe-args.ts';
import { publishDefaultStreams } from './default-streams.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';
// The area's part of register's initial state.
import './initial-state.ts';

export const SubscriptionSpec = builder.inputType('SubscriptionSpec', {
  description: 'A channel to subscribe to, by name; created with this description when it does not exist.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The channel name.' }),
    description: t.string({ description: 'Description for a channel created by this request (Markdown).' }),
  }),
});

builder.queryFields((t) => ({
  channels: t.prismaField({
    type: [ChannelType],
    description: 'Channels the viewer may know about, chosen like Zulip\'s GET /streams.',
    args: {
      includePublic: t.arg.boolean({ defaultValue: true }),
      includeWebPublic: t.arg.boolean({ defaultValue: false }),
      includeSubscribed: t.arg.boolean({ defaultValue: true }),
      excludeArchived: t.arg.boolean({ defaultValue: true }),
      includeAll: t.arg.boolean({ defaultValue: false, description: 'Every channel the viewer has metadata access to.' }),
      includeDefault: t.arg.boolean({ defaultValue: false }),
      includeCanAccessContent: t.arg.boolean({ defaultValue: false }),
      includeOwnerSubscribed: t.arg.boolean({ defaultValue: false, description: 'For a bot: also the channels its owner is subscribed to.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const user = requireUser(ctx);
      const channels = await ctx.db.channel.findMany({
        ...query,
        where: { realmId: ctx.realm.id, ...(args.excludeArchived ? { isArchived: false } : {}) },
        orderBy: { id: 'asc' },
      });
      const subscribed = new Set(
        (await ctx.db.subscription.findMany({ where: { userId: user.id, active: true }, select: { channelId: true } })).map((s) => s.channelId),
      );
      const ownerSubscribed = args.includeOwnerSubscribed && user.isBot && user.botOwnerId != null
        ? new Set((await ctx.db.subscription.findMany({ where: { userId: user.botOwnerId, active: true }, select: { channelId: true } })).map((s) => s.channelId))
        : new Set<number>();
      const defaults = new Set(
        (await ctx.db.defaultChannel.findMany({ where: { realmId: ctx.realm.id }, select: { channelId: true } })).map((d) => d.channelId),
      );
      const picked = [];
      for (const channel of channels) {
        const isSub = subscribed.has(channel.id);
        let include =
          (args.includeSubscribed && isSub) ||
          ownerSubscribed.has(channel.id) ||
          (args.includeWebPublic && channel.isWebPublic) ||
          (args.includeDefault && defaults.has(channel.id)) ||
          (args.includePublic && !channel.inviteOnly && !isGuest(user));
        if (!include && args.includeAll) include = await hasMetadataAccess(ctx.db, user, channel, isSub);
        if (!include && args.includeCanAccessContent) include = await hasContentAccess(ctx.db, user, channel, isSub);
        if (include && !(await hasMetadataAccess(ctx.db, user, channel, isSub))) include = false;
        if (include) picked.push(channel);
      }
      return picked;
    },
  }),
  channel: t.prismaField({
    type: ChannelType,
    description: 'A channel by ID, if the viewer may know about it.',
    args: { channelId: t.arg.int({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const user = requireUser(ctx);
      const channel = await accessChannelById(ctx.db, user, args.channelId);
      return ctx.db.channel.findUniqueOrThrow({ ...query, where: { id: channel.id } });
    },
  }),
  channelIdByName: t.int({
    description: 'The ID of a channel the viewer may know about, by name.',
    args: { name: t.arg.string({ required: true }) },
    resolve: forUser(async (ctx, user, args) => (await accessChannelByName(ctx.db, user, args.name)).id),
  }),
  subscriptions: t.prismaField({
    type: [SubscriptionType],
    description: 'The viewer\'s active subscriptions.',
    resolve: (query, _root, _args, ctx) => {
      const user = requireUser(ctx);
      return ctx.db.subscription.findMany({
        ...query,
        where: { userId: user.id, active: true },
        orderBy: { channelId: 'asc' },
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  subscribe: t.field({
    type: SubscribeResult,
    description: 'Subscribes users (default: the viewer) to channels, creating the ones that do not exist.',
    args: {
      subscriptions: t.arg({ type: [SubscriptionSpec], required: true }),
      principals: t.arg({ type: 'JSON', description: 'User IDs or API emails; default the viewer.' }),
      authorizationErrorsFatal: t.arg.boolean({ defaultValue: true }),
      inviteOnly: t.arg.boolean({ defaultValue: false }),
      historyPublicToSubscribers: t.arg.boolean(),
      isDefaultStream: t.arg.boolean({ defaultValue: false }),
      folderId: t.arg.int({ description: 'The channel folder of channels this request creates.' }),
      ...subscribeCreationArgs(t),
    },
    resolve: forUser(async (ctx, actor, args) => {
      const principals = principalList(args.principals);
      const options = args as unknown as Omit<SubscribeInput, 'subscriptions' | 'principals' | 'groupSettings'>;
      const { result, created, added } = await subscribe(ctx, actor, {
        ...options, subscriptions: args.subscriptions, principals, groupSettings: groupSettingArgs(args as Record<string, unknown>),
      });
      await sendNewSubscriptionMessages(ctx, actor, created, added, options.announce ?? false);
      if (created.length && options.isDefaultStream) await publishDefaultStreams(ctx);
      return result;
    }),
  }),
}));

