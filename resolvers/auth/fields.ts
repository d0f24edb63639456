// Logging in: exchanging a password (or, in development mode, just an email) for an API key.
import { builder } from '../../schema/builder.ts';
import { AuthenticationFailedError, NotFoundError, RealmDeactivatedError, UserDeactivatedError } from '../errors.ts';
import { checkPassword } from './credentials.ts';
import type { Context } from '../../schema/context.ts';
import { exactInsensitive } from '../text.ts';

interface ApiKeyShape { apiKey: string; email: string; userId: number }

const ApiKeyResult = builder.objectRef<ApiKeyShape>('ApiKeyResult').implement({
  description: 'Credentials for HTTP Basic authentication (`email:apiKey`).',
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The API key: the password half of HTTP Basic credentials.' }),
    email: t.exposeString('email', { description: 'The API email: the user-name half of HTTP Basic credentials.' }),
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
      const user = await findLoginUser(ctx, args.username);
      // Hash even when there is no such user, so timing does not reveal which emails exist.
      const ok = await checkPassword(user?.passwordHash ?? '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA', args.password);
      if (!user || !ok) throw new AuthenticationFailedError();
      if (!user.isActive) throw new UserDeactivatedError();
      return { apiKey: user.apiKey, email: user.email, userId: user.id };
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
      return { apiKey: user.apiKey, email: user.email, userId: user.id };
    },
  }),
}));
