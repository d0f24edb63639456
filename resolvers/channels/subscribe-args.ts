// The subscribe mutation's options for channels it creates (Zulip's POST /users/me/subscriptions
// parameters beyond the channel list), kept beside the mutation's older arguments in fields.ts.
import { CHANNEL_PERMISSION_SETTINGS, TOPICS_POLICY_DESCRIPTION } from './permission-settings.ts';

export function subscribeCreationArgs(t: any) {
  const groupArgs = Object.fromEntries(CHANNEL_PERMISSION_SETTINGS.map(({ name, field, description }) => [
    field,
    t.arg({ type: 'JSON', description: `${description} \`${name}\` of a channel created by this request: a group-setting value (group ID or \`{direct_members, direct_subgroups}\`).` }),
  ])) as Record<string, any>;
  return {
    announce: t.arg.boolean({ defaultValue: false, description: 'Have the notification bot announce created channels in the new-channel announcements channel.' }),
    isWebPublic: t.arg.boolean({ defaultValue: false, description: 'Created channels are web-public (needs the server setting, spectator access and can_create_web_public_channel_group).' }),
    messageRetentionDays: t.arg({ type: 'JSON', description: 'Retention for created channels: "realm_default", "unlimited" or a positive number of days (owners only).' }),
    topicsPolicy: t.arg.string({ description: `\`inherit\` (default) or another of ${TOPICS_POLICY_DESCRIPTION}.` }),
    ...groupArgs,
  };
}

/** The permission settings given to the mutation, by setting name. */
export function groupSettingArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, field } of CHANNEL_PERMISSION_SETTINGS) if (args[field] != null) out[name] = args[field];
  return out;
}
