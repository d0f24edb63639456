// Resolvers shared by the areas' fields: most fields act for the signed-in user (requireUser's
// error otherwise), and most mutations answer true once their action is done. `Args` is inferred
// from the field's `args`, so `run` sees them as Pothos types them.
import type { User } from '../prisma/generated/client/client.ts';
import { requireUser, type Context } from './context.ts';

/** A resolver that runs `run` for the signed-in user and answers what it returns. */
export function forUser<Args, Result>(run: (ctx: Context, user: User, args: Args) => Result) {
  return (_root: unknown, args: Args, ctx: Context): Result => run(ctx, requireUser(ctx), args);
}

/** A mutation's resolver that runs `run` and answers true once it is done (no credentials needed). */
export function action<Args>(run: (ctx: Context, args: Args) => Promise<unknown>) {
  return async (_root: unknown, args: Args, ctx: Context): Promise<true> => {
    await run(ctx, args);
    return true;
  };
}

/** A mutation's resolver that runs `run` for the signed-in user and answers true once it is done. */
export function userAction<Args>(run: (ctx: Context, user: User, args: Args) => Promise<unknown>) {
  return action<Args>((ctx, args) => run(ctx, requireUser(ctx), args));
}
