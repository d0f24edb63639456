// GraphQL fields of notifications: the unsubscribe link of missed-message e-mails, as the page
// /accounts/unsubscribe/missed_messages/<token>/ serves it (server/pages.ts).
import { builder } from '../../schema/builder.ts';
import { action } from '../../schema/fields.ts';
import { unsubscribeFromMissedMessages } from './unsubscribe.ts';

builder.mutationFields((t) => ({
  unsubscribeFromMissedMessages: t.boolean({
    description: 'Turns enable_offline_email_notifications off for the account a missed-message e-mail\'s unsubscribe link names '
      + '(Zulip\'s one-click unsubscribe). Needs no credentials: the token is the proof.',
    args: { token: t.arg.string({ required: true, description: 'The token of the link, `/accounts/unsubscribe/missed_messages/<token>/`.' }) },
    resolve: action((ctx, args) => unsubscribeFromMissedMessages(ctx, args.token)),
  }),
}));
