// Sending a message: check the recipient and the sender's rights, render, then write the message and
// every recipient's flags in one transaction; events go out after it commits.
import { Prisma, type Channel, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, StreamDoesNotExistError } from '../errors.ts';
import { cachedChannelWithSubscribers, hasContentAccess, hasPostingAccess, isSubscribed, type ChannelWithSubscribers } from '../channels/access.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { checkGroupMentionsAllowed } from '../groups/mention.ts';
import { checkWildcardMentionsAllowed, topicParticipantIds } from './wildcard-mentions.ts';
import { MAX_MESSAGE_LENGTH } from '../limits.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';
import { exactInsensitive, isDbId } from '../rows.ts';
import { submessageRecord, widgetFor } from './widgets.ts';
import { renderForRealm, topicLinksForRealm } from './render.ts';
import { checkTopicAllowed, normalizeTopic } from './topics.ts';
import { messageRecord } from './present.ts';
import { avatarUrl } from '../users/avatars.ts';
import { isAdmin } from '../users/roles.ts';
import { flagList, type UserMessageFlags } from './flags.ts';
import { usersMuting } from '../users/muted-users.ts';
import { announceUpdates, claimableAttachmentIds } from '../uploads/attachments.ts';
import { serviceBotTriggers } from '../bots/service-bots.ts';
import { botDefaults } from '../bots/bots.ts';
import { onCommit } from '../transaction.ts';
import { driverQuery } from '../../prisma/database.ts';
import { THUMBNAIL_PLACEHOLDER_CLASS } from './markdown.ts';
import {
  autoPolicyColumns, autoPolicyCtes, autoPolicyOutcome, NO_AUTO_POLICIES, planAutoPolicies, publishAutoPolicies,
  type AutoPolicyColumns, type AutoPolicyOutcome, type AutoPolicyPlan,
} from '../topics/auto-policies.ts';
import { mentionsIn } from './mention-flags.ts';

export interface SendInput {
  type: string;
  /** Channel: one name or ID (none: a bot's default_sending_stream). Direct: user IDs or emails. */
  to?: unknown;
  topic?: string | null;
  content: string;
  readBySender?: boolean | null;
  /** The sender's event queue and the client's ID for the message, for local echo. */
  queueId?: string | null;
  localId?: string | null;
}

export interface Participant {
  id: number;
  email: string;
  fullName: string;
}

export type Recipient =
  | { kind: 'channel'; channel: Channel; topic: string; subscriberIds: number[] }
  | { kind: 'direct'; participants: Participant[] };

/** Zulip truncates over-long content with a marker rather than refusing it. */
export function normalizeContent(content: string): string {
  // Zulip's normalize_body: trailing white space and leading blank lines go.
  const body = content.replace(/\s+$/, '').replace(/^\n+/, '');
  if (!body.trim()) throw new BadRequestError('Message must not be empty');
  if (body.includes('\u0000')) throw new BadRequestError('Message must not contain null bytes');
  if (codePointLength(body) > MAX_MESSAGE_LENGTH) {
    return truncateCodePoints(body, MAX_MESSAGE_LENGTH - 20) + '\n[message truncated]';
  }
  return body;
}

