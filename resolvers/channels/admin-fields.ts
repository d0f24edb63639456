// GraphQL fields for administering channels: creation, settings updates, archiving, default
// channels and channel e-mail addresses.
import { builder } from '../../schema/builder.ts';
import { channelArg } from '../../schema/channels.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { updateChannel } from './update.ts';
import { CHANNEL_PERMISSION_SETTINGS, TOPICS_POLICY_DESCRIPTION } from './permission-settings.ts';
import { archiveChannel } from './archive.ts';
import { addDefaultChannel, defaultChannelIds, removeDefaultChannel } from './default-streams.ts';
import { channelEmailAddress } from './email-address.ts';
import { createChannel, type CreateChannelInput } from './create.ts';
import { groupSettingArgs, subscribeCreationArgs } from './subscribe-args.ts';
import { isGuest } from '../users/roles.ts';

builder.mutationFields((t) => ({
  updateChannel: t.boolean({
    description: 'Changes a channel\'s settings (Zulip\'s PATCH /streams/{stream_id}). Only the arguments given change.',
    args: {
      channelId: t.arg.int({ required: true, description: 'The channel to change.' }),
      newName: t.arg.string({ description: 'A new name, unique in the organization.' }),
      description: t.arg.string({ description: 'A new description (Markdown, one paragraph).' }),
      isPrivate: t.arg.boolean({ description: 'Make the channel private (true) or public (false).' }),
      isWebPublic: t.arg.boolean({ description: 'Make the channel\'s history readable without an account.' }),
      historyPublicToSubscribers: t.arg.boolean({ description: 'Whether new subscribers of a private channel see earlier messages.' }),
      isDefaultStream: t.arg.boolean({ description: 'Whether new users are subscribed to the channel (administrators only).' }),
      messageRetentionDays: t.arg({ type: 'JSON', description: '`realm_default`, `unlimited` or a positive number of days (owners only).' }),
      topicsPolicy: t.arg.string({ description: `One of ${TOPICS_POLICY_DESCRIPTION}.` }),
      folderId: t.arg.int({ description: 'The channel folder; null takes the channel out of its folder.' }),
      isArchived: t.arg.boolean({ description: 'false unarchives an archived channel.' }),
      ...Object.fromEntries(CHANNEL_PERMISSION_SETTINGS.map(({ name, field, description }) => [field, t.arg({
        type: 'JSON',
        description: `${description} Update object \`{new, old?}\` for ${name}: \`old\`, when given, must be the current value.`,
      })])) as Record<string, any>,
    },
    resolve: userAction((ctx, user, args: Record<string, any>) => {
      const groupSettings: Record<string, unknown> = {};
      for (const { name, field } of CHANNEL_PERMISSION_SETTINGS) if (args[field] != null) groupSettings[name] = args[field];
      return updateChannel(ctx, user, args.channelId, {
        newName: args.newName, description: args.description, isPrivate: args.isPrivate, isWebPublic: args.isWebPublic,
        historyPublicToSubscribers: args.historyPublicToSubscribers, isDefaultStream: args.isDefaultStream,
        messageRetentionDays: args.messageRetentionDays, topicsPolicy: args.topicsPolicy,
        folderId: 'folderId' in args ? args.folderId : undefined,
        isArchived: args.isArchived, groupSettings,
      });
    }),
  }),
  archiveChannel: t.boolean({
    description: 'Archives a channel (Zulip\'s DELETE /streams/{stream_id}): it keeps its history but accepts no messages.',
    args: { channelId: t.arg.int({ required: true, description: 'The channel to archive.' }) },
    resolve: userAction((ctx, user, args) => archiveChannel(ctx, user, args.channelId)),
  }),
}));

builder.queryFields((t) => ({
  defaultChannelIds: t.intList({
    description: 'The channels every new user is subscribed to (register\'s `realm_default_streams`); empty for guests.',
    resolve: forUser(async (ctx, user) => (isGuest(user) ? [] : defaultChannelIds(ctx))),
  }),
  channelEmailAddress: t.string({
    description: 'The address that posts e-mail to a channel (Zulip\'s GET /streams/{stream_id}/email_address). Parley runs no email gateway, so it is always "", as on Zulip servers without one.',
    args: {
      channelId: t.arg.int({ required: true, description: 'A channel the viewer may read.' }),
      senderId: t.arg.int({ description: 'Who e-mailed messages appear from: the viewer, or a bot the viewer may administer.' }),
    },
    resolve: forUser((ctx, user, args) => channelEmailAddress(ctx, user, args.channelId, args.senderId ?? null)),
  }),
}));

builder.mutationFields((t) => ({
  addDefaultChannel: t.boolean({
    description: 'Makes a public channel a default channel for new users (administrators; Zulip\'s POST /default_streams).',
    args: channelArg,
    resolve: userAction((ctx, user, args) => addDefaultChannel(ctx, user, args.channelId)),
  }),
  removeDefaultChannel: t.boolean({
    description: 'Stops subscribing new users to a channel (administrators; Zulip\'s DELETE /default_streams).',
    args: channelArg,
    resolve: userAction((ctx, user, args) => removeDefaultChannel(ctx, user, args.channelId)),
  }),
  createChannel: t.int({
    description: 'Creates a channel and subscribes exactly the given users (Zulip\'s POST /channels/create); an existing name is an error. Returns the channel ID.',
    args: {
      name: t.arg.string({ required: true, description: 'The new channel\'s name.' }),
      description: t.arg.string({ description: 'Its description (Markdown).' }),
      subscribers: t.arg.intList({ required: true, description: 'User IDs to subscribe (the creator only if listed).' }),
      inviteOnly: t.arg.boolean({ defaultValue: false, description: 'A private channel.' }),
      historyPublicToSubscribers: t.arg.boolean({ description: 'For a private channel: whether new subscribers see its history.' }),
      isDefaultStream: t.arg.boolean({ defaultValue: false, description: 'Subscribe new users to it (administrators; public channels only).' }),
      folderId: t.arg.int({ description: 'The channel folder it goes in.' }),
      ...subscribeCreationArgs(t),
    },
    resolve: forUser((ctx, user, args) => {
      const options = args as unknown as Omit<CreateChannelInput, 'groupSettings'>;
      return createChannel(ctx, user, { ...options, groupSettings: groupSettingArgs(args as Record<string, unknown>) });
    }),
  }),
}));
