// PATCH /streams/{stream_id}: a channel's name, description, privacy, defaults, retention, topics
// policy, folder, archived state and permission settings. Modelled on Zulip's update_stream_backend:
// administering needs metadata access plus administrator rights; settings that govern message
// content (and making a private channel public) need content access too.
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, UnauthorizedPrincipalError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import {
  currentSettingValue, parseSettingUpdate, resolveGroupSetting, sameSettingValue, type GroupSettingInput, type SettingUpdate,
} from '../groups/setting-value.ts';
import { isAdmin, isOwner } from '../users/roles.ts';
import { codePointLength } from '../text.ts';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../limits.ts';
import { renderForRealm } from '../messages/render.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { findChannelByName, hasContentAccess } from './access.ts';
import { accessChannelForAdministering } from './administer.ts';
import { metadataAudience } from './audience.ts';
import { validateChannelName } from './subscribe.ts';
import { CHANNEL_EVENTS_TOPIC, publishChannelChanges, type ChannelChange } from './update-events.ts';
import { publishArchiveChange } from './archive.ts';
import { publishDefaultStreams } from './default-streams.ts';
import { TOPICS_POLICIES, channelPermissionSetting, type ChannelPermissionSetting } from './permission-settings.ts';
import { inTransaction, type TxContext } from '../transaction.ts';

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
  /** Update objects `{new, old?}` by permission setting name (channels/permission-settings.ts). */
  groupSettings?: Record<string, unknown>;
}

function parseRetention(raw: unknown): number | null {
  if (raw === 'realm_default') return null;
  if (raw === 'unlimited' || raw === 'forever') return -1;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  // The column is a 32-bit integer: larger values are refused, not a database error.
  if (!Number.isSafeInteger(n) || n <= 0 || n > 2 ** 31 - 1) throw new BadRequestError(`Bad value for 'message_retention_days': ${typeof raw === 'string' ? raw : JSON.stringify(raw)}`);
  return n;
}

/** Zulip's Stream.PERMISSION_POLICIES names, as the notification bot words them. */
function accessPolicyName(c: Pick<Channel, 'inviteOnly' | 'isWebPublic' | 'historyPublicToSubscribers'>): string {
  if (c.isWebPublic) return 'Web-public';
  if (!c.inviteOnly) return c.historyPublicToSubscribers ? 'Public' : 'Public, protected history';
  return c.historyPublicToSubscribers ? 'Private, shared history' : 'Private, protected history';
}

/** What an update will change: checked and computed before anything is written. */
interface ChannelUpdatePlan {
  data: Prisma.ChannelUpdateInput;
  changes: ChannelChange[];
  groupSettings: (readonly [ChannelPermissionSetting, GroupSettingUpdate])[];
  unarchive: boolean;
  /** true/false: make it a default channel or not; null: unchanged. */
  isDefault: boolean | null;
  newName: string | null;
  newDescription: string | null;
}

type GroupSettingUpdate = SettingUpdate;

/**
 * Changes a channel's settings (Zulip's do_change_stream_* actions behind update_stream_backend):
 * every rule is checked first, then the changes are written in one transaction whose events go out
 * on commit, then the notification bot tells the channel.
 */
export async function updateChannel(ctx: Context, actor: User, channelId: number, input: ChannelUpdateInput): Promise<void> {
  const channel = await accessChannelForAdministering(ctx.db, actor, channelId);
  const plan = await planChannelUpdate(ctx, actor, channel, input);
  const updated = await inTransaction(ctx, (tx) => applyChannelUpdate(tx, channel, plan));
  await announceChannelUpdate(ctx, actor, channel, updated, plan);
}

async function planChannelUpdate(ctx: Context, actor: User, channel: Channel, input: ChannelUpdateInput): Promise<ChannelUpdatePlan> {
  const unarchive = input.isArchived === false && channel.isArchived;
  if (channel.isArchived && !unarchive) throw new BadRequestError('Channel is archived.');
  const groupSettings = Object.entries(input.groupSettings ?? {})
    .filter(([, raw]) => raw != null)
    .map(([name, raw]) => {
      const setting = channelPermissionSetting(name);
      if (!setting) throw new BadRequestError(`Invalid ${name}`);
      return [setting, parseSettingUpdate(name, raw)] as const;
    });
  const contentAccess = await hasContentAccess(ctx.db, actor, channel);
  if (groupSettings.some(([setting]) => setting.contentAccess) && !contentAccess) throw denyContent();

  const plan: ChannelUpdatePlan = { data: {}, changes: [], groupSettings, unarchive, isDefault: null, newName: null, newDescription: null };
  await planName(ctx, channel, input, plan);
  await planDescription(ctx, channel, input, plan);
  await planPrivacy(ctx, actor, channel, input, plan, contentAccess);
  planRetention(actor, channel, input, plan);
  await planTopicsPolicy(ctx, actor, channel, input, plan);
  await planFolder(ctx, channel, input, plan);
  return plan;
}