async function resolveChannelRecipient(ctx: Context, sender: User, to: unknown, topic: string | null | undefined, system: boolean): Promise<Recipient> {
  let target: unknown = Array.isArray(to) ? (to.length === 1 ? to[0] : undefined) : to;
  if (to == null || (Array.isArray(to) && !to.length)) {
    // Zulip's Addressee.legacy_build: no channel named, a bot's default_sending_stream.
    target = (await botDefaults(ctx.db, sender))?.sendingChannelId;
    if (target == null) throw new BadRequestError('Missing channel');
  }
  if (typeof target === 'string' && /^\d+$/.test(target.trim())) target = Number(target.trim());
  let found: ChannelWithSubscribers | null;
  if (typeof target === 'number') {
    if (!isDbId(target)) throw StreamDoesNotExistError.byId(target);
    found = await cachedChannelWithSubscribers(ctx, ctx.realm.id, { id: target });
  } else if (typeof target === 'string' && target.trim()) {
    found = await cachedChannelWithSubscribers(ctx, ctx.realm.id, { name: target.trim() });
    if (!found) throw StreamDoesNotExistError.byName(target.trim());
  } else {
    throw new BadRequestError('Invalid channel name or ID');
  }
  // The subscribers receive the message; the same list answers whether the sender is one of them.
  const channel = found?.channel ?? null;
  const subscriberIds = found?.subscriberIds ?? [];
  const subscribed = subscriberIds.includes(sender.id);
  if (typeof target === 'number' && (!channel || (!system && !(await hasContentAccess(ctx.db, sender, channel, subscribed))))) {
    throw StreamDoesNotExistError.byId(target);
  }
  if (topic == null) throw new BadRequestError('Missing topic');
  const normalized = normalizeTopic(topic, ctx.realm, { noTopic: true });
  if (!system) await checkCanPost(ctx, sender, channel!, subscribed);
  checkTopicAllowed(normalized, channel!, ctx.realm);
  return { kind: 'channel', channel: channel!, topic: normalized, subscriberIds };
}

/**
 * Zulip's access_stream_for_send_message, in its order: can_send_message_group first (a bot may
 * post where its owner may), then the archive, then `hasPostingAccess`, which a bot also passes
 * when its owner is subscribed.
 */
export async function checkCanPost(ctx: Context, sender: User, channel: Channel, subscribed: boolean): Promise<void> {
  const owner = botOwner(ctx, sender);
  await checkSendGroup(ctx, sender, channel, owner);
  if (channel.isArchived || !(await hasPostingAccess(ctx.db, sender, channel, subscribed))) {
    const ownerRow = channel.isArchived ? null : await owner();
    if (!ownerRow || !(await isSubscribed(ctx.db, ownerRow.id, channel.id))) {
      throw new BadRequestError(`Not authorized to send to channel '${channel.name}'`);
    }
  }
}

/** A bot's owner, read once and only when a check needs it (most sends never do). */
function botOwner(ctx: Context, user: User): () => Promise<User | null> {
  let found: Promise<User | null> | undefined;
  return () => (found ??= user.isBot && user.botOwnerId ? ctx.db.user.findUnique({ where: { id: user.botOwnerId } }) : Promise.resolve(null));
}

/**
 * Zulip's check_stream_access_based_on_can_send_message_group: the one check moving messages into
 * a channel shares with posting there. A bot failing it may still post where its owner passes.
 */
export async function checkSendGroup(ctx: Context, user: User, channel: Channel, owner = botOwner(ctx, user)): Promise<void> {
  if (await isUserInGroup(ctx.db, user, channel.canSendMessageGroupId)) return;
  const ownerRow = await owner();
  if (ownerRow && (await isUserInGroup(ctx.db, ownerRow, channel.canSendMessageGroupId))) return;
  throw new BadRequestError('You do not have permission to post in this channel.');
}

