// Unsubscribing from missed-message e-mails by a link in them (Zulip's one_click_unsubscribe_link
// and do_missedmessage_unsubscribe): the link turns `enable_offline_email_notifications` off. It
// is signed for the account and does not expire, as Zulip's; mail clients reach it from the
// List-Unsubscribe header as well (RFC 8058's one-click POST).
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { checkLinkToken, makeLinkToken, readLinkToken, type LinkKind } from '../auth/confirmation-links.ts';
import { changeUserSettings } from '../settings/change.ts';
import { realmUrl } from '../realm/urls.ts';

/** Zulip's unsubscribe links never expire; a token still needs an expiry: ten years. */
const UNSUBSCRIBE: LinkKind = { secret: 'unsubscribe-missed-messages', hours: 10 * 365 * 24, invalid: 'Unknown email unsubscribe request' };
/** Nothing of the account spends the link: it stays good, as Zulip's. */
const STATE = 'missed_messages';

const UNSUBSCRIBE_PATH = '/accounts/unsubscribe/missed_messages/';

/** The link for the e-mails to `user`. */
export async function unsubscribeLink(ctx: Pick<Context, 'db' | 'config'>, realm: Parameters<typeof realmUrl>[0], user: Pick<User, 'id'>): Promise<string> {
  return `${realmUrl(realm, ctx.config)}${UNSUBSCRIBE_PATH}${await makeLinkToken(ctx.db, UNSUBSCRIBE, user.id, STATE)}/`;
}

/** The account a link unsubscribes, if the link is genuine and of this organization. */
export async function userForUnsubscribeToken(ctx: Pick<Context, 'db' | 'realm'>, token: string): Promise<User> {
  const parsed = readLinkToken(UNSUBSCRIBE, token);
  const user = await ctx.db.user.findFirst({ where: { id: parsed.userId, realmId: ctx.realm.id, isBot: false } });
  if (!user) throw new BadRequestError(UNSUBSCRIBE.invalid);
  await checkLinkToken(ctx.db, UNSUBSCRIBE, parsed, STATE);
  return user;
}

/** Zulip's do_missedmessage_unsubscribe: no more e-mails for direct messages and mentions (a `user_settings` event tells the user's clients). */
export async function unsubscribeFromMissedMessages(ctx: Context, token: string): Promise<User> {
  const user = await userForUnsubscribeToken(ctx, token);
  await changeUserSettings(ctx, user, { enable_offline_email_notifications: false });
  return user;
}
