// The organization's notification channels (PATCH /realm): where the notification bot announces
// new channels and new users, posts Zulip updates, and where message reports go. Zulip's
// do_set_realm_*_stream actions: administrators only; -1 turns a notification off.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { hasMetadataAccess } from '../channels/access.ts';
import { isAdmin } from '../users/roles.ts';
import { isDbId } from '../text.ts';
import { activeUserIds } from '../users/audience.ts';

/** Wire name → Realm column. */
export const NOTIFICATION_CHANNEL_SETTINGS = {
  moderation_request_channel_id: 'moderationRequestChannelId',
  new_stream_announcements_stream_id: 'newStreamAnnouncementsChannelId',
  signup_announcements_stream_id: 'signupAnnouncementsChannelId',
  zulip_update_announcements_stream_id: 'zulipUpdateAnnouncementsChannelId',
} as const;

export type NotificationChannelSetting = keyof typeof NOTIFICATION_CHANNEL_SETTINGS;

/** Returns the settings that changed, with their new wire values. */
export async function updateNotificationChannels(
  ctx: Context, actor: User, changes: Partial<Record<NotificationChannelSetting, number>>,
): Promise<Partial<Record<NotificationChannelSetting, number>>> {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
  const entries = Object.entries(changes).filter(([, v]) => v != null) as [NotificationChannelSetting, number][];
  if (!entries.length) throw new BadRequestError('No changes were requested.');
  const data: Record<string, number | null> = {};
  for (const [setting, value] of entries) {
    if (value === -1) {
      data[NOTIFICATION_CHANNEL_SETTINGS[setting]] = null;
      continue;
    }
    const channel = isDbId(value) ? await ctx.db.channel.findFirst({ where: { id: value, realmId: ctx.realm.id } }) : null;
    // Administrators know of every channel (metadata access), private ones included.
    if (!channel || !(await hasMetadataAccess(ctx.db, actor, channel))) throw new BadRequestError('Invalid channel ID');
    if (channel.isArchived) throw new BadRequestError('Channel is archived.');
    // Reports quote messages from private conversations: they go only to a private channel.
    if (setting === 'moderation_request_channel_id' && !channel.inviteOnly) {
      throw new BadRequestError('Moderation request channel must be private.');
    }
    data[NOTIFICATION_CHANNEL_SETTINGS[setting]] = channel.id;
  }
  const before = await ctx.db.realm.findUniqueOrThrow({ where: { id: ctx.realm.id } });
  await ctx.db.realm.update({ where: { id: ctx.realm.id }, data });
  const changed: Partial<Record<NotificationChannelSetting, number>> = {};
  for (const [setting] of entries) {
    const column = NOTIFICATION_CHANNEL_SETTINGS[setting];
    if (before[column] !== data[column]) changed[setting] = data[column] ?? -1;
  }
  if (Object.keys(changed).length) {
    const everyone = await activeUserIds(ctx.db, ctx.realm.id);
    for (const [property, value] of Object.entries(changed)) {
      ctx.events.publish(ctx.realm.id, everyone, { type: 'realm', op: 'update', property, value });
    }
  }
  return changed;
}