/** Zulip hides a channel's existence from whoever lacks the access a change needs. */
function denyContent(): BadRequestError {
  return new BadRequestError('Invalid channel ID');
}

async function planName(ctx: Context, channel: Channel, input: ChannelUpdateInput, plan: ChannelUpdatePlan): Promise<void> {
  if (input.newName == null) return;
  const name = validateChannelName(input.newName);
  if (name === channel.name) throw new BadRequestError('Channel already has that name.');
  await checkNameAvailable(ctx.db, ctx.realm.id, name, channel.id);
  plan.data.name = name;
  plan.newName = name;
  plan.changes.push({ property: 'name', value: name });
}

async function checkNameAvailable(db: Prisma.TransactionClient, realmId: number, name: string, channelId: number): Promise<void> {
  const clash = await findChannelByName(db, realmId, name);
  if (clash && clash.id !== channelId) throw new BadRequestError(`Channel '${name}' already exists`);
}

async function planDescription(ctx: Context, channel: Channel, input: ChannelUpdateInput, plan: ChannelUpdatePlan): Promise<void> {
  if (input.description == null) return;
  // Descriptions are one paragraph (Zulip replaces newlines).
  const description = input.description.replace(/\r?\n/g, ' ').trim();
  if (codePointLength(description) > MAX_CHANNEL_DESCRIPTION_LENGTH) {
    throw new BadRequestError(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
  }
  if (description === channel.description) return;
  const rendered = description ? (await renderForRealm(ctx.db, ctx.realm.id, description)).html : '';
  plan.data.description = description;
  plan.data.renderedDescription = rendered;
  plan.newDescription = description;
  plan.changes.push({ property: 'description', value: description, extra: { rendered_description: rendered } });
}

/** Privacy and default-channel status: web-public implies public, public implies public history. */
async function planPrivacy(
  ctx: Context, actor: User, channel: Channel, input: ChannelUpdateInput, plan: ChannelUpdatePlan, contentAccess: boolean,
): Promise<void> {
  const { realm } = ctx;
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
    plan.isDefault = input.isDefaultStream;
  }
  const isDefault = plan.isDefault ?? !!(await ctx.db.defaultChannel.findUnique({ where: { realmId_channelId: { realmId: realm.id, channelId: channel.id } } }));
  if (inviteOnly && isDefault) throw new BadRequestError('A default channel cannot be private.');
  if (inviteOnly === channel.inviteOnly && webPublic === channel.isWebPublic && history === channel.historyPublicToSubscribers) return;
  Object.assign(plan.data, { inviteOnly, isWebPublic: webPublic, historyPublicToSubscribers: history });
  const extra = { history_public_to_subscribers: history, is_web_public: webPublic };
  if (inviteOnly !== channel.inviteOnly) plan.changes.push({ property: 'invite_only', value: inviteOnly, extra });
  if (history !== channel.historyPublicToSubscribers) plan.changes.push({ property: 'history_public_to_subscribers', value: history });
  if (webPublic !== channel.isWebPublic) plan.changes.push({ property: 'is_web_public', value: webPublic });
}

