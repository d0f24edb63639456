// Sending a message: check the recipient and the sender's rights, render, then write the message and
// every recipient's flags in one transaction; events go out after it commits.
import type { Channel, Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, StreamDoesNotExistError } from '../errors.ts';
import { findChannelByName, hasContentAccess, isSubscribed } from '../channels/access.ts';
import { isUserInGroup, activeUserIdsInGroup } from '../groups/membership.ts';
import { MAX_MESSAGE_LENGTH } from '../realm/version.ts';
import { codePointLength, truncateCodePoints, exactInsensitive } from '../text.ts';
import { renderForRealm } from './render.ts';
import { checkTopicAllowed, normalizeTopic } from './topics.ts';
import { presentMessages } from './present.ts';
import { FLAG_COLUMNS } from './flags.ts';
import { isAdmin } from '../users/roles.ts';

export interface SendInput {
  type: string;
  /** Channel: one name or ID. Direct: user IDs or emails. */
  to: unknown;
  topic?: string | null;
  content: string;
  readBySender?: boolean | null;
}

export type Recipient =
  | { kind: 'channel'; channel: Channel; topic: string }
  | { kind: 'direct'; userIds: number[] };

/** Zulip truncates over-long content with a marker rather than refusing it. */
export function normalizeContent(content: string): string {
  const body = content.replace(/\s+$/, '');
  if (!body.trim()) throw new BadRequestError('Message must not be empty');
  if (body.includes('\u0000')) throw new BadRequestError('Message must not contain null bytes');
  if (codePointLength(body) > MAX_MESSAGE_LENGTH) {
    return truncateCodePoints(body, MAX_MESSAGE_LENGTH - 20) + '\n[message truncated]';
  }
  return body;
}

async function resolveChannelRecipient(ctx: Context, sender: User, to: unknown, topic: string | null | undefined): Promise<Recipient> {
  let target: unknown = Array.isArray(to) ? (to.length === 1 ? to[0] : undefined) : to;
  if (typeof target === 'string' && /^\d+$/.test(target.trim())) target = Number(target.trim());
  let channel: Channel | null;
  if (typeof target === 'number') {
    channel = await ctx.db.channel.findFirst({ where: { id: target, realmId: ctx.realm.id } });
    if (!channel || !(await hasContentAccess(ctx.db, sender, channel))) throw StreamDoesNotExistError.byId(target);
  } else if (typeof target === 'string' && target.trim()) {
    channel = await findChannelByName(ctx.db, ctx.realm.id, target);
    if (!channel) throw StreamDoesNotExistError.byName(target.trim());
  } else {
    throw new BadRequestError('Invalid channel name or ID');
  }
  if (topic == null) throw new BadRequestError('Missing topic');
  const normalized = normalizeTopic(topic, ctx.realm);
  await checkCanPost(ctx, sender, channel);
  checkTopicAllowed(normalized, channel, ctx.realm);
  return { kind: 'channel', channel, topic: normalized };
}

async function checkCanPost(ctx: Context, sender: User, channel: Channel): Promise<void> {
  const denied = new BadRequestError(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) throw denied;
  const subscribed = await isSubscribed(ctx.db, sender.id, channel.id);
  // A private channel: subscribers only (a bot may post where its owner could).
  if (channel.inviteOnly && !subscribed) {
    const owner = sender.isBot && sender.botOwnerId ? await ctx.db.user.findUnique({ where: { id: sender.botOwnerId } }) : null;
    if (!owner || !(await isSubscribed(ctx.db, owner.id, channel.id))) throw denied;
  }
  if (!channel.inviteOnly && sender.role === 600 && !subscribed) throw denied;
  if (!(await isUserInGroup(ctx.db, sender.id, channel.canSendMessageGroupId)) && !(sender.isBot && sender.botType === 2)) {
    throw new BadRequestError('You do not have permission to post in this channel.');
  }
}

async function resolveDirectRecipient(ctx: Context, sender: User, to: unknown): Promise<Recipient> {
  let refs: unknown[];
  if (Array.isArray(to)) refs = to;
  else if (typeof to === 'number') refs = [to];
  else if (typeof to === 'string') refs = to.split(',').map((s) => s.trim()).filter(Boolean);
  else throw new BadRequestError('Invalid recipients');
  if (!refs.length) throw new BadRequestError('Message must have recipients');
  const ids = new Set<number>([sender.id]);
  for (const ref of refs) {
    const user = typeof ref === 'number'
      ? await ctx.db.user.findFirst({ where: { id: ref, realmId: ctx.realm.id } })
      : typeof ref === 'string'
        ? await ctx.db.user.findFirst({ where: { realmId: ctx.realm.id, email: exactInsensitive(ref) } })
        : null;
    if (!user) {
      throw new BadRequestError(typeof ref === 'number' ? `Invalid user ID ${ref}` : `Invalid email '${String(ref)}'`);
    }
    if (!user.isActive) throw new BadRequestError(`'${user.email}' is no longer using Zulip.`);
    ids.add(user.id);
  }
  // Who may start direct conversations is a realm setting (a group); talking to oneself is always fine.
  const others = [...ids].filter((id) => id !== sender.id);
  if (others.length && !isAdmin(sender) && !(await isUserInGroup(ctx.db, sender.id, ctx.realm.directMessagePermissionGroupId))) {
    throw new BadRequestError('You do not have permission to send direct messages in this organization.');
  }
  return { kind: 'direct', userIds: [...ids].sort((a, b) => a - b) };
}