async function resolveDirectRecipient(ctx: Context, sender: User, to: unknown, system: boolean): Promise<Recipient> {
  let refs: unknown[];
  if (to == null) throw new BadRequestError('Message must have recipients');
  if (Array.isArray(to)) refs = to;
  else if (typeof to === 'number') refs = [to];
  else if (typeof to === 'string') refs = to.split(',').map((s) => s.trim()).filter(Boolean);
  else throw new BadRequestError('Invalid recipients');
  if (!refs.length) throw new BadRequestError('Message must have recipients');
  const bad = refs.find((r) => typeof r !== 'number' && typeof r !== 'string');
  if (bad !== undefined) throw new BadRequestError('Invalid recipients');
  const ids = refs.filter((r): r is number => typeof r === 'number');
  const impossible = ids.find((id) => !isDbId(id));
  if (impossible !== undefined) throw new BadRequestError(`Invalid user ID ${impossible}`);
  const emails = refs.filter((r): r is string => typeof r === 'string');
  // One query for all recipients, however they were named.
  const found = await ctx.db.user.findMany({
    where: { realmId: ctx.realm.id, OR: [{ id: { in: ids } }, ...emails.map((email) => ({ email: exactInsensitive(email) }))] },
    select: { id: true, email: true, fullName: true, isActive: true },
  });
  for (const ref of refs) {
    const user = typeof ref === 'number' ? found.find((u) => u.id === ref) : found.find((u) => u.email.toLowerCase() === (ref as string).toLowerCase());
    if (!user) throw new BadRequestError(typeof ref === 'number' ? `Invalid user ID ${ref}` : `Invalid email '${String(ref)}'`);
    if (!user.isActive) throw new BadRequestError(`'${user.email}' is no longer using Zulip.`);
  }
  const participants = new Map<number, Participant>([[sender.id, { id: sender.id, email: sender.email, fullName: sender.fullName }]]);
  for (const user of found) participants.set(user.id, { id: user.id, email: user.email, fullName: user.fullName });
  // Who may start direct conversations is a realm setting (a group); talking to oneself is always fine.
  if (participants.size > 1 && !system && !isAdmin(sender) && !(await isUserInGroup(ctx.db, sender, ctx.realm.directMessagePermissionGroupId))) {
    throw new BadRequestError('You do not have permission to send direct messages in this organization.');
  }
  return { kind: 'direct', participants: [...participants.values()].sort((a, b) => a.id - b.id) };
}

/** `system`: the server sends on its own behalf (notification bot): no posting permission applies. */
export async function resolveRecipient(ctx: Context, sender: User, input: Pick<SendInput, 'type' | 'to' | 'topic'>, system = false): Promise<Recipient> {
  switch (input.type) {
    case 'stream':
    case 'channel':
      return resolveChannelRecipient(ctx, sender, input.to, input.topic, system);
    case 'private':
    case 'direct':
      return resolveDirectRecipient(ctx, sender, input.to, system);
    default:
      throw new BadRequestError('Invalid message type');
  }
}

/** The conversation of exactly these participants, created on first use (concurrent-safe). */
async function directConversationId(ctx: Context, userIds: number[]): Promise<number> {
  const participantKey = userIds.join(',');
  const key = { realmId_participantKey: { realmId: ctx.realm.id, participantKey } };
  const existing = await ctx.db.directConversation.findUnique({ where: key, select: { id: true } });
  if (existing) return existing.id;
  try {
    const created = await ctx.db.directConversation.create({
      data: { realmId: ctx.realm.id, participantKey, members: { createMany: { data: userIds.map((userId) => ({ userId })) } } },
      select: { id: true },
    });
    return created.id;
  } catch (error) {
    // Another request created it first.
    if ((error as { code?: string }).code !== 'P2002') throw error;
    return (await ctx.db.directConversation.findUniqueOrThrow({ where: key, select: { id: true } })).id;
  }
}

export interface SentMessage {
  id: number;
  recipientUserIds: number[];
  /** The sender's topic visibility policy, where sending changed it (Zulip's `automatic_new_visibility_policy`). */
  automaticNewVisibilityPolicy: number | null;
}

interface RecipientFlags extends Omit<UserMessageFlags, 'starred' | 'collapsed'> {
  userId: number;
}

export interface SendOptions {
  /** Sent by the server itself (see sendAsNotificationBot): posting permissions do not apply. */
  system?: boolean;
  /** Only these recipients receive it unread; the others have it read (see sendAsNotificationBot). */
  unreadFor?: number[];
  /** This recipient has it read whatever `unreadFor` says (see sendAsNotificationBot). */
  actingUserId?: number;
}

