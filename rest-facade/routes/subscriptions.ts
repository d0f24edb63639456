// Subscriptions: subscribe, unsubscribe, the subscription list, personal settings, subscriber lists.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';
import { InvalidArgumentError } from '../../resolvers/errors.ts';
import { CHANNEL_FIELDS } from './channels.ts';

const GROUP_SETTINGS = [
  'can_add_subscribers_group', 'can_remove_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group',
] as const;
const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

const SUBSCRIPTION_SETTINGS = 'color isMuted inHomeView pinToTop desktopNotifications audibleNotifications pushNotifications emailNotifications wildcardMentionsNotify';

/** A subscription as Zulip lists it: the channel's fields and the user's settings side by side. */
function zulipSubscription(sub: Record<string, any>): Record<string, unknown> {
  const { channel, subscriberList, ...settings } = sub;
  const out: Record<string, unknown> = { ...snakeKeys(channel), ...snakeKeys(settings) };
  if (subscriberList) out[subscriberList.partial ? 'partial_subscribers' : 'subscribers'] = subscriberList.userIds;
  return out;
}

function includeSubscribersMode(raw: unknown): 'true' | 'false' | 'partial' {
  if (raw === 'true' || raw === 'false' || raw === 'partial') return raw;
  throw new InvalidArgumentError('include_subscribers', 'Invalid include_subscribers');
}

/** `subscriptions` items: `{name, description?}` objects (older clients may send bare names). */
function subscriptionSpecs(raw: unknown): { name: string; description: string | null }[] {
  if (!Array.isArray(raw)) throw new InvalidArgumentError('subscriptions', 'subscriptions is not a list');
  return raw.map((item, i) => {
    if (typeof item === 'string') return { name: item, description: null };
    if (item && typeof item === 'object' && typeof (item as any).name === 'string') {
      const description = (item as any).description;
      if (description != null && typeof description !== 'string') throw new InvalidArgumentError('subscriptions', `subscriptions[${i}]["description"] is not a string`);
      return { name: (item as any).name, description: description ?? null };
    }
    throw new InvalidArgumentError('subscriptions', `subscriptions[${i}] is not a dict`);
  });
}

