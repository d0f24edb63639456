// GraphQL fields for administering channels: settings updates and archiving.
import { builder } from '../../schema/builder.ts';
import { requireUser } from '../../schema/context.ts';
import { CHANNEL_GROUP_SETTINGS, updateChannel, type ChannelGroupSetting } from './update.ts';
import { archiveChannel } from './archive.ts';

const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

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
      topicsPolicy: t.arg.string({ description: '`inherit`, `allow_empty_topic`, `disable_empty_topic` or `empty_topic_only`.' }),
      folderId: t.arg.int({ description: 'The channel folder; null takes the channel out of its folder.' }),
      isArchived: t.arg.boolean({ description: 'false unarchives an archived channel.' }),
      ...Object.fromEntries(Object.keys(CHANNEL_GROUP_SETTINGS).map((name) => [camel(name), t.arg({
        type: 'JSON',
        description: `Update object \`{new, old?}\` for ${name}: \`old\`, when given, must be the current value.`,
      })])) as Record<string, any>,
    },
    resolve: async (_root, args: Record<string, any>, ctx) => {
      const groupSettings: Partial<Record<ChannelGroupSetting, unknown>> = {};
      for (const name of Object.keys(CHANNEL_GROUP_SETTINGS) as ChannelGroupSetting[]) {
        if (args[camel(name)] != null) groupSettings[name] = args[camel(name)];
      }
      await updateChannel(ctx, requireUser(ctx), args.channelId, {
        newName: args.newName, description: args.description, isPrivate: args.isPrivate, isWebPublic: args.isWebPublic,
        historyPublicToSubscribers: args.historyPublicToSubscribers, isDefaultStream: args.isDefaultStream,
        messageRetentionDays: args.messageRetentionDays, topicsPolicy: args.topicsPolicy,
        folderId: 'folderId' in args ? args.folderId : undefined,
        isArchived: args.isArchived, groupSettings,
      });
      return true;
    },
  }),
  archiveChannel: t.boolean({
    description: 'Archives a channel (Zulip\'s DELETE /streams/{stream_id}): it keeps its history but accepts no messages.',
    args: { channelId: t.arg.int({ required: true, description: 'The channel to archive.' }) },
    resolve: async (_root, args, ctx) => {
      await archiveChannel(ctx, requireUser(ctx), args.channelId);
      return true;
    },
  }),
}));
