// A user's personal settings for their subscriptions (Zulip's update_subscription_properties_backend):
// all changes are validated, then written in one transaction, then announced to the user alone.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { isDbId } from '../rows.ts';
import { accessChannelById } from './access.ts';
import { effectiveSettings } from '../settings/catalog.ts';

export interface PropertyChange {
  streamId: unknown;
  property: unknown;
  value: unknown;
}

/**
 * Notification settings: null in the database means the user's default applies. Setting one to
 * null resets the override; its update event then says null only to clients that registered with
 * `notification_settings_null`, and the user's current default to the others (resolvers/events/shape.ts).
 */
const INHERITABLE = {
  desktop_notifications: 'desktopNotifications',
  audible_notifications: 'audibleNotifications',
  push_notifications: 'pushNotifications',
  email_notifications: 'emailNotifications',
  wildcard_mentions_notify: 'wildcardMentionsNotify',
} as const;
/** The user setting each notification override falls back to. */
const DEFAULT_SETTING = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
} as const;
const PROPERTIES = new Set(['color', 'is_muted', 'in_home_view', 'pin_to_top', ...Object.keys(INHERITABLE)]);

/** One validated change: the column to write, and the events (property/value) Zulip sends for it. */
interface Planned {
  subscriptionId: number;
  data: Prisma.SubscriptionUpdateInput;
  events: { stream_id: number; property: string; value: unknown; inherited_value?: unknown }[];
}

function checkValue(property: string, value: unknown): unknown {
  if (property === 'color') {
    if (typeof value !== 'string') throw new BadRequestError(`${property} is not a string`);
    if (!/^#[0-9a-fA-F]{6}$/.test(value)) throw new BadRequestError(`${property} is not a valid hex color code`);
    return value;
  }
  if (value === null && property in INHERITABLE) return null;
  if (typeof value !== 'boolean') throw new BadRequestError(`${property} is not a boolean`);
  return value;
}

async function plan(ctx: Context, tx: Prisma.TransactionClient, user: User, change: PropertyChange, index: number): Promise<Planned> {
  const { streamId, property, value } = change;
  if (typeof streamId !== 'number' || !Number.isSafeInteger(streamId)) throw new BadRequestError(`subscription_data[${index}]["stream_id"] is not an integer`);
  if (typeof property !== 'string') throw new BadRequestError(`subscription_data[${index}]["property"] is not a string`);
  if (!PROPERTIES.has(property)) throw new BadRequestError(`Unknown subscription property: ${property}`);
  const channel = await accessChannelById(tx, user, isDbId(streamId) ? streamId : -1);
  const sub = await tx.subscription.findUnique({ where: { userId_channelId: { userId: user.id, channelId: channel.id } } });
  if (!sub?.active) throw new BadRequestError(`Not subscribed to channel ID ${channel.id}`);
  const checked = checkValue(property, value);
  const id = channel.id;
  switch (property) {
    case 'color':
      return { subscriptionId: sub.id, data: { color: checked as string }, events: [{ stream_id: id, property, value: checked }] };
    case 'pin_to_top':
      return { subscriptionId: sub.id, data: { pinToTop: checked as boolean }, events: [{ stream_id: id, property, value: checked }] };
    case 'is_muted':
    case 'in_home_view': {
      // in_home_view is the legacy inverse of is_muted; Zulip announces both spellings.
      const muted = property === 'is_muted' ? (checked as boolean) : !(checked as boolean);
      return {
        subscriptionId: sub.id,
        data: { isMuted: muted },
        events: [{ stream_id: id, property: 'in_home_view', value: !muted }, { stream_id: id, property: 'is_muted', value: muted }],
      };
    }
    default: {
      const key = property as keyof typeof INHERITABLE;
      const event: Planned['events'][number] = { stream_id: id, property, value: checked };
      // Carried beside the event for clients that cannot take null; shape.ts strips it.
      if (checked === null) event.inherited_value = effectiveSettings(user, ctx.realm)[DEFAULT_SETTING[key]];
      return { subscriptionId: sub.id, data: { [INHERITABLE[key]]: checked }, events: [event] };
    }
  }
}

export async function updateSubscriptionProperties(ctx: Context, user: User, changes: PropertyChange[]): Promise<void> {
  if (!changes.length) return;
  const planned = await ctx.db.$transaction(async (tx) => {
    const all: Planned[] = [];
    for (const [i, change] of changes.entries()) all.push(await plan(ctx, tx, user, change, i));
    for (const p of all) await tx.subscription.update({ where: { id: p.subscriptionId }, data: p.data });
    return all;
  });
  for (const p of planned) {
    for (const e of p.events) ctx.events.publish(ctx.realm.id, [user.id], { type: 'subscription', op: 'update', ...e });
  }
}