export const subscriptionRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me/subscriptions',
    params: { include_subscribers: { type: 'string', default: 'false' } },
    document: `query($withSubscribers: Boolean!, $partial: Boolean!) { subscriptions { channel { ${CHANNEL_FIELDS} } ${SUBSCRIPTION_SETTINGS}
      subscriberList(partial: $partial) @include(if: $withSubscribers) { userIds partial } } }`,
    variables: (p) => {
      const mode = includeSubscribersMode(p.include_subscribers);
      return { withSubscribers: mode !== 'false', partial: mode === 'partial' };
    },
    shape: (d) => ({
      subscriptions: d.subscriptions.map(zulipSubscription)
        .sort((a: any, b: any) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }),
  },
  {
    method: 'POST', path: '/users/me/subscriptions',
    params: {
      subscriptions: { type: 'json', required: true },
      principals: { type: 'intOrStringList' },
      authorization_errors_fatal: { type: 'bool', default: true },
      announce: { type: 'bool', default: false },
      invite_only: { type: 'bool', default: false },
      is_web_public: { type: 'bool', default: false },
      is_default_stream: { type: 'bool', default: false },
      history_public_to_subscribers: { type: 'bool' },
      message_retention_days: { type: 'jsonOrString' },
      topics_policy: { type: 'jsonOrString' },
      ...Object.fromEntries(GROUP_SETTINGS.map((name) => [name, { type: 'json' as const }])),
    },
    document: `mutation($subscriptions: [SubscriptionSpec!]!, $principals: JSON, $authorizationErrorsFatal: Boolean, $announce: Boolean, $inviteOnly: Boolean, $isWebPublic: Boolean, $historyPublicToSubscribers: Boolean, $isDefaultStream: Boolean, $messageRetentionDays: JSON, $topicsPolicy: String, ${GROUP_SETTINGS.map((n) => `$${camel(n)}: JSON`).join(', ')}) {
      subscribe(subscriptions: $subscriptions, principals: $principals, authorizationErrorsFatal: $authorizationErrorsFatal, announce: $announce, inviteOnly: $inviteOnly, isWebPublic: $isWebPublic, historyPublicToSubscribers: $historyPublicToSubscribers, isDefaultStream: $isDefaultStream, messageRetentionDays: $messageRetentionDays, topicsPolicy: $topicsPolicy, ${GROUP_SETTINGS.map((n) => `${camel(n)}: $${camel(n)}`).join(', ')}) { subscribed alreadySubscribed unauthorized } }`,
    variables: (p) => {
      if (p.topics_policy != null && typeof p.topics_policy !== 'string') throw new InvalidArgumentError('topics_policy', 'Invalid topics_policy');
      return {
        subscriptions: subscriptionSpecs(p.subscriptions),
        principals: p.principals ?? null,
        authorizationErrorsFatal: p.authorization_errors_fatal,
        announce: p.announce,
        inviteOnly: p.invite_only,
        isWebPublic: p.is_web_public,
        historyPublicToSubscribers: p.history_public_to_subscribers ?? null,
        isDefaultStream: p.is_default_stream,
        messageRetentionDays: p.message_retention_days ?? null,
        topicsPolicy: p.topics_policy ?? null,
        ...Object.fromEntries(GROUP_SETTINGS.map((n) => [camel(n), p[n] ?? null])),
      };
    },
    shape: (d, p) => ({
      subscribed: d.subscribe.subscribed,
      already_subscribed: d.subscribe.alreadySubscribed,
      ...(p.authorization_errors_fatal === false ? { unauthorized: d.subscribe.unauthorized } : {}),
    }),
  },
  {
    method: 'DELETE', path: '/users/me/subscriptions',
    params: {
      subscriptions: { type: 'stringList', required: true },
      principals: { type: 'intOrStringList' },
    },
    document: `mutation($subscriptions: [String!]!, $principals: JSON) { unsubscribe(subscriptions: $subscriptions, principals: $principals) { removed notRemoved } }`,
    variables: (p) => ({ subscriptions: p.subscriptions, principals: p.principals ?? null }),
    shape: (d) => ({ removed: d.unsubscribe.removed, not_removed: d.unsubscribe.notRemoved }),
  },
  {
    // The older combined form: join and leave in one transaction.
    method: 'PATCH', path: '/users/me/subscriptions',
    params: { add: { type: 'json', default: [] }, delete: { type: 'stringList', default: [] } },
    document: `mutation($add: [SubscriptionSpec!]!, $delete: [String!]!) { updateSubscriptions(add: $add, delete: $delete) { subscribed alreadySubscribed removed notRemoved } }`,
    variables: (p) => ({ add: subscriptionSpecs(p.add), delete: p.delete }),
    shape: (d) => ({
      subscribed: d.updateSubscriptions.subscribed,
      already_subscribed: d.updateSubscriptions.alreadySubscribed,
      removed: d.updateSubscriptions.removed,
      not_removed: d.updateSubscriptions.notRemoved,
    }),
  },
  {
    method: 'POST', path: '/users/me/subscriptions/properties',
    params: { subscription_data: { type: 'json', required: true } },
    document: `mutation($data: JSON!) { updateSubscriptionProperties(subscriptionData: $data) }`,
    variables: (p) => ({ data: p.subscription_data }),
    shape: () => ({}),
  },
  {
    // The older one-property form.
    method: 'PATCH', path: '/users/me/subscriptions/{stream_id}',
    params: {
      stream_id: { type: 'int', in: 'path', required: true },
      property: { type: 'string', required: true },
      value: { type: 'jsonOrString', required: true },
    },
    document: `mutation($data: JSON!) { updateSubscriptionProperties(subscriptionData: $data) }`,
    variables: (p) => ({ data: [{ stream_id: p.stream_id, property: p.property, value: p.value }] }),
    shape: () => ({}),
  },
  {
    method: 'GET', path: '/users/me/subscriptions/{stream_id}',
    params: { stream_id: { type: 'int', in: 'path', required: true } },
    document: `query($streamId: Int!) { isSubscribed(channelId: $streamId) }`,
    shape: (d) => ({ is_subscribed: d.isSubscribed }),
  },
  {
    method: 'GET', path: '/users/{user_id}/subscriptions/{stream_id}',
    params: { user_id: { type: 'int', in: 'path', required: true }, stream_id: { type: 'int', in: 'path', required: true } },
    document: `query($userId: Int!, $streamId: Int!) { isSubscribed(userId: $userId, channelId: $streamId) }`,
    shape: (d) => ({ is_subscribed: d.isSubscribed }),
  },
  {
    method: 'GET', path: '/streams/{stream_id}/members',
    params: { stream_id: { type: 'int', in: 'path', required: true } },
    document: `query($streamId: Int!) { channelSubscribers(channelId: $streamId) }`,
    shape: (d) => ({ subscribers: d.channelSubscribers }),
  },
];