/** Zulip's check_message then do_send_messages: validate and plan, write in one statement, announce. */
export async function sendMessage(ctx: Context, sender: User, input: SendInput, options: SendOptions = {}): Promise<SentMessage> {
  const plan = await planSend(ctx, sender, input, options);
  const written = await writeMessage(ctx, sender, plan);
  await publishMessage(ctx, sender, input, plan, written);
  return { id: written.id, recipientUserIds: plan.flags.map((f) => f.userId), automaticNewVisibilityPolicy: written.autoPolicies.automaticNewVisibilityPolicy };
}

/** What sending will write: the recipient, the rendering and each recipient's flags. */
interface SendPlan {
  content: string;
  recipient: Recipient;
  rendered: Awaited<ReturnType<typeof renderForRealm>>;
  /** Users the message goes to (channel subscribers or the conversation's participants). */
  recipientIds: number[];
  flags: RecipientFlags[];
  /** Uploads the message links that the sender may read: they become readable with it. */
  claimed: number[];
  /** A /poll or /todo message's widget definition, its first submessage. */
  widgetJson: string | null;
  /** Who may come to follow or unmute the topic (the send statement decides and writes it). */
  autoPolicies: AutoPolicyPlan;
  /** Recipients reached only by group mentions: the smallest such group (missed-message e-mails name it). */
  mentionGroupOf: Map<number, number>;
}

interface WrittenMessage {
  id: number;
  widgetId: number | null;
  conversationId: number | null;
  dateSent: Date;
  autoPolicies: AutoPolicyOutcome;
}

async function planSend(ctx: Context, sender: User, input: SendInput, options: SendOptions): Promise<SendPlan> {
  const content = normalizeContent(input.content);
  const recipient = await resolveRecipient(ctx, sender, input, options.system ?? false);
  const rendered = await renderForRealm(ctx.db, ctx.realm.id, content);
  await checkGroupMentionsAllowed(ctx.db, sender, rendered.mentionedGroupIds, options.system ?? false);
  if (recipient.kind === 'channel') {
    const { channel, topic, subscriberIds } = recipient;
    await checkWildcardMentionsAllowed(ctx.db, ctx.realm, sender, {
      stream: rendered.wildcardMention === 'stream',
      topic: rendered.mentionsTopicWildcard,
      subscriberCount: subscriberIds.length,
      // The message is not written yet: its sender counts as a participant (as in Zulip).
      topicParticipants: async () => (await topicParticipantIds(ctx.db, channel.id, topic)).add(sender.id),
    });
  }

  const recipientIds = recipient.kind === 'channel' ? recipient.subscriberIds : recipient.participants.map((p) => p.id);
  const mentions = await mentionsIn(ctx.db, ctx.realm.id, sender.id, rendered, content,
    recipient.kind === 'channel' ? { channelId: recipient.channel.id, topic: recipient.topic } : null);
  const claimed = rendered.potentialAttachmentPathIds.length ? await claimableAttachmentIds(ctx, sender, rendered.potentialAttachmentPathIds) : [];
  const readBySender = input.readBySender ?? true;
  // Those who muted the sender receive the message already read: it neither counts nor notifies.
  const muting = await usersMuting(ctx.db, ctx.realm.id, sender.id);
  const unreadFor = options.unreadFor ? new Set(options.unreadFor) : null;
  const flags: RecipientFlags[] = [...new Set([...recipientIds, sender.id])].map((userId) => ({
    userId,
    read: userId === sender.id ? readBySender : userId === options.actingUserId || muting.has(userId) || (unreadFor != null && !unreadFor.has(userId)),
    ...mentions.flagsFor(userId),
    // The sender of a channel message they are not subscribed to keeps it as history.
    historical: recipient.kind === 'channel' && userId === sender.id && !recipientIds.includes(userId),
  }));
  const widget = widgetFor(content);
  const autoPolicies = recipient.kind === 'channel'
    ? await planAutoPolicies(ctx, sender, recipient.channel, recipient.topic, {
        subscribed: recipientIds.includes(sender.id), mentionedUserIds: rendered.mentionedUserIds, recipientIds,
      })
    : NO_AUTO_POLICIES;
  return {
    content, recipient, rendered, recipientIds, flags, claimed, widgetJson: widget ? JSON.stringify(widget) : null, autoPolicies,
    mentionGroupOf: mentions.mentionGroupOf,
  };
}

