// Creating accounts: the management CLI, first start, and POST /users (administrators) all come here.
import type { Db } from '../../prisma/database.ts';
import type { Realm } from '../../prisma/generated/client/client.ts';
import type { EventBus } from '../events/bus.ts';
import type { Config } from '../../server/config.ts';
import { announceExportConsent } from '../exports/consent.ts';
import { usersWhoCanAccess } from './audience.ts';
import { userRecord } from './wire.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { generateApiKey, generatePassword, hashPassword } from '../auth/credentials.ts';
import { syncRoleGroups } from '../groups/system.ts';
import { ROLES, ROLE_MEMBER } from './roles.ts';
import { codePointLength } from '../text.ts';
import { exactInsensitive } from '../rows.ts';
import { newUserSettings } from '../settings/realm-defaults.ts';
import { apiEmailFor, emailVisibilityOf, EMAIL_VISIBLE_TO_EVERYONE } from './present.ts';
import { historyIsPublicTo } from '../channels/access.ts';

// Deliberately loose: Zulip accepts anything Django's EmailValidator does; this catches typos.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$|^[^\s@]+@[^\s@.]+\.local$/i;

export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;

export interface NewUser {
  email: string;
  fullName: string;
  password?: string | null;
  role?: number;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  /** Subscribe to the organization's default channels (default true). */
  defaultChannels?: boolean;
  /**
   * The organization's host (realm/urls.ts realmHost): the domain of the API address
   * `user<ID>@<host>` a new human gets when the organization's default hides real addresses.
   */
  realmHost?: string;
}

export function validateEmail(email: string): string {
  const trimmed = email.trim();
  // Django's EmailField limit (254), which also keeps the address within its unique index.
  if (trimmed.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(trimmed)) throw new BadRequestError(`Invalid address: ${email.slice(0, MAX_EMAIL_LENGTH)}`);
  return trimmed;
}

