// Editing a message's content, and moving it (and, by propagate mode, its neighbours) to another
// topic or channel, with Zulip's edit history.
import type { Channel, Message } from '../../prisma/generated/client/client.ts';
import type { UpdateMessageEvent } from './events.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError, StreamDoesNotExistError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { hasContentAccess, historyIsPublicTo, isSubscribed } from '../channels/access.ts';
import { toUnixSeconds, exactInsensitive } from '../text.ts';
import { isModerator } from '../users/roles.ts';
import { accessMessage, messageAudience } from './access.ts';
import { announceFirstMessageIds, recomputeFirstMessageId, type FirstMessageChange } from '../channels/first-message.ts';
import { checkCanPost, normalizeContent } from './send.ts';
import { renderForRealm, topicLinksForRealm } from './render.ts';
import { checkGroupMentionsAllowed } from '../groups/mention.ts';
import { RESOLVED_TOPIC_PREFIX, checkTopicAllowed, normalizeTopic } from './topics.ts';

export interface EditInput {
  content?: string | null;
  topic?: string | null;
  streamId?: number | null;
  propagateMode?: string | null;
}

const PROPAGATE_MODES = new Set(['change_one', 'change_later', 'change_all']);

function withinLimit(message: Message, limitSeconds: number | null): boolean {
  return limitSeconds == null || Date.now() - message.dateSent.getTime() <= limitSeconds * 1000;
}

async function checkCanMove(ctx: Context, user: User, message: Message, channel: Channel, targetChannelId: number | null, topicChanged: boolean) {
  const realm = ctx.realm;
  if (topicChanged) {
    const allowed = message.senderId === user.id
      || (await isUserInGroup(ctx.db, user, realm.canMoveMessagesBetweenTopicsGroupId))
      || (await isUserInGroup(ctx.db, user, channel.canMoveMessagesWithinChannelGroupId));
    if (!allowed) throw new PermissionDeniedError("You don't have permission to edit this message");
    if (!isModerator(user) && !withinLimit(message, realm.moveMessagesWithinStreamLimitSeconds)) {
      throw new BadRequestError('The time limit for editing this message\'s topic has passed.');
    }
  }
  if (targetChannelId != null) {
    const allowed = (await isUserInGroup(ctx.db, user, realm.canMoveMessagesBetweenChannelsGroupId))
      || (await isUserInGroup(ctx.db, user, channel.canMoveMessagesOutOfChannelGroupId));
    if (!allowed) throw new PermissionDeniedError("You don't have permission to move this message");
    if (!isModerator(user) && !withinLimit(message, realm.moveMessagesBetweenStreamsLimitSeconds)) {
      throw new BadRequestError('The time limit for editing this message\'s channel has passed.');
    }
  }
}