/**
 * One statement writes the message, every recipient's flags, the channel's first message, the
 * widget, the claimed uploads and the topic policies sending changes: atomic without an interactive transaction, and one round trip on
 * the hottest path there is. Its text is fixed, so it is prepared (in a transaction, such as a
 * scheduled message's delivery, it runs on the transaction's connection through Prisma).
 */
async function writeMessage(ctx: Context, sender: User, plan: SendPlan): Promise<WrittenMessage> {
  const { recipient, rendered, flags, claimed, widgetJson } = plan;
  const conversationId = recipient.kind === 'direct' ? await directConversationId(ctx, recipient.participants.map((p) => p.id)) : null;
  const channelId = recipient.kind === 'channel' ? recipient.channel.id : null;
  const topic = recipient.kind === 'channel' ? recipient.topic : '';
  const dateSent = new Date();
  const [row] = await driverQuery<{ id: number; widgetId: number | null } & AutoPolicyColumns>(ctx.db, Prisma.sql`
    WITH m AS (
      INSERT INTO "Message" ("realmId", "senderId", "channelId", "topic", "directConversationId", "content", "renderedContent",
        "dateSent", "sendingClient", "isMeMessage", "hasLink", "hasImage", "hasAttachment")
      VALUES (${ctx.realm.id}::int, ${sender.id}::int, ${channelId}::int, ${topic}, ${conversationId}::int, ${plan.content}, ${rendered.html},
        ${dateSent.toISOString()}::timestamp(3), ${ctx.clientName}, ${rendered.isMeMessage}::boolean, ${rendered.hasLink}::boolean,
        ${rendered.hasImage}::boolean, ${claimed.length > 0}::boolean)
      RETURNING id
    ), recipients AS (
      INSERT INTO "UserMessage" ("userId", "messageId", "read", "mentioned", "streamWildcardMentioned", "topicWildcardMentioned", "hasAlertWord", "historical", "isPrivate")
      SELECT r.user_id, m.id, r.read, r.mentioned, r.swm, r.twm, r.alert, r.historical, ${recipient.kind === 'direct'}::boolean
      FROM m, unnest(${flags.map((f) => f.userId)}::int[], ${flags.map((f) => f.read)}::bool[], ${flags.map((f) => f.mentioned)}::bool[],
        ${flags.map((f) => f.streamWildcardMentioned)}::bool[], ${flags.map((f) => f.topicWildcardMentioned)}::bool[],
        ${flags.map((f) => f.hasAlertWord)}::bool[], ${flags.map((f) => f.historical)}::bool[]) AS r(user_id, read, mentioned, swm, twm, alert, historical)
    ), first AS (
      UPDATE "Channel" SET "firstMessageId" = (SELECT id FROM m) WHERE id = ${channelId}::int AND "firstMessageId" IS NULL
    ), widget AS (
      INSERT INTO "SubMessage" ("messageId", "senderId", "msgType", "content")
      SELECT m.id, ${sender.id}::int, 'widget', ${widgetJson}::text FROM m WHERE ${widgetJson}::text IS NOT NULL
      RETURNING id
    ), attachments AS (
      INSERT INTO "AttachmentMessage" ("attachmentId", "messageId") SELECT a, m.id FROM m, unnest(${claimed}::int[]) AS a
    )${autoPolicyCtes(plan.autoPolicies, dateSent)}
    SELECT id, (SELECT id FROM widget) AS "widgetId", ${autoPolicyColumns(plan.autoPolicies)} FROM m`, { prepare: 'messages.send' });
  return { id: row!.id, widgetId: row!.widgetId, conversationId, dateSent, autoPolicies: autoPolicyOutcome(row!) };
}

