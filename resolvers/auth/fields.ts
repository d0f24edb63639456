// Logging in: exchanging a password (or, in development mode, just an email) for an API key.
import { builder } from '../../schema/builder.ts';
import { action, forUser } from '../../schema/fields.ts';
import { AuthenticationFailedError, NotFoundError, RealmDeactivatedError, UserDeactivatedError } from '../errors.ts';
import { checkPassword } from './credentials.ts';
import { regenerateOwnApiKey } from './regenerate.ts';
import { requestPasswordReset, resetPassword } from './password-reset.ts';
import type { Context } from '../../schema/context.ts';
import { exactInsensitive } from '../rows.ts';

interface ApiKeyShape { apiKey: string; email: string; userId: number }

const ApiKeyResult = builder.objectRef<ApiKeyShape>('ApiKeyResult').implement({
  description: 'Credentials for HTTP Basic authentication (`email:apiKey`).',
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The API key: the password half of HTTP Basic credentials.' }),
    email: t.exposeString('email', { description: 'The user\'s e-mail address: the user-name half of HTTP Basic credentials.' }),
    userId: t.exposeInt('userId', { description: 'The user’s ID.' }),
  }),
});

async function findLoginUser(ctx: Context, username: string) {
  return ctx.db.user.findFirst({
    where: {
      realmId: ctx.realm.id,
      isBot: false,
      OR: [{ deliveryEmail: exactInsensitive(username) }, { email: exactInsensitive(username) }],
    },
  });
}

builder.mutationFields((t) => ({
  fetchApiKey: t.field({
    type: ApiKeyResult,
    description: 'Exchanges an email and password for the user\'s API key.',
    args: { username: t.arg.string({ required: true, description: 'The email address.' }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      if (ctx.realm.deactivated) throw new RealmDeactivatedError();
      // Zulip's authenticate_by_username: every attempt counts, checked before the password, so
      // guessing stops at the limit even for the right password; success forgets the count.
      const attempts = `${ctx.realm.id}:${args.username.trim().toLowerCase()}`;
      const counted = await ctx.rateLimits?.consume('authenticateByUsername', attempts);
      if (counted?.refusal) throw counted.refusal;
      const user = await findLoginUser(ctx, args.username);
      // Hash even when there is no such user, so timing does not reveal which emails exist.
      const ok = await checkPassword(user?.passwordHash ?? '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA', args.password);
      if (!user || !ok) throw new AuthenticationFailedError();
      if (!user.isActive) throw new UserDeactivatedError();
      await ctx.rateLimits?.clear('authenticateByUsername', attempts);
      return { apiKey: user.apiKey, email: user.deliveryEmail, userId: user.id };
    },
  }),
  devFetchApiKey: t.field({
    type: ApiKeyResult,
    description: 'Development mode only: the API key of any user, by email alone.',
    args: { username: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      if (!ctx.config.devMode) throw new NotFoundError('Development login is not enabled on this server.');
      const user = await findLoginUser(ctx, args.username);
      if (!user) throw new AuthenticationFailedError('This user is not registered.');
      if (!user.isActive) throw new UserDeactivatedError();
      return { apiKey: user.apiKey, email: user.deliveryEmail, userId: user.id };
    },
  }),
  requestPasswordReset: t.boolean({
    description: 'E-mails a password reset link to the address if it is an active user\'s of the organization; answers true either way, so it tells nobody who has an account.',
    args: { email: t.arg.string({ required: true, description: 'The account\'s e-mail address.' }) },
    resolve: action((ctx, args) => requestPasswordReset(ctx, args.email)),
  }),
  resetPassword: t.boolean({
    description: 'Sets a new password with the token of a reset link (valid 24 hours, once).',
    args: {
      token: t.arg.string({ required: true, description: 'The token of the link, `/accounts/password/reset/<token>/`.' }),
      newPassword: t.arg.string({ required: true, description: 'At least 6 characters and hard enough to guess.' }),
    },
    resolve: action((ctx, args) => resetPassword(ctx, args.token, args.newPassword)),
  }),
}));

builder.mutationFields((t) => ({
  regenerateApiKey: t.string({
    description: 'Gives the viewer a new API key and returns it; the old key stops working at once (bots may renew their own).',
    resolve: forUser(regenerateOwnApiKey),
  }),
}));
