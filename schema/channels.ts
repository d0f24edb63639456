import { builder } from './builder.ts';
import { toUnixSeconds } from '../resolvers/time.ts';
import { streamPostPolicy, weeklyTraffic } from '../resolvers/channels/wire.ts';
import { CHANNEL_PERMISSION_SETTINGS, TOPICS_POLICY_DESCRIPTION } from '../resolvers/channels/permission-settings.ts';
import { realmGroups, recentChannelTraffic, subscriberCounts, subscribersOfViewerChannels } from './request-cache.ts';
import type { Context } from './context.ts';

/** The argument of fields that act on one channel. */
export const channelArg = builder.args((t) => ({ channelId: t.int({ required: true, description: 'The channel.' }) }));

const groupSettingField = (t: any, column: string, description: string) =>
  t.field({
    type: 'JSON',
    description: `${description} A group-setting value: a user group ID, or \`{direct_members, direct_subgroups}\`.`,
    select: { [column]: true },
    resolve: async (channel: any, _args: unknown, ctx: Context) => (await realmGroups(ctx)).settingValue(channel[column]),
  });

export const ChannelType = builder.prismaObject('Channel', {
  description: 'A channel (called a stream in older API versions).',
  fields: (t) => ({
    streamId: t.exposeInt('id', { description: 'The unique ID of the channel.' }),
    name: t.exposeString('name', { description: 'The channel’s name, unique in the organization (case-insensitively).' }),
    description: t.exposeString('description', { description: 'The description in Zulip-flavoured Markdown.' }),
    renderedDescription: t.exposeString('renderedDescription', { description: 'The description rendered as HTML.' }),
    dateCreated: t.int({ description: 'UNIX timestamp of creation.', resolve: (c) => toUnixSeconds(c.dateCreated) }),
    creatorId: t.exposeInt('creatorId', { nullable: true, description: 'The creating user; null when none is recorded.' }),
    inviteOnly: t.exposeBoolean('inviteOnly', { description: 'True for a private channel.' }),
    isWebPublic: t.exposeBoolean('isWebPublic', { description: 'History readable without an account.' }),
    historyPublicToSubscribers: t.exposeBoolean('historyPublicToSubscribers', { description: 'Whether new subscribers see messages sent before they joined.' }),
    messageRetentionDays: t.exposeInt('messageRetentionDays', { nullable: true, description: 'null: the organization\'s setting; -1: forever.' }),
    firstMessageId: t.exposeInt('firstMessageId', { description: 'ID of the oldest message; null when the channel has none.', nullable: true }),
    folderId: t.exposeInt('folderId', { description: 'The channel folder; null if none.', nullable: true }),
    topicsPolicy: t.exposeString('topicsPolicy', { description: `One of ${TOPICS_POLICY_DESCRIPTION}.` }),
    isArchived: t.exposeBoolean('isArchived', { description: 'Archived channels accept no messages.' }),
    isRecentlyActive: t.exposeBoolean('isRecentlyActive', { description: 'Recent message activity.' }),
    isAnnouncementOnly: t.boolean({
      description: 'Deprecated: true when only administrators may post.',
      select: { canSendMessageGroupId: true },
      resolve: async (c, _a, ctx) => streamPostPolicy(await realmGroups(ctx), c.canSendMessageGroupId) === 2,
    }),
    streamPostPolicy: t.int({
      description: 'Deprecated: 1 anyone, 2 administrators, 3 full members, 4 moderators; see canSendMessageGroup.',
      select: { canSendMessageGroupId: true },
      resolve: async (c, _a, ctx) => streamPostPolicy(await realmGroups(ctx), c.canSendMessageGroupId),
    }),
    streamWeeklyTraffic: t.int({
      nullable: true,
      description: 'Average messages a week over the last four weeks; null for channels younger than a week.',
      resolve: async (c, _a, ctx) => weeklyTraffic(c, (await recentChannelTraffic(ctx)).get(c.id) ?? 0, Date.now()),
    }),
    ...Object.fromEntries(CHANNEL_PERMISSION_SETTINGS.map(({ field, column, description }) => [field, groupSettingField(t, column, description)])),
    subscriberCount: t.int({
      description: 'Active subscribers.',
      resolve: async (c, _a, ctx) => (await subscriberCounts(ctx)).get(c.id) ?? 0,
    }),
  }),
});

// Named ChannelSubscription in GraphQL: a type called `Subscription` would be taken for the
// schema's subscription root.
export const SubscriptionType = builder.prismaObject('Subscription', {
  name: 'ChannelSubscription',
  description: 'The viewer\'s subscription to a channel, with personal settings. Null notification settings inherit the user\'s defaults.',
  fields: (t) => ({
    channel: t.relation('channel', { description: 'The channel subscribed to.' }),
    color: t.exposeString('color', { description: 'The viewer’s colour for the channel.' }),
    isMuted: t.exposeBoolean('isMuted', { description: 'Muted channels are left out of unread counts and the combined feed.' }),
    inHomeView: t.boolean({ description: 'Deprecated: the negation of isMuted.', resolve: (s) => !s.isMuted }),
    pinToTop: t.exposeBoolean('pinToTop', { description: 'Pinned to the top of the channel list.' }),
    desktopNotifications: t.exposeBoolean('desktopNotifications', { description: 'null: inherit the user’s default.', nullable: true }),
    audibleNotifications: t.exposeBoolean('audibleNotifications', { description: 'null: inherit the user’s default.', nullable: true }),
    pushNotifications: t.exposeBoolean('pushNotifications', { description: 'null: inherit the user’s default.', nullable: true }),
    emailNotifications: t.exposeBoolean('emailNotifications', { description: 'null: inherit the user’s default.', nullable: true }),
    wildcardMentionsNotify: t.exposeBoolean('wildcardMentionsNotify', { description: 'null: inherit the user’s default.', nullable: true }),
    subscribers: t.intList({
      description: 'User IDs of the channel\'s active subscribers.',
      select: { channelId: true },
      resolve: async (s, _a, ctx) => (await subscribersOfViewerChannels(ctx)).get(s.channelId) ?? [],
    }),
  }),
});

export interface SubscribeResultShape {
  subscribed: Record<string, string[]>;
  alreadySubscribed: Record<string, string[]>;
  unauthorized: string[];
}

export const SubscribeResult = builder.objectRef<SubscribeResultShape>('SubscribeResult').implement({
  description: 'Which users were subscribed to which channels, keyed by user ID.',
  fields: (t) => ({
    subscribed: t.field({ type: 'JSON', description: 'User ID → names of channels newly subscribed to.', resolve: (r) => r.subscribed }),
    alreadySubscribed: t.field({ type: 'JSON', description: 'User ID → names of channels the user was already in.', resolve: (r) => r.alreadySubscribed }),
    unauthorized: t.stringList({ description: 'Channels skipped for lack of permission (only when authorizationErrorsFatal is false).', resolve: (r) => r.unauthorized }),
  }),
});
