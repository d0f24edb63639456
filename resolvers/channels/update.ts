// PATCH /streams/{stream_id}: a channel's name, description, privacy, defaults, retention, topics
// policy, folder, archived state and permission settings. Modelled on Zulip's update_stream_backend:
// administering needs metadata access plus administrator rights; settings that govern message
// content (and making a private channel public) need content access too.
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, UnauthorizedPrincipalError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import {
  currentSettingValue, parseGroupSettingInput, resolveGroupSetting, sameSettingValue, type GroupSettingInput,
} from '../groups/setting-value.ts';
import { isAdmin, isOwner } from '../users/roles.ts';
import { codePointLength } from '../text.ts';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../realm/version.ts';
import { renderForRealm } from '../messages/render.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { findChannelByName, hasContentAccess } from './access.ts';
import { accessChannelForAdministering } from './administer.ts';
import { metadataAudience } from './audience.ts';
import { validateChannelName } from './subscribe.ts';
import { CHANNEL_EVENTS_TOPIC, publishChannelChanges, type ChannelChange } from './update-events.ts';
import { publishArchiveChange } from './archive.ts';
import { publishDefaultStreams } from './default-streams.ts';

/** Channel permission settings, wire name → column. */
export const CHANNEL_GROUP_SETTINGS = {
  can_add_subscribers_group: 'canAddSubscribersGroupId',
  can_remove_subscribers_group: 'canRemoveSubscribersGroupId',
  can_administer_channel_group: 'canAdministerChannelGroupId',
  can_delete_any_message_group: 'canDeleteAnyMessageGroupId',
  can_delete_own_message_group: 'canDeleteOwnMessageGroupId',
  can_move_messages_out_of_channel_group: 'canMoveMessagesOutOfChannelGroupId',
  can_move_messages_within_channel_group: 'canMoveMessagesWithinChannelGroupId',
  can_resolve_topics_group: 'canResolveTopicsGroupId',
  can_send_message_group: 'canSendMessageGroupId',
  can_subscribe_group: 'canSubscribeGroupId',
} as const;

export type ChannelGroupSetting = keyof typeof CHANNEL_GROUP_SETTINGS;

/** Settings about who may read or remove content: changing them needs content access (spec, subscribe table). */
const CONTENT_ACCESS_SETTINGS = new Set<ChannelGroupSetting>(['can_add_subscribers_group', 'can_delete_any_message_group', 'can_delete_own_message_group']);

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];

export interface ChannelUpdateInput {
  newName?: string | null;
  description?: string | null;
  isPrivate?: boolean | null;
  isWebPublic?: boolean | null;
  historyPublicToSubscribers?: boolean | null;
  isDefaultStream?: boolean | null;
  /** `realm_default`, `unlimited` or a positive number of days. */
  messageRetentionDays?: unknown;
  topicsPolicy?: string | null;
  /** undefined: unchanged; null: out of any folder. */
  folderId?: number | null;
  isArchived?: boolean | null;
  /** Update objects `{new, old?}` by wire setting name. */
  groupSettings?: Partial<Record<ChannelGroupSetting, unknown>>;
}

function parseRetention(raw: unknown): number | null {
  if (raw === 'realm_default') return null;
  if (raw === 'unlimited' || raw === 'forever') return -1;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  // The column is a 32-bit integer: larger values are refused, not a database error.
  if (!Number.isSafeInteger(n) || n <= 0 || n > 2 ** 31 - 1) throw new BadRequestError(`Bad value for 'message_retention_days': ${typeof raw === 'string' ? raw : JSON.stringify(raw)}`);
  return n;
}

function parseUpdateObject(name: string, raw: unknown): { new: GroupSettingInput; old?: GroupSettingInput } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('new' in raw)) throw new BadRequestError(`${name} is not a dict with 'new'`);
  const obj = raw as Record<string, unknown>;
  const unknownKey = Object.keys(obj).find((k) => k !== 'new' && k !== 'old');
  if (unknownKey) throw new BadRequestError(`${name} has an unknown key '${unknownKey}'`);
  return {
    new: parseGroupSettingInput(name, obj.new),
    ...(obj.old !== undefined ? { old: parseGroupSettingInput(name, obj.old) } : {}),
  };
}

/** Zulip's Stream.PERMISSION_POLICIES names, as the notification bot words them. */
function accessPolicyName(c: Pick<Channel, 'inviteOnly' | 'isWebPublic' | 'historyPublicToSubscribers'>): string {
  if (c.isWebPublic) return 'Web-public';
  if (!c.inviteOnly) return c.historyPublicToSubscribers ? 'Public' : 'Public, protected history';
  return c.historyPublicToSubscribers ? 'Private, shared history' : 'Private, protected history';
}

