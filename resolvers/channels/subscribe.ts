// Subscribing users to channels, creating channels that do not exist yet (Zulip's
// add_subscriptions_backend): every check runs before anything is written, in one transaction.
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import type { SubscribeResultShape } from '../../schema/channels.ts';
import { BadRequestError, ChannelAlreadyExistsError, OrganizationOwnerRequiredError, PermissionDeniedError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { parseGroupSettingInput, resolveGroupSetting, type GroupSettingInput } from '../groups/setting-value.ts';
import { defaultChannelPermissions } from './defaults.ts';
import { isAdmin, isGuest, isOwner } from '../users/roles.ts';
import { pickColor } from '../users/create.ts';
import { codePointLength } from '../text.ts';
import { MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH } from '../limits.ts';
import { renderForRealm } from '../messages/render.ts';
import { findChannelByName, hasContentAccess, isSubscribed } from './access.ts';
import { resolvePrincipals } from './principals.ts';
import { inTransaction } from '../transaction.ts';
import { publishSubscribeEvents } from './subscribe-events.ts';
import { TOPICS_POLICIES, channelPermissionSetting, type ChannelPermissionSetting } from './permission-settings.ts';

export interface SubscribeInput {
  subscriptions: { name: string; description?: string | null }[];
  principals?: (number | string)[] | null;
  authorizationErrorsFatal?: boolean | null;
  announce?: boolean | null;
  inviteOnly?: boolean | null;
  isWebPublic?: boolean | null;
  historyPublicToSubscribers?: boolean | null;
  isDefaultStream?: boolean | null;
  messageRetentionDays?: unknown;
  topicsPolicy?: string | null;
  /** Permission settings of created channels, by setting name (channels/permission-settings.ts). */
  groupSettings?: Record<string, unknown>;
  /** The channel folder of created channels. */
  folderId?: number | null;
  /** Subscribe exactly `principals`, even none (POST /channels/create), rather than the actor by default. */
  exactPrincipals?: boolean;
  /** Create the channels or fail: an existing name is CHANNEL_ALREADY_EXISTS (POST /channels/create). */
  createOnly?: boolean;
}

export interface SubscribeOutcome {
  result: SubscribeResultShape;
  created: Channel[];
  added: { userId: number; channelId: number }[];
}

export function validateChannelName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new BadRequestError('Channel name can\'t be empty.');
  if (codePointLength(trimmed) > MAX_CHANNEL_NAME_LENGTH) {
    throw new BadRequestError(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  // Zulip's check_string_is_printable: control, surrogate and unassigned code points, 1-based.
  const chars = [...trimmed];
  const bad = chars.findIndex((c) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(c));
  if (bad >= 0) throw new BadRequestError(`Invalid character in channel name, at position ${bad + 1}.`);
  return trimmed;
}

/** `realm_default` → null, `unlimited` → -1, or a positive number of days (Zulip's parse_message_retention_days). */
function parseMessageRetentionDays(raw: unknown): number | null {
  if (raw === 'realm_default') return null;
  if (raw === 'unlimited') return -1;
  let value = raw;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) value = Number(value.trim());
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > 2 ** 31 - 1) {
    throw new BadRequestError(`Bad value for 'message_retention_days': ${typeof raw === 'string' ? raw : JSON.stringify(raw)}`);
  }
  return value;
}

/** The options for new channels, checked once before any channel is looked at. */
interface CreationOptions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  retentionGiven: boolean;
  topicsPolicy: string;
  groupSettings: [ChannelPermissionSetting, GroupSettingInput][];
  folderId: number | null;
}

function creationOptions(input: SubscribeInput): CreationOptions {
  const isWebPublic = input.isWebPublic ?? false;
  // A web-public channel is a public one.
  const inviteOnly = isWebPublic ? false : (input.inviteOnly ?? false);
  const retentionGiven = input.messageRetentionDays != null && input.messageRetentionDays !== 'realm_default';
  const messageRetentionDays = input.messageRetentionDays == null ? null : parseMessageRetentionDays(input.messageRetentionDays);
  const topicsPolicy = input.topicsPolicy ?? 'inherit';
  if (!(TOPICS_POLICIES as readonly string[]).includes(topicsPolicy)) throw new BadRequestError('Invalid topics_policy');
  const groupSettings: [ChannelPermissionSetting, GroupSettingInput][] = [];
  for (const [name, raw] of Object.entries(input.groupSettings ?? {})) {
    const setting = channelPermissionSetting(name);
    if (!setting) throw new BadRequestError(`Invalid ${name}`);
    if (raw != null) groupSettings.push([setting, parseGroupSettingInput(name, raw)]);
  }
  return {
    inviteOnly,
    isWebPublic,
    // Public channels always share their history (Zulip's get_default_value_for_history_public_to_subscribers).
    historyPublicToSubscribers: inviteOnly ? (input.historyPublicToSubscribers ?? false) : true,
    messageRetentionDays,
    retentionGiven,
    topicsPolicy,
    groupSettings,
    folderId: input.folderId ?? null,
  };
}

