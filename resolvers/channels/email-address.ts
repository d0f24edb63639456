// GET /streams/{stream_id}/email_address (Zulip's get_stream_email_address). Zulip builds the
// address from the server's email gateway pattern and answers "" on servers without an email
// gateway; Parley receives no e-mail, so it answers as such a server does, after the same checks:
// a channel the user may read, and a sender that is the user, or a bot the user may administer.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError } from '../errors.ts';
import { isAdmin } from '../users/roles.ts';
import { hasContentAccess } from './access.ts';

export async function channelEmailAddress(ctx: Context, actor: User, channelId: number, senderId: number | null): Promise<string> {
  const channel = await ctx.db.channel.findFirst({ where: { id: channelId, realmId: ctx.realm.id } });
  if (!channel || channel.isArchived || !(await hasContentAccess(ctx.db, actor, channel))) throw new BadRequestError('Invalid channel ID');
  if (senderId != null && senderId !== actor.id) {
    // Zulip's access_bot_by_id.
    const bot = await ctx.db.user.findFirst({ where: { id: senderId, realmId: ctx.realm.id, isBot: true, isActive: true } });
    if (!bot) throw new BadRequestError('No such bot');
    if (!isAdmin(actor) && bot.botOwnerId !== actor.id) throw new PermissionDeniedError('Insufficient permission');
  }
  return '';
}
