// The subscribe mutation's options for channels it creates (Zulip's POST /users/me/subscriptions
// parameters beyond the channel list), kept beside the mutation's older arguments in fields.ts.
import { CHANNEL_GROUP_SETTINGS, type ChannelGroupSettingArg } from './subscribe.ts';

export function subscribeCreationArgs(t: any) {
  const groupArgs = Object.fromEntries(
    (Object.entries(CHANNEL_GROUP_SETTINGS) as [ChannelGroupSettingArg, readonly [string, string]][]).map(([arg, [wireName]]) => [
      arg,
      t.arg({ type: 'JSON', description: `\`${wireName}\` of a channel created by this request: a group-setting value (group ID or \`{direct_members, direct_subgroups}\`).` }),
    ]),
  ) as Record<ChannelGroupSettingArg, any>;
  return {
    announce: t.arg.boolean({ defaultValue: false, description: 'Have the notification bot announce created channels in the new-channel announcements channel.' }),
    isWebPublic: t.arg.boolean({ defaultValue: false, description: 'Created channels are web-public (needs the server setting, spectator access and can_create_web_public_channel_group).' }),
    messageRetentionDays: t.arg({ type: 'JSON', description: 'Retention for created channels: "realm_default", "unlimited" or a positive number of days (owners only).' }),
    topicsPolicy: t.arg.string({ description: '`inherit` (default), `allow_empty_topic`, `disable_empty_topic` or `empty_topic_only`.' }),
    ...groupArgs,
  };
}

export function groupSettingArgs(args: Record<string, unknown>): Partial<Record<ChannelGroupSettingArg, unknown>> {
  const out: Partial<Record<ChannelGroupSettingArg, unknown>> = {};
  for (const arg of Object.keys(CHANNEL_GROUP_SETTINGS) as ChannelGroupSettingArg[]) if (args[arg] != null) out[arg] = args[arg];
  return out;
}