/** May `actor` create channels with these options at all (Zulip's list_to_streams checks)? */
async function checkCreationAllowed(tx: Prisma.TransactionClient, ctx: Context, actor: User, options: CreationOptions, isDefault: boolean): Promise<void> {
  const realm = ctx.realm;
  const groupId = options.inviteOnly ? realm.canCreatePrivateChannelGroupId : realm.canCreatePublicChannelGroupId;
  if (!(await isUserInGroup(tx, actor, groupId))) throw new PermissionDeniedError('Insufficient permission');
  if (isDefault && !isAdmin(actor)) throw new PermissionDeniedError('Insufficient permission');
  if (isDefault && options.inviteOnly) throw new BadRequestError('A default channel cannot be private.');
  if (options.isWebPublic) {
    const enabled = ctx.config.webPublicStreamsEnabled && realm.enableSpectatorAccess;
    if (!enabled || !(await isUserInGroup(tx, actor, realm.canCreateWebPublicChannelGroupId))) throw new PermissionDeniedError('Insufficient permission');
  }
  if (options.retentionGiven && !isOwner(actor)) throw new OrganizationOwnerRequiredError();
  if (options.folderId != null) {
    const folder = await tx.channelFolder.findFirst({ where: { id: options.folderId, realmId: realm.id, isArchived: false } });
    if (!folder) throw new BadRequestError('Invalid channel folder ID');
  }
  if (options.topicsPolicy !== 'inherit' && !(await isUserInGroup(tx, actor, realm.canSetTopicsPolicyGroupId))) {
    throw new PermissionDeniedError('Insufficient permission');
  }
  const setsDeletePolicy = options.groupSettings.some(([{ name }]) => name === 'can_delete_any_message_group' || name === 'can_delete_own_message_group');
  if (setsDeletePolicy && !(await isUserInGroup(tx, actor, realm.canSetDeleteMessagePolicyGroupId))) {
    throw new PermissionDeniedError('Insufficient permission');
  }
}

