import type { Db } from '../prisma/database.ts';
import type { Realm, User } from '../prisma/generated/client/client.ts';
import type { RateLimits } from '../server/rate-limits.ts';
import type { Config } from '../server/config.ts';
import type { EventBus } from '../resolvers/events/bus.ts';
import type { EventQueues } from '../resolvers/events/queues.ts';
import type { FileStore } from '../resolvers/files/storage.ts';
import type { Thumbnailer } from '../resolvers/uploads/thumbnails.ts';
import { NotLoggedInError, type ParleyError } from '../resolvers/errors.ts';
import type { ServiceBots } from '../resolvers/bots/service-bots.ts';
import type { Mailer } from '../resolvers/mail/mailer.ts';
import type { MissedMessageEmails } from '../resolvers/notifications/missed-message-emails.ts';
import type { ChannelCache } from '../resolvers/channels/access.ts';
import type { CredentialCache } from '../resolvers/auth/authenticate.ts';

/** The long-lived parts every request shares, assembled once per process by server/app.ts. */
export interface Services {
  db: Db;
  config: Config;
  events: EventBus;
  /** The event queues (REST long-poll and GraphQL subscriptions): this process's, or shared through Redis. */
  queues: EventQueues;
  /** Uploads, avatars, icons, thumbnails and exports (a directory, or an S3-compatible bucket). */
  files: FileStore;
  /** Makes thumbnails of uploaded images in the background (absent in contexts built by hand). */
  thumbnails?: Thumbnailer;
  /** Runs outgoing-webhook and embedded bots on the messages that trigger them (absent in contexts built by hand). */
  serviceBots?: ServiceBots;
  /** Outgoing e-mail (absent in contexts built by hand: nothing is sent). */
  mailer?: Mailer;
  /** Missed-message e-mails (absent without a mail server, and in contexts built by hand). */
  missedMessageEmails?: MissedMessageEmails;
  rateLimits: RateLimits;
  /** Who each API key belongs to, between requests (absent: every request looks it up). */
  credentials?: CredentialCache;
  /** Channels with their subscribers for the send path (absent in contexts built by hand: read each time). */
  channelCache?: ChannelCache;
}

/** What every GraphQL operation sees, whether it came over HTTP, WebSocket, or the REST facade. */
export interface Context extends Omit<Services, 'rateLimits' | 'credentials'> {
  /** Zulip's rate limits (absent in contexts built by hand, which no client drives). */
  rateLimits?: RateLimits;
  /** The organization the request's host names. */
  realm: Realm;
  /** The authenticated user, or null for anonymous access. */
  user: User | null;
  /**
   * Credentials were sent and refused (bad key, deactivated account, another organization's
   * account): `user` is null and every operation but the few Zulip serves without looking at
   * credentials fails with this error (server/context.ts).
   */
  refusedCredentials?: ParleyError;
  /** Aborted when the client goes away (used to end long-polls and subscriptions early). */
  signal?: AbortSignal;
  /** The client's name as Zulip reports it on messages (`client`). */
  clientName: string;
}

export function requireUser(ctx: Context): User {
  if (!ctx.user) throw ctx.refusedCredentials ?? new NotLoggedInError();
  return ctx.user;
}
