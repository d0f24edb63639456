// POST /channels/create (Zulip 11, feature level 417): creates one channel and subscribes exactly
// the given users, with the same creation rules and options as POST /users/me/subscriptions; an
// existing name is an error (CHANNEL_ALREADY_EXISTS) rather than a subscription to it.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { ChannelAlreadyExistsError } from '../errors.ts';
import { findChannelByName } from './access.ts';
import { subscribeInTransaction, validateChannelName, type SubscribeInput } from './subscribe.ts';
import { publishSubscribeEvents, sendNewSubscriptionMessages } from './subscribe-events.ts';
import { publishDefaultStreams } from './default-streams.ts';

export interface CreateChannelInput extends Omit<SubscribeInput, 'subscriptions' | 'principals' | 'authorizationErrorsFatal' | 'exactPrincipals' | 'createOnly'> {
  name: string;
  description?: string | null;
  subscribers: number[];
}

export async function createChannel(ctx: Context, actor: User, input: CreateChannelInput): Promise<number> {
  const name = validateChannelName(input.name);
  let outcome;
  try {
    outcome = await ctx.db.$transaction(async (tx) => {
      // Checked first, so a taken name is the error whatever else is wrong with the request;
      // `createOnly` covers a parallel request that takes the name after this check.
      if (await findChannelByName(tx, ctx.realm.id, name)) throw new ChannelAlreadyExistsError(name);
      return subscribeInTransaction(tx, ctx, actor, {
        ...input, subscriptions: [{ name, description: input.description ?? '' }], principals: input.subscribers, exactPrincipals: true, createOnly: true,
      });
    });
  } catch (error) {
    // Two requests creating the same name at once: the unique index refuses the second.
    if ((error as { code?: string }).code === 'P2002') throw new ChannelAlreadyExistsError(name);
    throw error;
  }
  const { created, added } = outcome;
  await publishSubscribeEvents(ctx, created, added);
  await sendNewSubscriptionMessages(ctx, actor, created, added, input.announce ?? false);
  if (input.isDefaultStream) await publishDefaultStreams(ctx);
  return created[0]!.id;
}