async function createChannel(
  tx: Prisma.TransactionClient, ctx: Context, actor: User, name: string, description: string, options: CreationOptions, isDefault: boolean,
): Promise<Channel> {
  const realm = ctx.realm;
  if (codePointLength(description) > MAX_CHANNEL_DESCRIPTION_LENGTH) {
    throw new BadRequestError(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
  }
  const permissions: Record<string, number | undefined> = await defaultChannelPermissions(tx, realm.id, actor.id);
  for (const [{ name, column }, value] of options.groupSettings) {
    permissions[column] = await resolveGroupSetting(tx, realm.id, 'stream', name, value);
  }
  const channel = await tx.channel.create({
    data: {
      realmId: realm.id,
      name,
      description,
      renderedDescription: description ? (await renderForRealm(tx, realm.id, description)).html : '',
      creatorId: actor.id,
      inviteOnly: options.inviteOnly,
      isWebPublic: options.isWebPublic,
      historyPublicToSubscribers: options.historyPublicToSubscribers,
      messageRetentionDays: options.messageRetentionDays,
      topicsPolicy: options.topicsPolicy,
      folderId: options.folderId,
      ...permissions,
    },
  });
  if (isDefault) await tx.defaultChannel.create({ data: { realmId: realm.id, channelId: channel.id } });
  return channel;
}

/**
 * May `actor` put `target` into an existing `channel`? Oneself: any public channel (not as a guest),
 * or a private one through can_subscribe_group / can_add_subscribers_group. Others: the channel's
 * can_add_subscribers_group; for a public channel also administrators and channel administrators;
 * otherwise access (for a private channel: being subscribed) plus the organization's
 * can_add_subscribers_group.
 */
async function canSubscribe(tx: Prisma.TransactionClient, ctx: Context, actor: User, target: User, channel: Channel): Promise<boolean> {
  // Archived channels take subscription changes like any other since feature level 362.
  if (channel.realmId !== actor.realmId) return false;
  if (actor.id === target.id) {
    if (await isSubscribed(tx, actor.id, channel.id)) return true;
    if (!channel.inviteOnly && !isGuest(actor)) return true;
    return (await isUserInGroup(tx, actor, channel.canSubscribeGroupId))
      || (await isUserInGroup(tx, actor, channel.canAddSubscribersGroupId));
  }
  if (await isUserInGroup(tx, actor, channel.canAddSubscribersGroupId)) return true;
  if (!channel.inviteOnly && (isAdmin(actor) || (await isUserInGroup(tx, actor, channel.canAdministerChannelGroupId)))) return true;
  // Without the channel's own group, a private channel's subscribers are added only by its subscribers.
  const access = channel.inviteOnly ? await isSubscribed(tx, actor.id, channel.id) : await hasContentAccess(tx, actor, channel);
  if (!access) return false;
  return isUserInGroup(tx, actor, ctx.realm.canAddSubscribersGroupId);
}

async function subscriptionCounts(tx: Prisma.TransactionClient, users: { id: number }[]): Promise<Map<number, number>> {
  const rows = await tx.subscription.groupBy({ by: ['userId'], where: { userId: { in: users.map((u) => u.id) } }, _count: { _all: true } });
  return new Map(rows.map((row) => [row.userId, row._count._all]));
}

/**
 * Subscribes, with the events built inside the transaction from what it wrote (a concurrent
 * unsubscribe cannot make them disagree with it) and published when it commits.
 */
export async function subscribe(ctx: Context, actor: User, input: SubscribeInput): Promise<SubscribeOutcome> {
  if (!input.subscriptions.length) throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
  return inTransaction(ctx, async (txc) => {
    const outcome = await subscribeInTransaction(txc.tx, txc, actor, input);
    await publishSubscribeEvents(txc, outcome.created, outcome.added);
    return outcome;
  });
}

/** The subscribe work inside a caller's transaction (PATCH /users/me/subscriptions adds and removes in one). */
export async function subscribeInTransaction(tx: Prisma.TransactionClient, ctx: Context, actor: User, input: SubscribeInput): Promise<SubscribeOutcome> {
  const fatal = input.authorizationErrorsFatal ?? true;
  const options = creationOptions(input);
  const isDefault = input.isDefaultStream ?? false;
  const targets = input.principals?.length ? await resolvePrincipals(tx, ctx.realm.id, input.principals) : input.exactPrincipals ? [] : [actor];
  const result: SubscribeResultShape = { subscribed: {}, alreadySubscribed: {}, unauthorized: [] };
  const created: Channel[] = [];
  const added: { userId: number; channelId: number }[] = [];
  // Names first, so a bad name anywhere in the list fails the request before any check.
  const specs = input.subscriptions.map((spec) => ({ name: validateChannelName(spec.name), description: spec.description ?? '' }));
  const channels: { channel: Channel; isNew: boolean }[] = [];
  for (const spec of specs) {
    if (channels.some((c) => c.channel.name.toLowerCase() === spec.name.toLowerCase())) continue;
    const existing = await findChannelByName(tx, ctx.realm.id, spec.name);
    if (existing && input.createOnly) throw new ChannelAlreadyExistsError(spec.name);
    if (existing) {
      channels.push({ channel: existing, isNew: false });
      continue;
    }
    if (!created.length) await checkCreationAllowed(tx, ctx, actor, options, isDefault);
    const channel = await createChannel(tx, ctx, actor, spec.name, spec.description, options, isDefault);
    created.push(channel);
    channels.push({ channel, isNew: true });
  }
  // Each user's number of subscriptions picks the colour of the next one (Zulip's palette, round
  // robin); read once when first needed and kept current as this request adds subscriptions.
  let colorIndex: Map<number, number> | undefined;
  for (const { channel, isNew } of channels) {
    let authorized = isNew;
    if (!authorized) {
      authorized = true;
      for (const target of targets) if (!(await canSubscribe(tx, ctx, actor, target, channel))) authorized = false;
    }
    if (!authorized) {
      if (fatal) throw new BadRequestError(`Unable to access channel (${channel.name}).`);
      result.unauthorized.push(channel.name);
      continue;
    }
    // One read and at most two writes per channel, however many users are being subscribed.
    const existingRows = await tx.subscription.findMany({ where: { channelId: channel.id, userId: { in: targets.map((target) => target.id) } } });
    const existingByUser = new Map(existingRows.map((sub) => [sub.userId, sub]));
    const reactivated: number[] = [];
    const fresh: { userId: number; channelId: number; color: string }[] = [];
    for (const target of targets) {
      const existing = existingByUser.get(target.id);
      const key = String(target.id);
      if (existing?.active) {
        (result.alreadySubscribed[key] ??= []).push(channel.name);
        continue;
      }
      if (existing) {
        reactivated.push(existing.id);
      } else {
        const count = (colorIndex ??= await subscriptionCounts(tx, targets)).get(target.id) ?? 0;
        colorIndex.set(target.id, count + 1);
        fresh.push({ userId: target.id, channelId: channel.id, color: pickColor(count) });
      }
      (result.subscribed[key] ??= []).push(channel.name);
      added.push({ userId: target.id, channelId: channel.id });
    }
    if (reactivated.length) await tx.subscription.updateMany({ where: { id: { in: reactivated } }, data: { active: true } });
    if (fresh.length) await tx.subscription.createMany({ data: fresh });
  }
  return { result, created, added };
}
