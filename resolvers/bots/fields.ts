// GraphQL fields of bots: the viewer's bots, creating, configuring, deactivating them and
// regenerating their keys.
import { builder } from '../../schema/builder.ts';
import { action, forUser, userAction } from '../../schema/fields.ts';
import { requireUser, type Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { botRecord, botRecordsFor, createBot, deactivateBot, listOwnBots, regenerateBotApiKey, updateBot, type CreatedBot, type UpdatedBot } from './bots.ts';
import { getBotStorage, removeBotStorage, updateBotStorage } from './storage.ts';
import { FileUploadInput } from '../../schema/emoji.ts';
import type { UploadedFile } from '../emoji/custom.ts';
import { prepareAvatar, storeAvatar, type PreparedAvatar } from '../users/avatars.ts';

type Json = Record<string, unknown>;

/** Zulip's POST /bots and PATCH /bots/{id} take the bot's avatar as their only file, read before anything changes. */
async function botAvatar(files: UploadedFile[] | null | undefined): Promise<PreparedAvatar | null> {
  if (!files?.length) return null;
  if (files.length > 1) throw new BadRequestError('You may only upload one file at a time.');
  return prepareAvatar(files[0]!);
}

/** Creates or changes a bot with its avatar (read first, stored once the bot is written); answers the bot's record. */
async function withAvatar<T extends CreatedBot | UpdatedBot>(
  ctx: Context, files: UploadedFile[] | null | undefined, write: () => Promise<T>,
): Promise<{ written: T; record: Json }> {
  const avatar = await botAvatar(files);
  const written = await write();
  const bot = avatar ? await storeAvatar(ctx, written.bot, avatar) : written.bot;
  return { written, record: botRecord(bot, written.profile, written.names, ctx.config.gravatarEnabled) };
}
interface BotShape extends Json { ownerEmail?: string | null }

const BotServiceType = builder.objectRef<Json>('BotService').implement({
  description: 'An outgoing-webhook bot\'s endpoint (baseUrl, token, interface) or an embedded bot\'s handler (serviceName, configData).',
  fields: (t) => ({
    baseUrl: t.string({ nullable: true, description: 'Outgoing webhooks: the URL requests are posted to.', resolve: (s) => (s.base_url as string | undefined) ?? null }),
    token: t.string({ nullable: true, description: 'Outgoing webhooks: sent with every request, so the receiver can check where it comes from.', resolve: (s) => (s.token as string | undefined) ?? null }),
    interface: t.int({ nullable: true, description: 'Outgoing webhooks: 1 Zulip\'s request format, 2 Slack\'s.', resolve: (s) => (s.interface as number | undefined) ?? null }),
    serviceName: t.string({ nullable: true, description: 'Embedded bots: the handler (helloworld, encrypt).', resolve: (s) => (s.service_name as string | undefined) ?? null }),
    configData: t.field({ type: 'JSON', nullable: true, description: 'Embedded bots: configuration (string keys and values).', resolve: (s) => (s.config_data as Json | undefined) ?? null }),
  }),
});

const BotType = builder.objectRef<BotShape>('Bot').implement({
  description: 'A bot as its owner and the administrators see it (Zulip\'s Bot object), API key included.',
  fields: (t) => ({
    userId: t.int({ description: 'The bot\'s user ID.', resolve: (b) => b.user_id as number }),
    email: t.string({ description: 'The bot\'s API email (`<short name>-bot@<organization host>`).', resolve: (b) => b.email as string }),
    fullName: t.string({ description: 'The bot\'s name.', resolve: (b) => b.full_name as string }),
    botType: t.int({ description: '1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded.', resolve: (b) => b.bot_type as number }),
    isActive: t.boolean({ description: 'False once deactivated.', resolve: (b) => b.is_active as boolean }),
    apiKey: t.string({ description: 'The bot\'s API key.', resolve: (b) => b.api_key as string }),
    defaultSendingStream: t.string({ nullable: true, description: 'Name of the bot\'s default channel for sending, if any.', resolve: (b) => b.default_sending_stream as string | null }),
    defaultEventsRegisterStream: t.string({ nullable: true, description: 'Name of the channel the bot registers for events in by default, if any.', resolve: (b) => b.default_events_register_stream as string | null }),
    defaultAllPublicStreams: t.boolean({ description: 'Whether the bot registers for events in all public channels by default.', resolve: (b) => b.default_all_public_streams as boolean }),
    avatarUrl: t.string({ nullable: true, description: 'The bot\'s avatar URL.', resolve: (b) => b.avatar_url as string | null }),
    ownerId: t.int({ nullable: true, description: 'The bot\'s owner, if any.', resolve: (b) => b.owner_id as number | null }),
    ownerEmail: t.string({ nullable: true, description: 'The owner\'s API email, if any.', resolve: (b) => b.ownerEmail ?? null }),
    services: t.field({ type: [BotServiceType], description: 'The outgoing webhook or embedded bot configuration: one entry for those, none otherwise.', resolve: (b) => b.services as Json[] }),
  }),
});

function configData(value: unknown): Record<string, string> | null {
  if (value == null) return null;
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new BadRequestError('config_data is not a dict');
  }
  return value as Record<string, string>;
}

builder.queryFields((t) => ({
  ownBots: t.field({
    type: [BotType],
    description: 'The viewer\'s active bots, oldest first (Zulip\'s GET /bots).',
    resolve: forUser(listOwnBots),
  }),
  administeredBots: t.field({
    type: [BotType],
    description: 'Every bot the viewer administers, deactivated ones included: all of them for administrators, else their own (register\'s realm_bots).',
    resolve: forUser((ctx, user) => botRecordsFor(ctx.db, ctx.realm.id, user, ctx.config.gravatarEnabled)),
  }),
}));