/** The `message` event (with local echo for the sender's queue), attachment updates, service bots. */
async function publishMessage(ctx: Context, sender: User, input: SendInput, plan: SendPlan, written: WrittenMessage): Promise<void> {
  const { recipient, rendered, flags, widgetJson } = plan;
  const { id, conversationId, dateSent } = written;
  await announceUpdates(ctx, plan.claimed);
  // Before the message, as Zulip orders them: a client shows the message in a topic it already follows.
  await publishAutoPolicies(ctx, plan.autoPolicies, written.autoPolicies, dateSent);
  if (rendered.html.includes(THUMBNAIL_PLACEHOLDER_CLASS)) ctx.thumbnails?.recheck(plan.claimed);
  const channelId = recipient.kind === 'channel' ? recipient.channel.id : null;
  const topic = recipient.kind === 'channel' ? recipient.topic : '';
  // Built from what is already in memory: sending costs no second read of the message. The event
  // carries the raw topic and rendered content; each queue tailors them (resolvers/messages/events.ts).
  const view = messageRecord(ctx.realm, {
    row: {
      id, senderId: sender.id, channelId, directConversationId: conversationId, topic, content: plan.content, renderedContent: rendered.html,
      sendingClient: ctx.clientName, isMeMessage: rendered.isMeMessage, lastEditTime: null, lastMovedTime: null, dateSent, editHistory: null,
    },
    sender,
    avatarUrl: avatarUrl(sender, { gravatar: ctx.config.gravatarEnabled }),
    channelName: recipient.kind === 'channel' ? recipient.channel.name : null,
    participants: recipient.kind === 'direct'
      ? recipient.participants.map((p) => ({ id: p.id, email: p.email, full_name: p.fullName, is_mirror_dummy: false }))
      : [],
    reactions: [],
    submessages: widgetJson != null
      ? [submessageRecord({ id: written.widgetId!, messageId: id, senderId: sender.id, msgType: 'widget', content: widgetJson })]
      : [],
    topicLinks: await topicLinksForRealm(ctx.db, ctx.realm.id, topic),
    flags: [],
    highlight: null,
  }, { applyMarkdown: true, allowEmptyTopicName: true });
  const flagsByUser: Record<number, string[]> = {};
  for (const f of flags) flagsByUser[f.userId] = flagList(f);
  ctx.events.publish(ctx.realm.id, flags.map((f) => f.userId), {
    type: 'message', message: view, flags_by_user: flagsByUser,
    public_channel: recipient.kind === 'channel' && !recipient.channel.inviteOnly,
    ...(input.queueId && input.localId != null ? { sender_queue_id: input.queueId, local_id: input.localId } : {}),
  });
  const missedMessageEmails = ctx.missedMessageEmails;
  if (missedMessageEmails) {
    // Direct-message recipients and those mentioned; the topic's followers and channel e-mail
    // subscribers are found by the query that decides (resolvers/notifications/email-triggers.ts).
    const flaggedUserIds = flags.filter((f) => f.userId !== sender.id && !f.read
      && (recipient.kind === 'direct' || f.mentioned || f.streamWildcardMentioned || f.topicWildcardMentioned)).map((f) => f.userId);
    onCommit(ctx, () => missedMessageEmails.consider({
      realmId: ctx.realm.id, messageId: id, senderId: sender.id, channelId, topic, flaggedUserIds, mentionGroupOf: plan.mentionGroupOf,
    }));
  }
  const serviceBots = ctx.serviceBots;
  if (serviceBots) {
    const bots = await serviceBotTriggers(ctx, sender, recipient.kind, rendered.mentionedUserIds, plan.recipientIds);
    if (bots.length) onCommit(ctx, () => serviceBots.dispatch({ realmId: ctx.realm.id, view, bots }));
  }
}
