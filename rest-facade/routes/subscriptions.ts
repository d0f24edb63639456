// Subscriptions: subscribe, unsubscribe, the subscription list, personal settings, subscriber lists.
import type { Route, WireParam } from '../route.ts';
import { snakeKeys } from '../route.ts';
import { InvalidArgumentError } from '../../resolvers/errors.ts';
import { CHANNEL_FIELDS } from './channels.ts';

const SUBSCRIPTION_SETTINGS = 'color isMuted inHomeView pinToTop desktopNotifications audibleNotifications pushNotifications emailNotifications wildcardMentionsNotify';

/** A subscription as Zulip lists it: the channel's fields and the user's settings side by side. */
function zulipSubscription(sub: Record<string, any>): Record<string, unknown> {
  const { channel, subscriberList, ...settings } = sub;
  const out: Record<string, unknown> = { ...snakeKeys(channel), ...snakeKeys(settings) };
  if (subscriberList) out[subscriberList.partial ? 'partial_subscribers' : 'subscribers'] = subscriberList.userIds;
  return out;
}

/** `include_subscribers`: a JSON boolean, or "partial" (JSON-encoded or bare). */
function includeSubscribers(raw: unknown): { withSubscribers: boolean; partial: boolean } {
  const mode = typeof raw === 'string' ? raw.replace(/^"(.*)"$/, '$1') : raw;
  if (mode === 'true' || mode === true) return { withSubscribers: true, partial: false };
  if (mode === 'false' || mode === false) return { withSubscribers: false, partial: false };
  if (mode === 'partial') return { withSubscribers: true, partial: true };
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

/** `topics_policy` of created channels: a string, bare or JSON-encoded. */
export const TOPICS_POLICY_PARAM: WireParam = {
  decode: 'jsonOrString',
  convert: (v) => {
    if (typeof v !== 'string') throw new InvalidArgumentError('topics_policy', 'Invalid topics_policy');
    return v;
  },
};

/** Users by ID or API email (a JSON list, or Zulip's bare comma-separated emails). */
const PRINCIPALS: WireParam = { decode: 'intOrStringList' };

export const subscriptionRoutes: Route[] = [
  {
    method: 'GET', path: '/users/me/subscriptions', field: 'subscriptions',
    params: {
      include_subscribers: {
        decode: 'jsonOrString', default: false, convert: includeSubscribers,
        variables: { withSubscribers: 'Boolean!', partial: 'Boolean!' },
      },
    },
    select: `channel { ${CHANNEL_FIELDS} } ${SUBSCRIPTION_SETTINGS} subscriberList(partial: $partial) @include(if: $withSubscribers) { userIds partial }`,
    shape: (subscriptions) => ({
      subscriptions: subscriptions.map(zulipSubscription)
        .sort((a: any, b: any) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }),
  },
  {
    method: 'POST', path: '/users/me/subscriptions', field: 'subscribe',
    params: {
      subscriptions: { convert: subscriptionSpecs },
      principals: PRINCIPALS,
      message_retention_days: { decode: 'jsonOrString' },
      topics_policy: TOPICS_POLICY_PARAM,
    },
    select: 'subscribed alreadySubscribed unauthorized',
    shape: (r, p) => ({
      subscribed: r.subscribed,
      already_subscribed: r.alreadySubscribed,
      ...(p.authorization_errors_fatal === false ? { unauthorized: r.unauthorized } : {}),
    }),
  },
  {
    method: 'DELETE', path: '/users/me/subscriptions', field: 'unsubscribe',
    params: { principals: PRINCIPALS },
    shape: (r) => ({ removed: r.removed, not_removed: r.notRemoved }),
  },
  {
    // The older combined form: join and leave in one transaction.
    method: 'PATCH', path: '/users/me/subscriptions', field: 'updateSubscriptions',
    params: { add: { default: [], convert: subscriptionSpecs }, delete: { default: [] } },
    shape: (r) => ({ subscribed: r.subscribed, already_subscribed: r.alreadySubscribed, removed: r.removed, not_removed: r.notRemoved }),
  },
  { method: 'POST', path: '/users/me/subscriptions/properties', field: 'updateSubscriptionProperties' },
  {
    // The older one-property form.
    method: 'PATCH', path: '/users/me/subscriptions/{stream_id}', field: 'updateSubscriptionProperty',
    params: { stream_id: { arg: 'channelId' }, value: { decode: 'jsonOrString', required: true } },
  },
  {
    method: 'GET', path: '/users/me/subscriptions/{stream_id}', field: 'isSubscribed',
    params: { stream_id: { arg: 'channelId' } }, hidden: ['userId'],
    shape: (subscribed) => ({ is_subscribed: subscribed }),
  },
  {
    method: 'GET', path: '/users/{user_id}/subscriptions/{stream_id}', field: 'isSubscribed',
    params: { stream_id: { arg: 'channelId' } },
    shape: (subscribed) => ({ is_subscribed: subscribed }),
  },
  {
    method: 'GET', path: '/streams/{stream_id}/members', field: 'channelSubscribers',
    params: { stream_id: { arg: 'channelId' } },
    shape: (subscribers) => ({ subscribers }),
  },
];
