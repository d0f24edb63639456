// GraphQL fields for managing subscriptions: unsubscribe, personal subscription settings and
// subscriber lists (the subscribe mutation itself is in fields.ts).
import { builder } from '../../schema/builder.ts';
import { action, forUser, userAction } from '../../schema/fields.ts';
import { requireUser } from '../../schema/context.ts';
import { UnsubscribeResult, UpdateSubscriptionsResult } from '../../schema/subscriptions.ts';
import { channelArg } from '../../schema/channels.ts';
import { SubscriptionSpec } from './fields.ts';
import { subscribeInTransaction } from './subscribe.ts';
import { publishSubscribeEvents, sendNewSubscriptionMessages } from './subscribe-events.ts';
import { BadRequestError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { publishUnsubscribeEvents, unsubscribe, unsubscribeInTransaction, type RemovedPairs } from './unsubscribe.ts';
import { updateSubscriptionProperties, type PropertyChange } from './properties.ts';
import { channelSubscribers, userIsSubscribed } from './members.ts';
import { principalList } from './principals.ts';

builder.queryFields((t) => ({
  channelSubscribers: t.intList({
    description: 'User IDs of a channel\'s subscribers, if the viewer may see them (Zulip\'s GET /streams/{stream_id}/members).',
    args: channelArg,
    resolve: forUser((ctx, user, args) => channelSubscribers(ctx, user, args.channelId)),
  }),
  isSubscribed: t.boolean({
    description: 'Whether a user is subscribed to a channel (Zulip\'s GET /users/{user_id}/subscriptions/{stream_id}).',
    args: {
      userId: t.arg.int({ description: 'The user; default the viewer.' }),
      ...channelArg,
    },
    resolve: forUser((ctx, viewer, args) => userIsSubscribed(ctx, viewer, args.userId ?? viewer.id, args.channelId)),
  }),
}));

builder.mutationFields((t) => ({
  unsubscribe: t.field({
    type: UnsubscribeResult,
    description: 'Removes users (default: the viewer) from channels, by name.',
    args: {
      subscriptions: t.arg.stringList({ required: true, description: 'Names of the channels.' }),
      principals: t.arg({ type: 'JSON', description: 'User IDs or API emails; default the viewer.' }),
    },
    resolve: forUser((ctx, user, args) => unsubscribe(ctx, user, args.subscriptions, principalList(args.principals))),
  }),
  updateSubscriptions: t.field({
    type: UpdateSubscriptionsResult,
    description: 'Subscribes the viewer to some channels and unsubscribes them from others in one transaction (Zulip\'s older PATCH /users/me/subscriptions).',
    args: {
      add: t.arg({ type: [SubscriptionSpec], required: true, description: 'Channels to join, created when missing.' }),
      delete: t.arg.stringList({ required: true, description: 'Names of channels to leave.' }),
    },
    resolve: forUser(async (ctx, actor, args) => {
      if (!args.add.length && !args.delete.length) throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
      const { added, removed } = await inTransaction(ctx, async (txc) => {
        const removedPairs: RemovedPairs = [];
        const added = await subscribeInTransaction(txc.tx, txc, actor, { subscriptions: args.add });
        const removed = args.delete.length ? await unsubscribeInTransaction(txc.tx, txc, actor, args.delete, null, removedPairs) : { removed: [], notRemoved: [] };
        await publishSubscribeEvents(txc, added.created, added.added);
        await publishUnsubscribeEvents(txc, removedPairs);
        return { added, removed };
      });
      await sendNewSubscriptionMessages(ctx, actor, added.created, added.added, false);
      return { ...added.result, ...removed };
    }),
  }),
  updateSubscriptionProperties: t.boolean({
    description: 'Changes the viewer\'s personal settings for subscribed channels: a list of `{stream_id, property, value}`.',
    args: { subscriptionData: t.arg({ type: 'JSON', required: true, description: 'Changes: `{stream_id, property, value}` objects. A null value resets a notification setting (desktop/audible/push/email_notifications, wildcard_mentions_notify) to the user\'s default.' }) },
    resolve: action((ctx, args) => {
      const raw = args.subscriptionData;
      if (!Array.isArray(raw)) throw new BadRequestError('subscription_data is not a list');
      const changes: PropertyChange[] = raw.map((item, i) => {
        if (!item || typeof item !== 'object' || Array.isArray(item)) throw new BadRequestError(`subscription_data[${i}] is not a dict`);
        const o = item as Record<string, unknown>;
        for (const key of ['stream_id', 'property', 'value']) if (!(key in o)) throw new BadRequestError(`subscription_data[${i}] is missing ${key}`);
        return { streamId: o.stream_id, property: o.property, value: o.value };
      });
      return updateSubscriptionProperties(ctx, requireUser(ctx), changes);
    }),
  }),
  updateSubscriptionProperty: t.boolean({
    description: 'Changes one personal setting of one subscribed channel (Zulip\'s older PATCH /users/me/subscriptions/{stream_id}).',
    args: {
      ...channelArg,
      property: t.arg.string({ required: true, description: 'The setting: color, is_muted, in_home_view, pin_to_top, or a notification setting.' }),
      value: t.arg({ type: 'JSON', description: 'Its new value; null (or omitted) resets a notification setting to the user\'s default.' }),
    },
    resolve: userAction((ctx, user, args) => updateSubscriptionProperties(ctx, user, [{ streamId: args.channelId, property: args.property, value: args.value ?? null }])),
  }),
}));
