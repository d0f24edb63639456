// The organization's notification channels (settings of PATCH /realm, resolvers/realm/settings.ts):
// where the notification bot announces new channels and new users, posts Zulip updates, and where
// message reports go. Zulip's do_set_realm_*_stream rules; -1 turns a notification off.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { hasMetadataAccess } from '../channels/access.ts';
import { isDbId } from '../rows.ts';

/** The channel ID to store for a notification-channel setting (null for -1, none). */
export async function checkNotificationChannel(ctx: Context, actor: User, setting: string, value: number): Promise<number | null> {
  if (value === -1) return null;
  const channel = isDbId(value) ? await ctx.db.channel.findFirst({ where: { id: value, realmId: ctx.realm.id } }) : null;
  // Administrators know of every channel (metadata access), private ones included.
  if (!channel || !(await hasMetadataAccess(ctx.db, actor, channel))) throw new BadRequestError('Invalid channel ID');
  if (channel.isArchived) throw new BadRequestError('Channel is archived.');
  // Reports quote messages from private conversations: they go only to a private channel.
  if (setting === 'moderation_request_channel_id' && !channel.inviteOnly) {
    throw new BadRequestError('Moderation request channel must be private.');
  }
  return channel.id;
}