export async function updateChannel(ctx: Context, actor: User, channelId: number, input: ChannelUpdateInput): Promise<void> {
  const { realm } = ctx;
  const channel = await accessChannelForAdministering(ctx.db, actor, channelId);
  const unarchive = input.isArchived === false && channel.isArchived;
  if (channel.isArchived && !unarchive) throw new BadRequestError('Channel is archived.');

  const settings = Object.entries(input.groupSettings ?? {}).filter(([, v]) => v !== undefined && v !== null) as [ChannelGroupSetting, unknown][];
  const parsedSettings = settings.map(([name, raw]) => [name, parseUpdateObject(name, raw)] as const);
  const contentAccess = await hasContentAccess(ctx.db, actor, channel);
  const denyContent = () => new BadRequestError('Invalid channel ID');
  if (parsedSettings.some(([name]) => CONTENT_ACCESS_SETTINGS.has(name)) && !contentAccess) throw denyContent();

  const data: Prisma.ChannelUpdateInput = {};
  const changes: ChannelChange[] = [];
  let isDefaultChange: boolean | null = null;
  let newName: string | null = null;
  let newDescription: string | null = null;

  if (input.newName != null) {
    const name = validateChannelName(input.newName);
    if (name === channel.name) throw new BadRequestError('Channel already has that name.');
    const clash = await findChannelByName(ctx.db, realm.id, name);
    if (clash && clash.id !== channel.id) throw new BadRequestError(`Channel '${name}' already exists`);
    data.name = name;
    newName = name;
    changes.push({ property: 'name', value: name });
  }

  if (input.description != null) {
    // Descriptions are one paragraph (Zulip replaces newlines).
    const description = input.description.replace(/\r?\n/g, ' ').trim();
    if (codePointLength(description) > MAX_CHANNEL_DESCRIPTION_LENGTH) {
      throw new BadRequestError(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
    }
    if (description !== channel.description) {
      const rendered = description ? (await renderForRealm(ctx.db, realm.id, description)).html : '';
      data.description = description;
      data.renderedDescription = rendered;
      newDescription = description;
      changes.push({ property: 'description', value: description, extra: { rendered_description: rendered } });
    }
  }

  // Privacy: is_web_public implies public with public history; public channels always have public history.
  let inviteOnly = channel.inviteOnly;
  let webPublic = channel.isWebPublic;
  let history = channel.historyPublicToSubscribers;
  if (input.isWebPublic === true && !channel.isWebPublic) {
    if (!ctx.config.webPublicStreamsEnabled || !realm.enableSpectatorAccess) throw new BadRequestError('Web-public channels are not enabled.');
    if (!(await isUserInGroup(ctx.db, actor, realm.canCreateWebPublicChannelGroupId))) throw new PermissionDeniedError('Insufficient permission');
  }
  if (input.isWebPublic === true && input.isPrivate === true) throw new BadRequestError('Invalid parameters');
  if (input.isPrivate != null) {
    inviteOnly = input.isPrivate;
    if (inviteOnly) webPublic = false;
  }
  if (input.isWebPublic != null) {
    webPublic = input.isWebPublic;
    if (webPublic) inviteOnly = false;
  }
  if (input.historyPublicToSubscribers != null) history = input.historyPublicToSubscribers;
  if (!inviteOnly) history = true;
  if (inviteOnly !== channel.inviteOnly) {
    // Even organization administrators must be able to read a private channel to make it public.
    if (!inviteOnly && !contentAccess) throw denyContent();
    const group = inviteOnly ? realm.canCreatePrivateChannelGroupId : realm.canCreatePublicChannelGroupId;
    if (!(await isUserInGroup(ctx.db, actor, group))) throw new PermissionDeniedError('Insufficient permission');
  }
  if (history !== channel.historyPublicToSubscribers && inviteOnly && !contentAccess) throw denyContent();

  if (input.isDefaultStream != null) {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
    isDefaultChange = input.isDefaultStream;
  }
  const isDefault = isDefaultChange ?? !!(await ctx.db.defaultChannel.findUnique({ where: { realmId_channelId: { realmId: realm.id, channelId: channel.id } } }));
  if (inviteOnly && isDefault) throw new BadRequestError('A default channel cannot be private.');
  if (inviteOnly !== channel.inviteOnly || webPublic !== channel.isWebPublic || history !== channel.historyPublicToSubscribers) {
    Object.assign(data, { inviteOnly, isWebPublic: webPublic, historyPublicToSubscribers: history });
    const extra = { history_public_to_subscribers: history, is_web_public: webPublic };
    if (inviteOnly !== channel.inviteOnly) changes.push({ property: 'invite_only', value: inviteOnly, extra });
    if (history !== channel.historyPublicToSubscribers) changes.push({ property: 'history_public_to_subscribers', value: history });
    if (webPublic !== channel.isWebPublic) changes.push({ property: 'is_web_public', value: webPublic });
  }

  if (input.messageRetentionDays !== undefined && input.messageRetentionDays !== null) {
    if (!isOwner(actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
    const days = parseRetention(input.messageRetentionDays);
    if (days !== channel.messageRetentionDays) {
      data.messageRetentionDays = days;
      changes.push({ property: 'message_retention_days', value: days });
    }
  }

  if (input.topicsPolicy != null) {
    if (!TOPICS_POLICIES.includes(input.topicsPolicy)) throw new BadRequestError('Invalid topics_policy');
    if (!(await isUserInGroup(ctx.db, actor, realm.canSetTopicsPolicyGroupId)) && !isAdmin(actor)) throw new PermissionDeniedError('Insufficient permission');
    if (input.topicsPolicy === 'empty_topic_only') {
      const named = await ctx.db.message.count({ where: { channelId: channel.id, topic: { not: '' } } });
      if (named) {
        throw new BadRequestError('To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.');
      }
    }
    if (input.topicsPolicy !== channel.topicsPolicy) {
      data.topicsPolicy = input.topicsPolicy;
      changes.push({ property: 'topics_policy', value: input.topicsPolicy });
    }
  }

  if (input.folderId !== undefined) {
    if (input.folderId !== null) {
      const folder = await ctx.db.channelFolder.findFirst({ where: { id: input.folderId, realmId: realm.id } });
      if (!folder) throw new BadRequestError('Invalid channel folder ID');
      if (folder.isArchived) throw new BadRequestError('Invalid channel folder ID');
    }
    if (input.folderId !== channel.folderId) {
      data.folder = input.folderId === null ? { disconnect: true } : { connect: { id: input.folderId } };
      changes.push({ property: 'folder_id', value: input.folderId });
    }
  }

  const before = await metadataAudience(ctx.db, channel);
  const updated = await ctx.db.$transaction(async (tx) => {
    const groupData: Record<string, number> = {};
    for (const [name, update] of parsedSettings) {
      const column = CHANNEL_GROUP_SETTINGS[name];
      const currentId = channel[column as keyof Channel] as number | null;
      const current = currentId == null ? null : await currentSettingValue(tx, currentId);
      if (update.old !== undefined && (current === null || !sameSettingValue(update.old, current))) {
        throw new BadRequestError("'old' value does not match the expected value.");
      }
      if (current !== null && sameSettingValue(update.new, current)) continue;
      groupData[column] = await resolveGroupSetting(tx, realm.id, 'stream', name, update.new);
    }
    if (isDefaultChange === true) {
      await tx.defaultChannel.upsert({
        where: { realmId_channelId: { realmId: realm.id, channelId: channel.id } },
        create: { realmId: realm.id, channelId: channel.id }, update: {},
      });
    } else if (isDefaultChange === false) {
      await tx.defaultChannel.deleteMany({ where: { realmId: realm.id, channelId: channel.id } });
    }
    return tx.channel.update({ where: { id: channel.id }, data: { ...data, ...groupData, ...(unarchive ? { isArchived: false } : {}) } });
  });

  for (const [name] of parsedSettings) {
    const column = CHANNEL_GROUP_SETTINGS[name];
    if (updated[column] === channel[column]) continue;
    changes.push({ property: name, value: await currentSettingValue(ctx.db, updated[column]!) });
  }
  const after = await metadataAudience(ctx.db, updated);
  if (unarchive) await publishArchiveChange(ctx, updated, after);
  await publishChannelChanges(ctx, updated, channel.name, changes, before, after);
  if (isDefaultChange !== null) await publishDefaultStreams(ctx);

  // The notification bot tells the channel, as Zulip does; the change stands even if it cannot.
  const by = `@_**${actor.fullName}|${actor.id}**`;
  try {
    if (unarchive) await sendAsNotificationBot(ctx, { channelId: channel.id, topic: CHANNEL_EVENTS_TOPIC }, `Channel #**${updated.name}** has been unarchived.`);
    if (newName !== null) {
      await sendAsNotificationBot(ctx, { channelId: channel.id, topic: CHANNEL_EVENTS_TOPIC }, `${by} renamed channel **${channel.name}** to **${newName}**.`);
    }
    const oldPolicy = accessPolicyName(channel);
    const newPolicy = accessPolicyName(updated);
    if (oldPolicy !== newPolicy) {
      await sendAsNotificationBot(ctx, { channelId: channel.id, topic: CHANNEL_EVENTS_TOPIC },
        `${by} changed the [access permissions](/help/channel-permissions) for this channel from **${oldPolicy}** to **${newPolicy}**.`);
    }
    if (newDescription !== null) {
      const quote = (text: string) => (text ? `\`\`\`\` quote\n${text}\n\`\`\`\`` : '```` quote\n*No description.*\n````');
      await sendAsNotificationBot(ctx, { channelId: channel.id, topic: CHANNEL_EVENTS_TOPIC },
        `${by} changed the description for this channel.\n\n* **Old description:**\n${quote(channel.description)}\n* **New description:**\n${quote(newDescription)}`);
    }
  } catch {
    // An announcement is best-effort (the channel may not accept the bot's messages).
  }
}