function planRetention(actor: User, channel: Channel, input: ChannelUpdateInput, plan: ChannelUpdatePlan): void {
  if (input.messageRetentionDays == null) return;
  if (!isOwner(actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
  const days = parseRetention(input.messageRetentionDays);
  if (days === channel.messageRetentionDays) return;
  plan.data.messageRetentionDays = days;
  plan.changes.push({ property: 'message_retention_days', value: days });
}

async function planTopicsPolicy(ctx: Context, actor: User, channel: Channel, input: ChannelUpdateInput, plan: ChannelUpdatePlan): Promise<void> {
  if (input.topicsPolicy == null) return;
  if (!(TOPICS_POLICIES as readonly string[]).includes(input.topicsPolicy)) throw new BadRequestError('Invalid topics_policy');
  if (!(await isUserInGroup(ctx.db, actor, ctx.realm.canSetTopicsPolicyGroupId)) && !isAdmin(actor)) throw new PermissionDeniedError('Insufficient permission');
  if (input.topicsPolicy === 'empty_topic_only') {
    const named = await ctx.db.message.count({ where: { channelId: channel.id, topic: { not: '' } } });
    if (named) {
      throw new BadRequestError('To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.');
    }
  }
  if (input.topicsPolicy === channel.topicsPolicy) return;
  plan.data.topicsPolicy = input.topicsPolicy;
  plan.changes.push({ property: 'topics_policy', value: input.topicsPolicy });
}

async function planFolder(ctx: Context, channel: Channel, input: ChannelUpdateInput, plan: ChannelUpdatePlan): Promise<void> {
  if (input.folderId === undefined) return;
  if (input.folderId !== null) {
    const folder = await ctx.db.channelFolder.findFirst({ where: { id: input.folderId, realmId: ctx.realm.id } });
    if (!folder || folder.isArchived) throw new BadRequestError('Invalid channel folder ID');
  }
  if (input.folderId === channel.folderId) return;
  plan.data.folder = input.folderId === null ? { disconnect: true } : { connect: { id: input.folderId } };
  plan.changes.push({ property: 'folder_id', value: input.folderId });
}

/** Writes the plan and publishes its events (on commit, through the transaction's context). */
async function applyChannelUpdate(tx: TxContext<Context>, channel: Channel, plan: ChannelUpdatePlan): Promise<Channel> {
  const { realm } = tx;
  // Again inside: a concurrent rename or creation that took the name first makes the unique index
  // refuse this transaction, and its retry answers here.
  if (plan.newName !== null) await checkNameAvailable(tx.db, realm.id, plan.newName, channel.id);
  const before = await metadataAudience(tx.db, channel);
  const groupData: Record<string, number> = {};
  for (const [{ name, column }, update] of plan.groupSettings) {
    const currentId = channel[column] as number | null;
    const current = currentId == null ? null : await currentSettingValue(tx.db, currentId);
    if (update.old !== undefined && (current === null || !sameSettingValue(update.old, current))) {
      throw new BadRequestError("'old' value does not match the expected value.");
    }
    if (current !== null && sameSettingValue(update.new, current)) continue;
    groupData[column] = await resolveGroupSetting(tx.db, realm.id, 'stream', name, update.new);
  }
  if (plan.isDefault === true) {
    await tx.db.defaultChannel.upsert({
      where: { realmId_channelId: { realmId: realm.id, channelId: channel.id } },
      create: { realmId: realm.id, channelId: channel.id }, update: {},
    });
  } else if (plan.isDefault === false) {
    await tx.db.defaultChannel.deleteMany({ where: { realmId: realm.id, channelId: channel.id } });
  }
  const updated = await tx.db.channel.update({
    where: { id: channel.id }, data: { ...plan.data, ...groupData, ...(plan.unarchive ? { isArchived: false } : {}) },
  });

  const changes = [...plan.changes];
  for (const [{ name, column }] of plan.groupSettings) {
    if (updated[column] === channel[column]) continue;
    changes.push({ property: name, value: await currentSettingValue(tx.db, updated[column]!) });
  }
  const after = await metadataAudience(tx.db, updated);
  if (plan.unarchive) await publishArchiveChange(tx, updated, after);
  await publishChannelChanges(tx, updated, channel.name, changes, before, after);
  if (plan.isDefault !== null) await publishDefaultStreams(tx);
  return updated;
}

/** The notification bot tells the channel, as Zulip does; the change stands even if it cannot. */
async function announceChannelUpdate(ctx: Context, actor: User, channel: Channel, updated: Channel, plan: ChannelUpdatePlan): Promise<void> {
  const by = `@_**${actor.fullName}|${actor.id}**`;
  const to = { channelId: channel.id, topic: CHANNEL_EVENTS_TOPIC };
  try {
    if (plan.unarchive) await sendAsNotificationBot(ctx, to, `Channel #**${updated.name}** has been unarchived.`);
    if (plan.newName !== null) await sendAsNotificationBot(ctx, to, `${by} renamed channel **${channel.name}** to **${plan.newName}**.`);
    const oldPolicy = accessPolicyName(channel);
    const newPolicy = accessPolicyName(updated);
    if (oldPolicy !== newPolicy) {
      await sendAsNotificationBot(ctx, to, `${by} changed the [access permissions](/help/channel-permissions) for this channel from **${oldPolicy}** to **${newPolicy}**.`);
    }
    if (plan.newDescription !== null) {
      const quote = (text: string) => (text ? `\`\`\`\` quote\n${text}\n\`\`\`\`` : '```` quote\n*No description.*\n````');
      await sendAsNotificationBot(ctx, to,
        `${by} changed the description for this channel.\n\n* **Old description:**\n${quote(channel.description)}\n* **New description:**\n${quote(plan.newDescription)}`);
    }
  } catch {
    // An announcement is best-effort (the channel may not accept the bot's messages).
  }
}