export function validateFullName(fullName: string): string {
  const name = fullName.trim();
  if (!name) throw new BadRequestError('Name too short!');
  if (codePointLength(name) > MAX_NAME_LENGTH) throw new BadRequestError('Name too long!');
  // Zulip's rule: characters that would break mention syntax are not allowed in names.
  if (/[\u0000-\u001f*`\\>"@]/.test(name)) throw new BadRequestError('Invalid characters in name!');
  return name;
}

/** Creates a user inside an open transaction; the caller publishes events after commit. */
export async function createUserInTx(tx: Prisma.TransactionClient, realmId: number, input: NewUser): Promise<User> {
  const email = validateEmail(input.email);
  const fullName = validateFullName(input.fullName);
  const role = input.role ?? ROLE_MEMBER;
  if (!(ROLES as readonly number[]).includes(role)) throw new BadRequestError('Invalid role');
  const existing = await tx.user.findFirst({ where: { realmId, email: exactInsensitive(email) } });
  if (existing) throw new BadRequestError(`Email '${email}' already in use`);
  // The account starts with a copy of the organization's defaults for new users.
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { defaultLanguage: true, userSettingsDefaults: true } });
  const settings = input.isBot ? {} : newUserSettings(realm);
  let user = await tx.user.create({
    data: {
      settings,
      realmId,
      email,
      deliveryEmail: email,
      fullName,
      role,
      isBot: input.isBot ?? false,
      botType: input.botType ?? null,
      botOwnerId: input.botOwnerId ?? null,
      apiKey: generateApiKey(),
      passwordHash: input.isBot ? null : await hashPassword(input.password || generatePassword()),
    },
  });
  const visibility = emailVisibilityOf(user);
  if (visibility !== EMAIL_VISIBLE_TO_EVERYONE && input.realmHost) {
    user = await tx.user.update({ where: { id: user.id }, data: { email: apiEmailFor(user, visibility, input.realmHost) } });
  }
  await syncRoleGroups(tx, realmId, user.id, role);
  const defaults = input.defaultChannels === false ? [] : await tx.defaultChannel.findMany({ where: { realmId }, select: { channelId: true } });
  if (defaults.length) {
    await tx.subscription.createMany({
      data: defaults.map((d, i) => ({ userId: user.id, channelId: d.channelId, color: pickColor(i) })),
      skipDuplicates: true,
    });
  }
  return user;
}

/**
 * `realm_user add` for a new account to everyone who may access it (guests who may not see every
 * user do not hear of the newcomer), with the record as an ordinary member sees it.
 */
export async function announceNewUser(ctx: { db: Db; realm: Realm; events: EventBus; config: Config }, user: User): Promise<void> {
  const audience = (await usersWhoCanAccess(ctx.db, ctx.realm, user)).filter((id) => id !== user.id);
  const person = userRecord(user, { viewer: { id: 0, role: ROLE_MEMBER }, clientGravatar: false, gravatar: ctx.config.gravatarEnabled });
  ctx.events.publish(ctx.realm.id, audience, { type: 'realm_user', op: 'add', person });
  await announceExportConsent(ctx, user);
}

export async function createUser(db: Db, realmId: number, input: NewUser): Promise<User> {
  return db.$transaction(async (tx) => {
    const user = await createUserInTx(tx, realmId, input);
    if (!user.isBot) await setUpNewPerson(tx, user);
    return user;
  });
}

/**
 * What Zulip's process_new_human_user does for a person's new account once its subscriptions are
 * made, in the same transaction: recent history (addNewUserHistory), and the notice explaining
 * automatic topic follows to existing users marked seen (a new user starts with them).
 */
export async function setUpNewPerson(tx: Prisma.TransactionClient, user: User): Promise<void> {
  await addNewUserHistory(tx, user);
  await tx.$executeRaw`
    INSERT INTO "OnboardingStep" ("userId", "step") VALUES (${user.id}, 'visibility_policy_banner') ON CONFLICT ("userId", "step") DO NOTHING`;
}

/** Zulip's MAX_NUM_RECENT_MESSAGES and MAX_NUM_RECENT_UNREAD_MESSAGES. */
const NEW_USER_HISTORY_MESSAGES = 1000;
const NEW_USER_HISTORY_UNREAD = 20;

/**
 * Zulip's add_new_user_history: a new person's feed starts with the latest messages of the
 * channels they were subscribed to whose history they may read (historical rows), the most recent
 * twenty unread, so that the home view and the unread counts have something to show.
 */
async function addNewUserHistory(tx: Prisma.TransactionClient, user: User): Promise<void> {
  const subscribed = await tx.channel.findMany({ where: { realmId: user.realmId, subscriptions: { some: { userId: user.id, active: true } } } });
  const readable: number[] = [];
  for (const channel of subscribed) if (await historyIsPublicTo(tx as unknown as Db, channel, user, true)) readable.push(channel.id);
  if (!readable.length) return;
  // The newest of each channel first, through the (realmId, channelId, id) index, then the newest overall.
  await tx.$executeRaw`
    WITH recent AS (
      SELECT m.id FROM unnest(${readable}::int[]) AS c(id)
      CROSS JOIN LATERAL (
        SELECT id FROM "Message" WHERE "realmId" = ${user.realmId}::int AND "channelId" = c.id ORDER BY id DESC LIMIT ${NEW_USER_HISTORY_MESSAGES}::int
      ) m
      ORDER BY m.id DESC LIMIT ${NEW_USER_HISTORY_MESSAGES}::int
    ), fresh AS (
      -- A message sent since the subscriptions were made already has its row.
      SELECT r.id, row_number() OVER (ORDER BY r.id DESC) AS newest FROM recent r
      WHERE NOT EXISTS (SELECT 1 FROM "UserMessage" um WHERE um."userId" = ${user.id}::int AND um."messageId" = r.id)
    )
    INSERT INTO "UserMessage" ("userId", "messageId", "read", "historical")
    SELECT ${user.id}::int, id, newest > ${NEW_USER_HISTORY_UNREAD}::int, true FROM fresh ORDER BY id
    ON CONFLICT DO NOTHING`;
}

// Zulip's stream color palette, assigned round-robin to a user's new subscriptions.
export const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

export function pickColor(index: number): string {
  return CHANNEL_COLORS[index % CHANNEL_COLORS.length]!;
}