export async function resolveRecipient(ctx: Context, sender: User, input: Pick<SendInput, 'type' | 'to' | 'topic'>): Promise<Recipient> {
  switch (input.type) {
    case 'stream':
    case 'channel':
      return resolveChannelRecipient(ctx, sender, input.to, input.topic);
    case 'private':
    case 'direct':
      return resolveDirectRecipient(ctx, sender, input.to);
    default:
      throw new BadRequestError('Invalid message type');
  }
}

type Tx = Prisma.TransactionClient;

async function directConversationId(tx: Tx, realmId: number, userIds: number[]): Promise<number> {
  const participantKey = userIds.join(',');
  const existing = await tx.directConversation.findUnique({ where: { realmId_participantKey: { realmId, participantKey } } });
  if (existing) return existing.id;
  const created = await tx.directConversation.create({
    data: { realmId, participantKey, members: { createMany: { data: userIds.map((userId) => ({ userId })) } } },
  });
  return created.id;
}

export interface SentMessage {
  id: number;
  recipientUserIds: number[];
}

export async function sendMessage(ctx: Context, sender: User, input: SendInput): Promise<SentMessage> {
  const content = normalizeContent(input.content);
  const recipient = await resolveRecipient(ctx, sender, input);
  const rendered = await renderForRealm(ctx.db, ctx.realm.id, content);

  // Who receives it: subscribers of the channel, or the conversation's participants.
  const recipientIds = recipient.kind === 'channel'
    ? (await ctx.db.subscription.findMany({
        where: { channelId: recipient.channel.id, active: true, isUserActive: true },
        select: { userId: true },
      })).map((s) => s.userId)
    : recipient.userIds;
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) {
    for (const userId of await activeUserIdsInGroup(ctx.db, groupId)) mentioned.add(userId);
  }
  const topicParticipants = recipient.kind === 'channel' && rendered.wildcardMention === 'topic'
    ? new Set((await ctx.db.message.findMany({
        where: { channelId: recipient.channel.id, topic: exactInsensitive(recipient.topic) },
        select: { senderId: true }, distinct: ['senderId'],
      })).map((m) => m.senderId))
    : new Set<number>();
  const readBySender = input.readBySender ?? true;

  const message = await ctx.db.$transaction(async (tx) => {
    const conversationId = recipient.kind === 'direct' ? await directConversationId(tx, ctx.realm.id, recipient.userIds) : null;
    const created = await tx.message.create({
      data: {
        realmId: ctx.realm.id,
        senderId: sender.id,
        channelId: recipient.kind === 'channel' ? recipient.channel.id : null,
        topic: recipient.kind === 'channel' ? recipient.topic : '',
        directConversationId: conversationId,
        content,
        renderedContent: rendered.html,
        sendingClient: ctx.clientName,
        isMeMessage: rendered.isMeMessage,
        hasLink: rendered.hasLink,
        hasImage: rendered.hasImage,
        hasAttachment: rendered.hasAttachment,
      },
      select: { id: true },
    });
    const rows = new Set(recipientIds);
    rows.add(sender.id);
    await tx.userMessage.createMany({
      data: [...rows].map((userId) => ({
        userId,
        messageId: created.id,
        read: userId === sender.id && readBySender,
        mentioned: mentioned.has(userId) && userId !== sender.id,
        streamWildcardMentioned: rendered.wildcardMention === 'stream' && userId !== sender.id,
        topicWildcardMentioned: rendered.wildcardMention === 'topic' && topicParticipants.has(userId) && userId !== sender.id,
        isPrivate: recipient.kind === 'direct',
        // The sender of a channel message they are not subscribed to keeps it as history.
        historical: recipient.kind === 'channel' && userId === sender.id && !recipientIds.includes(userId),
      })),
    });
    if (recipient.kind === 'channel' && recipient.channel.firstMessageId == null) {
      await tx.channel.updateMany({ where: { id: recipient.channel.id, firstMessageId: null }, data: { firstMessageId: created.id } });
    }
    return created;
  });

  const deliverTo = [...new Set([...recipientIds, sender.id])];
  await publishMessageEvent(ctx, message.id, deliverTo);
  return { id: message.id, recipientUserIds: deliverTo };
}

/** The `message` event: each recipient's copy carries its own flags. */
async function publishMessageEvent(ctx: Context, messageId: number, userIds: number[]): Promise<void> {
  const [view] = await presentMessages(ctx.db, ctx.realm, null, [messageId], { applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: true });
  if (!view) return;
  const rows = await ctx.db.userMessage.findMany({ where: { messageId } });
  const flagsByUser: Record<number, string[]> = {};
  for (const row of rows) {
    flagsByUser[row.userId] = Object.entries(FLAG_COLUMNS).filter(([, col]) => (row as any)[col]).map(([name]) => name);
  }
  ctx.events.publish(ctx.realm.id, userIds, { type: 'message', message: view, flags_by_user: flagsByUser });
}
