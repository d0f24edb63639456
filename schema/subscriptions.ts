// Types of the subscription-management operations (unsubscribe, subscriber lists).
import { builder } from './builder.ts';
import { SubscriptionType } from './channels.ts';
import type { UnsubscribeResultShape } from '../resolvers/channels/unsubscribe.ts';
import type { SubscribeResultShape } from './channels.ts';
import { subscriberListsForViewer } from '../resolvers/channels/members.ts';

export const UnsubscribeResult = builder.objectRef<UnsubscribeResultShape>('UnsubscribeResult').implement({
  description: 'Outcome of removing subscriptions, by channel name.',
  fields: (t) => ({
    removed: t.stringList({ description: 'Names of channels a subscription was removed from (once per user removed).', resolve: (r) => r.removed }),
    notRemoved: t.stringList({ description: 'Names of channels a user was not subscribed to, so nothing was removed.', resolve: (r) => r.notRemoved }),
  }),
});

export interface SubscriberListShape {
  userIds: number[];
  partial: boolean;
}

export const SubscriberList = builder.objectRef<SubscriberListShape>('SubscriberList').implement({
  description: 'A channel\'s subscribers, or for a large channel in partial mode only its bots and recently active users.',
  fields: (t) => ({
    userIds: t.intList({ description: 'User IDs, ascending.', resolve: (r) => r.userIds }),
    partial: t.boolean({ description: 'True when only bots and users active in the last 14 days are listed (channels of 250 or more subscribers).', resolve: (r) => r.partial }),
  }),
});

builder.prismaObjectField(SubscriptionType, 'subscriberList', (t) =>
  t.field({
    type: SubscriberList,
    description: 'The channel\'s subscribers; with `partial`, channels of 250 or more subscribers list only bots and users active in the last 14 days.',
    args: { partial: t.arg.boolean({ defaultValue: false, description: 'Allow a partial list for large channels.' }) },
    select: { channelId: true },
    resolve: async (sub, args, ctx) => (await subscriberListsForViewer(ctx, args.partial ?? false)).get(sub.channelId) ?? { userIds: [], partial: false },
  }),
);

export const UpdateSubscriptionsResult = builder.objectRef<SubscribeResultShape & UnsubscribeResultShape>('UpdateSubscriptionsResult').implement({
  description: 'Outcome of joining and leaving channels in one request.',
  fields: (t) => ({
    subscribed: t.field({ type: 'JSON', description: 'User ID → names of channels newly subscribed to.', resolve: (r) => r.subscribed }),
    alreadySubscribed: t.field({ type: 'JSON', description: 'User ID → names of channels the user was already in.', resolve: (r) => r.alreadySubscribed }),
    removed: t.stringList({ description: 'Names of channels left.', resolve: (r) => r.removed }),
    notRemoved: t.stringList({ description: 'Names of channels the viewer was not in.', resolve: (r) => r.notRemoved }),
  }),
});