builder.mutationFields((t) => ({
  createBot: t.field({
    type: BotType,
    description: 'Creates a bot owned by the viewer (members with the can_create_bots_group permission; incoming webhooks also with can_create_write_only_bots_group).',
    args: {
      fullName: t.arg.string({ required: true, description: 'The bot\'s name (unique among active users).' }),
      shortName: t.arg.string({ required: true, description: 'Makes the bot\'s email, `<short name>-bot@<organization host>`.' }),
      botType: t.arg.int({ description: '1 generic (default), 2 incoming webhook, 3 outgoing webhook, 4 embedded.' }),
      payloadUrl: t.arg.string({ description: 'Outgoing webhooks: where messages that mention the bot or are sent to it are posted.' }),
      serviceName: t.arg.string({ description: 'Embedded bots: the handler, `helloworld` or `encrypt`.' }),
      configData: t.arg({ type: 'JSON', description: 'Embedded bots: configuration, string keys and values.' }),
      interfaceType: t.arg.int({ description: 'Outgoing webhooks: 1 Zulip\'s request format (default), 2 Slack\'s.' }),
      defaultSendingStream: t.arg.string({ description: 'Name of a channel the viewer may access.' }),
      defaultEventsRegisterStream: t.arg.string({ description: 'Name of a channel the viewer may access.' }),
      defaultAllPublicStreams: t.arg.boolean({ description: 'Register for events in all public channels by default.' }),
      files: t.arg({ type: [FileUploadInput], description: 'The bot\'s avatar: at most one image (at most max_avatar_file_size_mib).' }),
    },
    resolve: async (_root, { files, ...input }, ctx) => {
      const { record } = await withAvatar(ctx, files, () => createBot(ctx, requireUser(ctx), { ...input, configData: configData(input.configData) }));
      return record;
    },
  }),
  updateBot: t.field({
    type: BotType,
    description: 'Changes a bot the viewer administers (its owner, or an administrator); omitted arguments keep their value. Role changes need an administrator.',
    args: {
      botId: t.arg.int({ required: true, description: 'The bot to change.' }),
      fullName: t.arg.string({ description: 'New name.' }),
      role: t.arg.int({ description: 'New role code.' }),
      botOwnerId: t.arg.int({ description: 'New owner: an active human of the organization.' }),
      configData: t.arg({ type: 'JSON', description: 'Embedded bots: configuration entries to set.' }),
      servicePayloadUrl: t.arg.string({ description: 'Outgoing webhooks: new URL.' }),
      serviceInterface: t.arg.int({ description: 'Outgoing webhooks: request format with the new URL, 1 (default) or 2.' }),
      defaultSendingStream: t.arg.string({ description: 'Channel name, or "" for none.' }),
      defaultEventsRegisterStream: t.arg.string({ description: 'Channel name, or "" for none.' }),
      defaultAllPublicStreams: t.arg.boolean({ description: 'Register for events in all public channels by default.' }),
      files: t.arg({ type: [FileUploadInput], description: 'The bot\'s avatar: at most one image (at most max_avatar_file_size_mib).' }),
    },
    resolve: async (_root, { botId, files, ...changes }, ctx) => {
      const { written, record } = await withAvatar(ctx, files, () => updateBot(ctx, requireUser(ctx), botId, { ...changes, configData: configData(changes.configData) }));
      return { ...record, ownerEmail: written.owner?.email ?? null };
    },
  }),
  deactivateBot: t.boolean({
    description: 'Deactivates a bot the viewer administers.',
    args: { botId: t.arg.int({ required: true, description: 'The bot to deactivate.' }) },
    resolve: userAction((ctx, user, args) => deactivateBot(ctx, user, args.botId)),
  }),
  regenerateBotApiKey: t.string({
    description: 'Gives a bot the viewer administers a new API key (the old one stops working) and returns it.',
    args: { botId: t.arg.int({ required: true, description: 'The bot.' }) },
    resolve: forUser((ctx, user, args) => regenerateBotApiKey(ctx, user, args.botId)),
  }),
}));

builder.queryFields((t) => ({
  botStorage: t.field({
    type: 'JSON',
    description: 'The viewer\'s stored key-value pairs (Zulip\'s bot storage): these keys, or all; a missing key is an error.',
    args: { keys: t.arg.stringList({ description: 'Keys to read; omitted: every key.' }) },
    resolve: forUser((ctx, user, args) => getBotStorage(ctx, user, args.keys)),
  }),
}));

builder.mutationFields((t) => ({
  updateBotStorage: t.boolean({
    description: 'Stores key-value pairs (strings) for the viewer, within 10,000,000 characters in all.',
    args: { storage: t.arg({ type: 'JSON', required: true, description: 'An object of string values.' }) },
    resolve: action((ctx, args) => {
      if (typeof args.storage !== 'object' || args.storage === null || Array.isArray(args.storage)) throw new BadRequestError('storage is not a dict');
      return updateBotStorage(ctx, requireUser(ctx), args.storage as Record<string, unknown>);
    }),
  }),
  removeBotStorage: t.boolean({
    description: 'Removes stored keys (all of them when none are named); every key named must exist.',
    args: { keys: t.arg.stringList({ description: 'Keys to remove; omitted: every key.' }) },
    resolve: userAction((ctx, user, args) => removeBotStorage(ctx, user, args.keys)),
  }),
}));
