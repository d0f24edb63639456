import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';

/** Zulip's @human_users_only: bots receive no push notifications. */
export function requireHuman(user: User): void {
  if (user.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
}
