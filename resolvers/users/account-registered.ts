// The e-mail a new person gets with their account's details (Zulip's send_account_registered_email
// and its account_registered templates), once the account exists: every human account made by an
// administrator or by signing up. Nothing is sent without a mail server.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { realmUrl } from '../realm/urls.ts';
import { isAdmin } from './roles.ts';

/** Zulip's subject line, so mail threads and filters match a Zulip server's. */
export function accountRegisteredSubject(realmName: string): string {
  return `${realmName} on Zulip: Your new account details`;
}

export async function mailAccountDetails(ctx: Pick<Context, 'mailer' | 'realm' | 'config'>, user: User): Promise<void> {
  if (user.isBot) return;
  const { realm } = ctx;
  const url = realmUrl(realm, ctx.config);
  const lines = [
    'Welcome to Zulip!',
    '',
    `You've joined the Zulip organization ${realm.name}.`,
    '',
    'You will use the following info to log into the Zulip web, mobile and desktop apps (https://zulip.com/apps/):',
    '',
    `* Organization URL: ${url}`,
    `* Your account email: ${user.deliveryEmail}`,
    '',
    'If you are new to Zulip, check out our getting started guide (https://zulip.com/help/getting-started-with-zulip)!',
    ...(isAdmin(user) ? ['We also have a guide for moving your organization to Zulip (https://zulip.com/help/getting-your-organization-started-with-zulip).'] : []),
    '',
    "If you have any questions, please contact your organization's administrators.",
  ];
  // A mail server that refuses does not undo the account.
  await ctx.mailer?.send({ to: user.deliveryEmail, subject: accountRegisteredSubject(realm.name), text: `${lines.join('\n')}\n` }).catch(() => {});
}
