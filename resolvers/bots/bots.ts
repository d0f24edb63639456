// Bots made by users: create, list, configure, hand over, deactivate, regenerate keys. Rules and
// wording follow Zulip's add_bot_backend, patch_bot_backend, regenerate_bot_api_key,
// deactivate_bot_backend and get_bots_backend (zerver/views/users.py, zerver/lib/users.py,
// zerver/actions/bots.py). The bot's record for its administrators (`realm_bot` events, register's
// `realm_bots`) is botRecord; everyone else learns of bots through `realm_user` events like any user.
import type { BotProfile, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, InvalidArgumentError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { generateApiKey } from '../auth/credentials.ts';
import { accessChannelByName } from '../channels/access.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { announceNewUser, createUserInTx, validateEmail, validateFullName } from '../users/create.ts';
import { avatarUrl } from '../users/avatars.ts';
import { botAdministrators, usersWhoCanAccess, activeUserIds } from '../users/audience.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { realmUrl } from '../realm/urls.ts';
import { deactivateAccount } from '../users/deactivate.ts';
import { updateUser } from '../users/update.ts';
import { EMBEDDED_BOTS } from './embedded.ts';

type Reader = Db | Prisma.TransactionClient;
type Json = Record<string, unknown>;

export const DEFAULT_BOT = 1;
export const INCOMING_WEBHOOK_BOT = 2;
export const OUTGOING_WEBHOOK_BOT = 3;
export const EMBEDDED_BOT = 4;
/** Zulip's Service interfaces: its own request format, and Slack's. */
export const GENERIC_INTERFACE = 1;
export const SLACK_INTERFACE = 2;
const INTERFACES = [GENERIC_INTERFACE, SLACK_INTERFACE];

export interface NewBot {
  fullName: string;
  shortName: string;
  botType?: number | null;
  payloadUrl?: string | null;
  serviceName?: string | null;
  configData?: Record<string, string> | null;
  interfaceType?: number | null;
  defaultSendingStream?: string | null;
  defaultEventsRegisterStream?: string | null;
  defaultAllPublicStreams?: boolean | null;
}

export interface BotChanges {
  fullName?: string | null;
  role?: number | null;
  botOwnerId?: number | null;
  configData?: Record<string, string> | null;
  servicePayloadUrl?: string | null;
  serviceInterface?: number | null;
  defaultSendingStream?: string | null;
  defaultEventsRegisterStream?: string | null;
  defaultAllPublicStreams?: boolean | null;
}

/** Where a bot sends and listens when its client does not say (see botDefaults). */
export interface BotDefaults {
  sendingChannelId: number | null;
  registerChannelName: string | null;
  allPublicChannels: boolean;
}

/**
 * A bot's default_sending_stream, default_events_register_stream and default_all_public_streams,
 * which Zulip applies to a channel message sent without `to` and to a registration without
 * `narrow` or `all_public_streams`. Null for people (the settings are bots' only).
 */
export async function botDefaults(db: Reader, user: Pick<User, 'id' | 'isBot'>): Promise<BotDefaults | null> {
  if (!user.isBot) return null;
  const profile = await db.botProfile.findUnique({ where: { userId: user.id } });
  if (!profile) return null;
  const names = await channelNames(db, [profile.defaultEventsRegisterChannelId]);
  return {
    sendingChannelId: profile.defaultSendingChannelId,
    registerChannelName: profile.defaultEventsRegisterChannelId != null ? names.get(profile.defaultEventsRegisterChannelId) ?? null : null,
    allPublicChannels: profile.defaultAllPublicChannels,
  };
}

/** Zulip's require_member_or_admin: bot endpoints are for human members. */
function requireMember(actor: User): void {
  if (actor.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  if (isGuest(actor)) throw new BadRequestError('Not allowed for guest users');
}

/** The domain of bots' API emails: the organization's host (Zulip's realm.get_bot_domain). */
export function botDomain(ctx: Pick<Context, 'realm' | 'config'>): string {
  return new URL(realmUrl(ctx.realm, ctx.config)).hostname;
}

function checkUrl(url: string, name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError(name, `${name} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidArgumentError(name, `${name} is not a URL`);
  return url;
}

function checkInterface(value: number | null | undefined): number {
  const interfaceType = value ?? GENERIC_INTERFACE;
  if (!INTERFACES.includes(interfaceType)) throw new BadRequestError('Invalid interface type');
  return interfaceType;
}

/** Zulip's check_full_name for bots, then the uniqueness check that keeps two active bots apart. */
async function checkBotName(db: Reader, realmId: number, raw: string, exceptId?: number): Promise<string> {
  if (!raw.trim()) throw new BadRequestError('Name must not be empty!');
  // Names ending with `|123` would be ambiguous in mention syntax.
  if (/\|\d+$/.test(raw)) throw new BadRequestError('Invalid format!');
  const fullName = validateFullName(raw);
  const clash = await db.user.findFirst({ where: { realmId, fullName, isActive: true, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (clash) throw new BadRequestError('Name is already in use.');
  return fullName;
}

const BOT_TYPES = [DEFAULT_BOT, INCOMING_WEBHOOK_BOT, OUTGOING_WEBHOOK_BOT, EMBEDDED_BOT];

/**
 * Zulip's check_bot_creation_policy: any bot for can_create_bots_group, incoming webhooks (which
 * can only send messages) also for can_create_write_only_bots_group.
 */
async function checkBotCreationPolicy(db: Reader, realm: Context['realm'], user: User, botType: number): Promise<void> {
  if (await isUserInGroup(db, user, realm.canCreateBotsGroupId)) return;
  if (botType === INCOMING_WEBHOOK_BOT && await isUserInGroup(db, user, realm.canCreateWriteOnlyBotsGroupId)) return;
  throw new BadRequestError('Insufficient permission');
}

/** A bot the actor administers: its owner or an administrator (Zulip's access_bot_by_id). */
async function accessBot(ctx: Context, actor: User, botId: number): Promise<User> {
  const bot = await ctx.db.user.findFirst({ where: { id: botId, realmId: ctx.realm.id } });
  if (!bot || !bot.isBot) throw new BadRequestError('No such bot');
  if (!isAdmin(actor) && bot.botOwnerId !== actor.id) throw new BadRequestError('Insufficient permission');
  return bot;
}

async function channelNames(db: Reader, ids: (number | null | undefined)[]): Promise<Map<number, string>> {
  const wanted = ids.filter((id): id is number => id != null);
  if (!wanted.length) return new Map();
  const rows = await db.channel.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The bot's `services` list: its outgoing webhook, or its embedded bot, or nothing. */
function botServices(bot: Pick<User, 'botType'>, profile: BotProfile | null): Json[] {
  if (!profile) return [];
  if (bot.botType === OUTGOING_WEBHOOK_BOT) {
    return [{ base_url: profile.serviceBaseUrl ?? '', interface: profile.serviceInterface ?? GENERIC_INTERFACE, token: profile.serviceToken ?? '' }];
  }
  if (bot.botType === EMBEDDED_BOT) return [{ service_name: profile.serviceName ?? '', config_data: profile.configData ?? {} }];
  return [];
}

/** Zulip's Bot object, as its administrators see it. */
export function botRecord(bot: User, profile: BotProfile | null, names: Map<number, string>, gravatar: boolean): Json {
  const name = (id: number | null | undefined) => (id != null ? names.get(id) ?? null : null);
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: bot.apiKey,
    default_sending_stream: name(profile?.defaultSendingChannelId),
    default_events_register_stream: name(profile?.defaultEventsRegisterChannelId),
    default_all_public_streams: profile?.defaultAllPublicChannels ?? false,
    avatar_url: avatarUrl(bot, { gravatar }),
    owner_id: bot.botOwnerId,
    services: botServices(bot, profile),
  };
}

/** The bot records a viewer administers: every bot for administrators, else their own. */
export async function botRecordsFor(db: Reader, realmId: number, viewer: User, gravatar: boolean): Promise<Json[]> {
  const bots = await db.user.findMany({
    where: { realmId, isBot: true, ...(isAdmin(viewer) ? {} : { botOwnerId: viewer.id }) },
    include: { botProfile: true }, orderBy: { id: 'asc' },
  });
  const names = await channelNames(db, bots.flatMap((b) => [b.botProfile?.defaultSendingChannelId, b.botProfile?.defaultEventsRegisterChannelId]));
  return bots.map((b) => botRecord(b, b.botProfile, names, gravatar));
}

export interface CreatedBot {
  bot: User;
  profile: BotProfile;
  names: Map<number, string>;
}

/** POST /bots. */
export async function createBot(ctx: Context, actor: User, input: NewBot): Promise<CreatedBot> {
  requireMember(actor);
  const botType = input.botType ?? DEFAULT_BOT;
  const shortName = input.shortName.trim();
  if (!shortName) throw new BadRequestError('Bad name or username');
  const serviceName = botType !== INCOMING_WEBHOOK_BOT ? input.serviceName || shortName : input.serviceName ?? null;
  const fullName = validateFullNameForBot(input.fullName);
  let email: string;
  try {
    email = validateEmail(`${shortName}-bot@${botDomain(ctx)}`);
  } catch {
    throw new BadRequestError('Bad name or username');
  }
  if (botType === EMBEDDED_BOT && !EMBEDDED_BOTS.has(serviceName ?? '')) throw new BadRequestError('Invalid embedded bot name.');
  const payloadUrl = input.payloadUrl ? checkUrl(input.payloadUrl, 'payload_url') : '';
  const configData = input.configData ?? {};
  const interfaceType = input.interfaceType;

  return inTransaction(ctx, async (tx) => {
    const taken = await tx.db.user.findFirst({ where: { realmId: ctx.realm.id, OR: [{ email: { equals: email, mode: 'insensitive' } }, { deliveryEmail: { equals: email, mode: 'insensitive' } }] }, select: { id: true } });
    if (taken) throw new BadRequestError('Username already in use');
    await checkBotName(tx.db, ctx.realm.id, fullName);
    await checkBotCreationPolicy(tx.db, ctx.realm, actor, botType);
    if (!BOT_TYPES.includes(botType)) throw new BadRequestError('Invalid bot type');
    const iface = checkInterface(interfaceType);
    const sending = input.defaultSendingStream != null ? await accessChannelByName(tx.db, actor, input.defaultSendingStream) : null;
    const register = input.defaultEventsRegisterStream != null ? await accessChannelByName(tx.db, actor, input.defaultEventsRegisterStream) : null;
    if (botType === INCOMING_WEBHOOK_BOT && serviceName) {
      // Parley has no incoming-webhook integrations to configure (Zulip's check_valid_bot_config).
      throw new BadRequestError(`Invalid integration '${serviceName}'.`);
    }
    const bot = await createUserInTx(tx.tx, ctx.realm.id, {
      email, fullName, isBot: true, botType, botOwnerId: actor.id,
    });
    const hasService = botType === OUTGOING_WEBHOOK_BOT || botType === EMBEDDED_BOT;
    const profile = await tx.db.botProfile.create({
      data: {
        userId: bot.id,
        defaultSendingChannelId: sending?.id ?? null,
        defaultEventsRegisterChannelId: register?.id ?? null,
        defaultAllPublicChannels: input.defaultAllPublicStreams ?? false,
        ...(hasService ? { serviceName, serviceBaseUrl: payloadUrl, serviceInterface: iface, serviceToken: generateApiKey() } : {}),
        configData: botType === EMBEDDED_BOT ? configData : {},
      },
    });
    const names = new Map<number, string>();
    for (const c of [sending, register]) if (c) names.set(c.id, c.name);
    await announceNewUser(tx, bot);
    tx.events.publish(ctx.realm.id, await botAdministrators(tx.db, ctx.realm.id, bot), { type: 'realm_bot', op: 'add', bot: botRecord(bot, profile, names, ctx.config.gravatarEnabled) });
    return { bot, profile, names };
  });
}

function validateFullNameForBot(raw: string): string {
  if (!raw.trim()) throw new BadRequestError('Name must not be empty!');
  if (/\|\d+$/.test(raw)) throw new BadRequestError('Invalid format!');
  return validateFullName(raw);
}

/** GET /bots: the actor's own active bots, oldest first. */
export async function listOwnBots(ctx: Context, actor: User): Promise<Json[]> {
  requireMember(actor);
  const bots = await ctx.db.user.findMany({
    where: { realmId: ctx.realm.id, isBot: true, isActive: true, botOwnerId: actor.id },
    include: { botProfile: true }, orderBy: [{ dateJoined: 'asc' }, { id: 'asc' }],
  });
  const names = await channelNames(ctx.db, bots.flatMap((b) => [b.botProfile?.defaultSendingChannelId, b.botProfile?.defaultEventsRegisterChannelId]));
  return bots.map((b) => botRecord(b, b.botProfile, names, ctx.config.gravatarEnabled));
}

export interface UpdatedBot {
  bot: User;
  profile: BotProfile | null;
  names: Map<number, string>;
  owner: User | null;
}

/** PATCH /bots/{bot_id}. Each change is its own event, as Zulip's do_change_* actions send them. */
export async function updateBot(ctx: Context, actor: User, botId: number, changes: BotChanges): Promise<UpdatedBot> {
  requireMember(actor);
  const target = await accessBot(ctx, actor, botId);
  const payloadUrl = changes.servicePayloadUrl != null ? checkUrl(changes.servicePayloadUrl, 'service_payload_url') : null;
  if (payloadUrl !== null) checkInterface(changes.serviceInterface);
  const fullName = changes.fullName != null && changes.fullName !== target.fullName ? validateFullNameForBot(changes.fullName) : null;

  await inTransaction(ctx, async (tx) => {
    const profile = await tx.db.botProfile.findUnique({ where: { userId: target.id } });
    const admins = () => botAdministrators(tx.db, ctx.realm.id, target);
    const botEvent = async (bot: Json) => tx.events.publish(ctx.realm.id, await admins(), { type: 'realm_bot', op: 'update', bot: { user_id: target.id, ...bot } });
    const userEvent = async (person: Json, audience?: number[]) =>
      tx.events.publish(ctx.realm.id, audience ?? await usersWhoCanAccess(tx.db, ctx.realm, target), { type: 'realm_user', op: 'update', person: { user_id: target.id, ...person } });

    if (fullName !== null && fullName !== target.fullName) {
      await checkBotName(tx.db, ctx.realm.id, fullName, target.id);
      await tx.db.user.update({ where: { id: target.id }, data: { fullName } });
      await userEvent({ full_name: fullName });
      await botEvent({ full_name: fullName });
    }
    if (changes.botOwnerId != null) {
      const owner = await tx.db.user.findFirst({ where: { id: changes.botOwnerId, realmId: ctx.realm.id } });
      if (!owner) throw new BadRequestError('Failed to change owner, no such user');
      if (!owner.isActive) throw new BadRequestError('Failed to change owner, user is deactivated');
      if (owner.isBot) throw new BadRequestError("Failed to change owner, bots can't own other bots");
      if (owner.id !== target.botOwnerId) await changeBotOwner(tx, target, profile, owner);
    }
    const profileData: Prisma.BotProfileUncheckedUpdateInput = {};
    const botChanges: Json = {};
    if (changes.defaultSendingStream != null) {
      const channel = changes.defaultSendingStream === '' ? null : await accessChannelByName(tx.db, actor, changes.defaultSendingStream);
      profileData.defaultSendingChannelId = channel?.id ?? null;
      botChanges.default_sending_stream = channel?.name ?? null;
    }
    if (changes.defaultEventsRegisterStream != null) {
      const channel = changes.defaultEventsRegisterStream === '' ? null : await accessChannelByName(tx.db, actor, changes.defaultEventsRegisterStream);
      profileData.defaultEventsRegisterChannelId = channel?.id ?? null;
      botChanges.default_events_register_stream = channel?.name ?? null;
    }
    if (changes.defaultAllPublicStreams != null) {
      profileData.defaultAllPublicChannels = changes.defaultAllPublicStreams;
      botChanges.default_all_public_streams = changes.defaultAllPublicStreams;
    }
    if (payloadUrl !== null) {
      // Zulip updates the bot's service whatever its type; only outgoing webhooks have one to update.
      profileData.serviceBaseUrl = payloadUrl;
      profileData.serviceInterface = checkInterface(changes.serviceInterface);
    }
    if (changes.configData != null) profileData.configData = { ...((profile?.configData as Json | null) ?? {}), ...changes.configData } as Prisma.InputJsonObject;
    if (Object.keys(profileData).length) {
      const updated = await tx.db.botProfile.upsert({ where: { userId: target.id }, create: { userId: target.id, ...(profileData as Json) }, update: profileData });
      for (const [key, value] of Object.entries(botChanges)) await botEvent({ [key]: value });
      if (payloadUrl !== null || changes.configData != null) await botEvent({ services: botServices(target, updated) });
    }
  });
  // Role changes follow PATCH /users' rules (administrators; owners for the owner role).
  if (changes.role != null && changes.role !== target.role) await updateUser(ctx, actor, target.id, { role: changes.role });

  const bot = await ctx.db.user.findUniqueOrThrow({ where: { id: target.id }, include: { botProfile: true } });
  const names = await channelNames(ctx.db, [bot.botProfile?.defaultSendingChannelId, bot.botProfile?.defaultEventsRegisterChannelId]);
  const owner = bot.botOwnerId ? await ctx.db.user.findUnique({ where: { id: bot.botOwnerId } }) : null;
  return { bot, profile: bot.botProfile, names, owner };
}

/**
 * Zulip's do_change_bot_owner: the previous owner (unless an administrator) hears the bot go
 * (`delete`), the new one (unless an administrator) hears it come (`add`), the other
 * administrators hear the new owner, and everyone hears the user record's new bot_owner_id.
 */
async function changeBotOwner(tx: Context & { tx: Prisma.TransactionClient }, bot: User, profile: BotProfile | null, owner: User): Promise<void> {
  const realmId = bot.realmId;
  const previous = bot.botOwnerId ? await tx.db.user.findUnique({ where: { id: bot.botOwnerId } }) : null;
  const before = new Set(await botAdministrators(tx.db, realmId, bot));
  const updated = await tx.db.user.update({ where: { id: bot.id }, data: { botOwnerId: owner.id } });
  const after = new Set(await botAdministrators(tx.db, realmId, updated));
  const updateAudience = new Set([...before, ...after]);
  if (previous && !isAdmin(previous) && previous.isActive) {
    tx.events.publish(realmId, [previous.id], { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } });
    updateAudience.delete(previous.id);
  }
  if (!isAdmin(owner)) {
    const names = await channelNames(tx.db, [profile?.defaultSendingChannelId, profile?.defaultEventsRegisterChannelId]);
    tx.events.publish(realmId, [owner.id], { type: 'realm_bot', op: 'add', bot: botRecord(updated, profile, names, tx.config.gravatarEnabled) });
    updateAudience.delete(owner.id);
  }
  tx.events.publish(realmId, [...updateAudience].sort((a, b) => a - b), { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } });
  tx.events.publish(realmId, await activeUserIds(tx.db, realmId), { type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } });
}

/** POST /bots/{bot_id}/api_key/regenerate: the old key stops working at once. */
export async function regenerateBotApiKey(ctx: Context, actor: User, botId: number): Promise<string> {
  requireMember(actor);
  const bot = await accessBot(ctx, actor, botId);
  const apiKey = generateApiKey();
  await inTransaction(ctx, async (tx) => {
    await tx.db.user.update({ where: { id: bot.id }, data: { apiKey } });
    tx.events.publish(ctx.realm.id, await botAdministrators(tx.db, ctx.realm.id, bot), { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: apiKey } });
  });
  return apiKey;
}

/**
 * What reactivating a bot takes beyond administering it (Zulip's reactivate_user_backend): the
 * permission to create such a bot, and its name free among active users.
 */
export async function checkBotReactivation(ctx: Context, actor: User, bot: User): Promise<void> {
  await checkBotCreationPolicy(ctx.db, ctx.realm, actor, bot.botType ?? DEFAULT_BOT);
  const clash = await ctx.db.user.findFirst({ where: { realmId: ctx.realm.id, fullName: bot.fullName, isActive: true, id: { not: bot.id } }, select: { id: true } });
  if (clash) {
    throw new BadRequestError(`There is already an active bot named "${bot.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`);
  }
}

/** DELETE /bots/{bot_id}. */
export async function deactivateBot(ctx: Context, actor: User, botId: number): Promise<void> {
  const bot = await accessBot(ctx, actor, botId);
  if (!bot.isActive) throw new BadRequestError('User is deactivated');
  await deactivateAccount(ctx, bot);
}