export async function editMessage(ctx: Context, user: User, messageId: number, input: EditInput): Promise<void> {
  const { message } = await accessMessage(ctx.db, user, messageId);
  const realm = ctx.realm;
  if (input.content == null && input.topic == null && input.streamId == null) {
    throw new BadRequestError('Nothing to change');
  }
  const propagateMode = input.propagateMode ?? 'change_one';
  if (!PROPAGATE_MODES.has(propagateMode)) throw new BadRequestError('Invalid propagate_mode');
  if (input.content != null && propagateMode !== 'change_one' && input.topic == null && input.streamId == null) {
    throw new BadRequestError('Invalid propagate_mode without topic edit');
  }

  // Content.
  let newContent: string | null = null;
  let rendered: Awaited<ReturnType<typeof renderForRealm>> | null = null;
  if (input.content != null) {
    if (!realm.allowMessageEditing) throw new BadRequestError('Your organization has turned off message editing');
    if (message.senderId !== user.id) throw new PermissionDeniedError("You don't have permission to edit this message");
    if (!withinLimit(message, realm.messageContentEditLimitSeconds)) {
      throw new BadRequestError('The time limit for editing this message has passed');
    }
    newContent = normalizeContent(input.content);
    rendered = await renderForRealm(ctx.db, realm.id, newContent);
    await checkGroupMentionsAllowed(ctx.db, user, rendered.mentionedGroupIds, false);
  }

  // Topic and channel moves apply to channel messages only.
  let channel: Channel | null = null;
  let newTopic: string | null = null;
  let targetChannel: Channel | null = null;
  if (input.topic != null || input.streamId != null) {
    if (message.channelId == null) throw new BadRequestError('Direct messages cannot have topics.');
    channel = await ctx.db.channel.findUniqueOrThrow({ where: { id: message.channelId } });
    if (input.topic != null) {
      newTopic = normalizeTopic(input.topic, realm);
      if (newTopic === message.topic) newTopic = null;
    }
    if (input.streamId != null && input.streamId !== channel.id) {
      targetChannel = await ctx.db.channel.findFirst({ where: { id: input.streamId, realmId: realm.id } });
      if (!targetChannel || !(await hasContentAccess(ctx.db, user, targetChannel))) throw StreamDoesNotExistError.byId(input.streamId);
      if (targetChannel.isArchived) throw new BadRequestError('Invalid channel ID');
      // Moving messages into a channel is posting there.
      await checkCanPost(ctx, user, targetChannel, await isSubscribed(ctx.db, user.id, targetChannel.id));
    }
    await checkCanMove(ctx, user, message, channel, targetChannel?.id ?? null, newTopic != null);
    checkTopicAllowed(newTopic ?? message.topic, targetChannel ?? channel, realm);
  }

  const now = new Date();
  const audienceBefore = await messageAudience(ctx.db, messageId);
  const moving = newTopic != null || targetChannel != null;
  let ids = [messageId];
  if (moving && propagateMode !== 'change_one') {
    const siblings = await ctx.db.message.findMany({
      where: {
        channelId: channel!.id,
        topic: exactInsensitive(message.topic),
        ...(propagateMode === 'change_later' ? { id: { gte: messageId } } : {}),
      },
      select: { id: true },
    });
    ids = siblings.map((s) => s.id);
  }
  // A move to another channel changes who may read the messages: Zulip removes them from users
  // who cannot read the new channel and gives them to its subscribers.
  const access = targetChannel ? await accessAfterMove(ctx, targetChannel, ids) : null;
  const firstMessages: (FirstMessageChange | null)[] = [];
  const movedIds = await ctx.db.$transaction(async (tx) => {
    if (access) {
      if (access.losing.length) await tx.userMessage.deleteMany({ where: { messageId: { in: ids }, userId: { in: access.losing } } });
      if (access.gaining.length) {
        await tx.userMessage.createMany({
          data: access.gaining.flatMap((userId) => ids.map((messageId) => ({ userId, messageId, read: true }))),
          skipDuplicates: true,
        });
      }
    }
    for (const id of ids) {
      const current = id === messageId ? message : await tx.message.findUniqueOrThrow({ where: { id } });
      const entry: Record<string, unknown> = { user_id: user.id, timestamp: toUnixSeconds(now) };
      const data: Prisma.MessageUpdateInput = {};
      if (id === messageId && newContent != null && newContent !== current.content) {
        entry.prev_content = current.content;
        entry.prev_rendered_content = current.renderedContent;
        data.content = newContent;
        data.renderedContent = rendered!.html;
        data.isMeMessage = rendered!.isMeMessage;
        data.hasLink = rendered!.hasLink;
        data.hasImage = rendered!.hasImage;
        data.hasAttachment = rendered!.hasAttachment;
        data.lastEditTime = now;
      }
      if (newTopic != null) {
        entry.prev_topic = current.topic;
        entry.topic = newTopic;
        data.topic = newTopic;
      }
      if (targetChannel) {
        entry.prev_stream = current.channelId;
        entry.stream = targetChannel.id;
        data.channel = { connect: { id: targetChannel.id } };
      }
      if (Object.keys(data).length === 0) continue;
      // Resolving or unresolving a topic is not a move (Zulip leaves last_moved_timestamp alone).
      const onlyResolve = newTopic != null && !targetChannel
        && (newTopic === RESOLVED_TOPIC_PREFIX + current.topic || current.topic === RESOLVED_TOPIC_PREFIX + newTopic);
      if ((newTopic != null || targetChannel) && !onlyResolve) data.lastMovedTime = now;
      const history = Array.isArray(current.editHistory) ? (current.editHistory as unknown[]) : [];
      data.editHistory = [entry, ...history] as Prisma.InputJsonValue;
      await tx.message.update({ where: { id }, data });
    }
    if (targetChannel) {
      firstMessages.length = 0;
      for (const c of [channel!, targetChannel]) firstMessages.push(await recomputeFirstMessageId(tx, c.id));
    }
    return ids;
  });

  const event: UpdateMessageEvent = {
    type: 'update_message',
    user_id: user.id,
    edit_timestamp: toUnixSeconds(now),
    message_id: messageId,
    message_ids: movedIds,
    flags: [],
    rendering_only: false,
  };
  if (newContent != null) {
    Object.assign(event, {
      orig_content: message.content, orig_rendered_content: message.renderedContent,
      content: newContent, rendered_content: rendered!.html, is_me_message: rendered!.isMeMessage,
    });
  }
  if (moving) {
    Object.assign(event, { stream_id: channel!.id, orig_subject: message.topic, propagate_mode: propagateMode });
    if (newTopic != null) {
      event.subject = newTopic;
      event.topic_links = await topicLinksForRealm(ctx.db, realm.id, newTopic);
    }
    if (targetChannel) event.new_stream_id = targetChannel.id;
  }
  if (access?.losing.length) {
    ctx.events.publish(realm.id, access.losing, {
      type: 'delete_message', message_ids: movedIds, message_type: 'stream', stream_id: channel!.id, topic: message.topic,
    });
  }
  const audience = new Set(audienceBefore.filter((id) => !access?.losing.includes(id)));
  if (targetChannel) for (const id of await messageAudience(ctx.db, messageId)) audience.add(id);
  ctx.events.publish(realm.id, [...audience], event);
  await announceFirstMessageIds(ctx, firstMessages);
}

/** Who loses and who gains UserMessage rows when messages move into `target`. */
async function accessAfterMove(ctx: Context, target: Channel, messageIds: number[]): Promise<{ losing: number[]; gaining: number[] }> {
  const [holders, subscribers] = await Promise.all([
    ctx.db.userMessage.findMany({ where: { messageId: { in: messageIds } }, select: { userId: true }, distinct: ['userId'] }),
    ctx.db.subscription.findMany({ where: { channelId: target.id, active: true, isUserActive: true }, select: { userId: true } }),
  ]);
  const subscribed = new Set(subscribers.map((s) => s.userId));
  const holderIds = holders.map((h) => h.userId);
  const users = await ctx.db.user.findMany({ where: { id: { in: holderIds } } });
  const losing = users.filter((u) => !subscribed.has(u.id) && !historyIsPublicTo(target, u, false)).map((u) => u.id);
  const holding = new Set(holderIds);
  const gaining = [...subscribed].filter((id) => !holding.has(id));
  return { losing, gaining };
}
