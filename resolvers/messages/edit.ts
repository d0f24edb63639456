// Editing a message's content, and moving it (and, by propagate mode, its neighbours) to another
// topic or channel, with Zulip's edit history.
import { createHash } from 'node:crypto';
import type { Channel, Message } from '../../prisma/generated/client/client.ts';
import type { UpdateMessageEvent } from './events.ts';
import type { Prisma, Realm, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, PermissionDeniedError } from '../errors.ts';
import { isUserInGroup } from '../groups/membership.ts';
import { hasContentAccess, historyIsPublicTo, usersWithReadableHistory } from '../channels/access.ts';
import { toUnixSeconds } from '../time.ts';
import { exactInsensitive } from '../rows.ts';
import { isModerator } from '../users/roles.ts';
import { accessMessage, messageAudience, messageFlagsByUser } from './access.ts';
import { announceFirstMessageIds, recomputeFirstMessageId, type FirstMessageChange } from '../channels/first-message.ts';
import { checkSendGroup, normalizeContent } from './send.ts';
import { renderForRealm, topicLinksForRealm } from './render.ts';
import { announceUpdates, applyAttachmentChange, planAttachmentChange, type AttachmentChange } from '../uploads/attachments.ts';
import { checkGroupMentionsAllowed } from '../groups/mention.ts';
import { checkWildcardMentionsAllowed, topicParticipantIds } from './wildcard-mentions.ts';
import { RESOLVED_TOPIC_PREFIX, checkTopicAllowed, normalizeTopic } from './topics.ts';
import { inTransaction, onCommit, type TxContext } from '../transaction.ts';
import { isMentioned, mentionsIn, type MentionFlags } from './mention-flags.ts';
import { flagList } from './flags.ts';
import { sendAsNotificationBot } from './internal-send.ts';
import { removeMessage } from './delete.ts';
import { notificationBot } from '../users/system-bots.ts';
import { messageUrl, silentMention, topicLinkSyntax } from '../scheduled/links.ts';
import { realmUrl } from '../realm/urls.ts';
import { attachmentRecord, type AttachmentRecord } from '../uploads/events.ts';
import { moveTopicPolicies } from '../topics/moves.ts';
import { TOPIC_POLICY } from '../topics/policies.ts';
import { effectiveSettings } from '../settings/catalog.ts';

export interface EditInput {
  content?: string | null;
  topic?: string | null;
  streamId?: number | null;
  propagateMode?: string | null;
  /** Post a notice in the topic the messages left (Zulip's default: no). */
  sendNotificationToOldThread?: boolean | null;
  /** Post a notice in the topic they moved to (Zulip's default: yes; never for a resolve). */
  sendNotificationToNewThread?: boolean | null;
  /** SHA-256 of the content the client edited; refused if the message changed since. */
  prevContentSha256?: string | null;
}

const PROPAGATE_MODES = new Set(['change_one', 'change_later', 'change_all']);

/** Zulip's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS (its default): an undo this soon takes the notice back. */
const RESOLVE_TOPIC_UNDO_GRACE_SECS = 60;

const resolveNotice = (who: string, resolution: 'resolved' | 'unresolved') => `${who} has marked this topic as ${resolution}.`;
/** What resolveNotice writes, whoever resolved or unresolved the topic. */
const RESOLVE_NOTICE = /^@_\*\*.*\|\d+\*\* has marked this topic as (?:un)?resolved\.$/s;

function withinLimit(message: Message, limitSeconds: number | null): boolean {
  return limitSeconds == null || Date.now() - message.dateSent.getTime() <= limitSeconds * 1000;
}

async function checkCanMove(ctx: Context, user: User, message: Message, channel: Channel, targetChannelId: number | null, topicChanged: boolean, resolveOnly = false) {
  const realm = ctx.realm;
  if (topicChanged && resolveOnly) {
    // Resolving or unresolving is its own permission (can_resolve_topics_group of the organization
    // or the channel), without the time limit of topic moves.
    const allowed = (await isUserInGroup(ctx.db, user, realm.canResolveTopicsGroupId))
      || (await isUserInGroup(ctx.db, user, channel.canResolveTopicsGroupId));
    if (!allowed) throw new PermissionDeniedError("You don't have permission to edit this message");
  } else if (topicChanged) {
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

/**
 * Zulip's validate_user_can_edit_message: only the sender edits content, while the organization
 * allows editing and within its time limit. Also what one may announce editing of (typing).
 */
export function checkCanEditContent(realm: Realm, user: User, message: Message): void {
  if (!realm.allowMessageEditing) throw new BadRequestError('Your organization has turned off message editing');
  if (message.senderId !== user.id) throw new PermissionDeniedError("You don't have permission to edit this message");
  if (!withinLimit(message, realm.messageContentEditLimitSeconds)) {
    throw new BadRequestError('The time limit for editing this message has passed');
  }
}

/** What an edit will do, decided before its transaction from the message as first read. */
interface EditPlan {
  message: Message;
  propagateMode: string;
  content: { text: string; rendered: Awaited<ReturnType<typeof renderForRealm>>; attachments: AttachmentChange; prevSha256: string | null } | null;
  /** The message's channel, for moves. */
  channel: Channel | null;
  newTopic: string | null;
  targetChannel: Channel | null;
  /** Only resolving or unresolving the topic (Zulip's topic_resolved / topic_unresolved). */
  resolution: 'resolved' | 'unresolved' | null;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** What the transaction did, for its events and notifications. */
interface EditOutcome {
  original: Message;
  ids: number[];
  audienceBefore: number[];
  access: { losing: number[]; gaining: number[] } | null;
  firstMessages: (FirstMessageChange | null)[];
  /**
   * A move left none of the topic's messages the mover can read behind (Zulip's
   * moved_all_visible_messages): the topic as a whole moved, its visibility policies with it.
   */
  allMoved: boolean;
  /** Who followed the topic before it moved as a whole, its policies with it (null for other edits). */
  originalFollowers: Set<number> | null;
  /**
   * A content edit's new mentions: who had none before, the group that reached those only a group
   * mention reached, and every recipient's flags after the edit (for the event, read once).
   */
  newMentions: { userIds: number[]; mentionGroupOf: Map<number, number>; flagsByUser: Record<number, string[]> } | null;
}

export interface EditResult {
  /** The editor's uploads no message links any more (Zulip's detached_uploads). */
  detachedUploads: AttachmentRecord[];
}

export async function editMessage(ctx: Context, user: User, messageId: number, input: EditInput): Promise<EditResult> {
  const plan = await planEdit(ctx, user, messageId, input);
  return inTransaction(ctx, async (tx) => {
    const outcome = await applyEdit(tx, user, plan);
    await publishEdit(tx, user, plan, outcome);
    if (plan.channel && (plan.newTopic != null || plan.targetChannel)) await sendMoveNotifications(tx, user, plan, outcome);
    return { detachedUploads: plan.content ? await detachedUploads(tx, user, plan.content.attachments.drop) : [] };
  }, { timeout: 60_000 });
}

/** Zulip's validate_message_edit_payload, build_message_edit_request and the permission checks. */
async function planEdit(ctx: Context, user: User, messageId: number, input: EditInput): Promise<EditPlan> {
  const { message } = await accessMessage(ctx.db, user, messageId, { modifying: true });
  const realm = ctx.realm;
  if (input.content == null && input.topic == null && input.streamId == null) {
    throw new BadRequestError('Nothing to change');
  }
  const propagateMode = input.propagateMode ?? 'change_one';
  if (!PROPAGATE_MODES.has(propagateMode)) throw new BadRequestError('Invalid propagate_mode');
  if (input.content != null && propagateMode !== 'change_one' && input.topic == null && input.streamId == null) {
    throw new BadRequestError('Invalid propagate_mode without topic edit');
  }
  const plan: EditPlan = {
    message, propagateMode, content: null, channel: null, newTopic: null, targetChannel: null, resolution: null,
    notifyOldThread: input.sendNotificationToOldThread ?? false,
    notifyNewThread: input.sendNotificationToNewThread ?? true,
  };

  if (input.content != null) {
    checkCanEditContent(realm, user, message);
    const text = normalizeContent(input.content);
    const rendered = await renderForRealm(ctx.db, realm.id, text);
    await checkGroupMentionsAllowed(ctx.db, user, rendered.mentionedGroupIds, false);
    if (message.channelId != null) {
      const channelId = message.channelId;
      // Only the sender edits content, so the sender's permission is the one checked (as in Zulip).
      await checkWildcardMentionsAllowed(ctx.db, realm, user, {
        stream: rendered.wildcardMention === 'stream',
        topic: rendered.mentionsTopicWildcard,
        subscriberCount: rendered.wildcardMention === 'stream'
          ? await ctx.db.subscription.count({ where: { channelId, active: true, isUserActive: true } })
          : 0,
        topicParticipants: () => topicParticipantIds(ctx.db, channelId, message.topic),
      });
    }
    const attachments = await planAttachmentChange(ctx, user, messageId, rendered.potentialAttachmentPathIds);
    plan.content = { text, rendered, attachments, prevSha256: input.prevContentSha256 ?? null };
  }

  // Topic and channel moves apply to channel messages only.
  if (input.topic != null || input.streamId != null) {
    if (message.channelId == null) throw new BadRequestError('Direct messages cannot have topics.');
    const channel = await ctx.db.channel.findUniqueOrThrow({ where: { id: message.channelId } });
    plan.channel = channel;
    if (input.topic != null) {
      const topic = normalizeTopic(input.topic, realm);
      if (topic !== message.topic) plan.newTopic = topic;
    }
    if (input.streamId != null && input.streamId !== channel.id) {
      const target = await ctx.db.channel.findFirst({ where: { id: input.streamId, realmId: realm.id } });
      // Zulip's access_stream_by_id_for_message: the same answer for missing, unreadable and
      // archived targets.
      if (!target || target.isArchived || !(await hasContentAccess(ctx.db, user, target))) throw new BadRequestError('Invalid channel ID');
      // Of posting's checks, only can_send_message_group applies to a move (check_update_message).
      await checkSendGroup(ctx, user, target);
      plan.targetChannel = target;
    }
    const resolveOnly = plan.newTopic != null && !plan.targetChannel && resolution(message.topic, plan.newTopic) !== null;
    await checkCanMove(ctx, user, message, channel, plan.targetChannel?.id ?? null, plan.newTopic != null, resolveOnly);
    checkTopicAllowed(plan.newTopic ?? message.topic, plan.targetChannel ?? channel, realm);
    if (plan.newTopic != null && !plan.targetChannel) plan.resolution = resolution(message.topic, plan.newTopic);
  }
  // The topic and channel it already has are no change (Zulip drops them before this check).
  if (!plan.content && plan.newTopic == null && !plan.targetChannel) throw new BadRequestError('Nothing to change');
  return plan;
}

function resolution(oldTopic: string, newTopic: string): EditPlan['resolution'] {
  if (newTopic === RESOLVED_TOPIC_PREFIX + oldTopic) return 'resolved';
  if (oldTopic === RESOLVED_TOPIC_PREFIX + newTopic) return 'unresolved';
  return null;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Locks the affected messages, then writes each one's change and its edit-history entry. */
async function applyEdit(tx: TxContext<Context>, user: User, plan: EditPlan): Promise<EditOutcome> {
  const { message, content, channel, newTopic, targetChannel } = plan;
  const now = new Date();
  const moving = newTopic != null || targetChannel != null;
  let ids = [message.id];
  if (moving && plan.propagateMode !== 'change_one') {
    const siblings = await tx.db.message.findMany({
      where: {
        channelId: channel!.id,
        topic: exactInsensitive(message.topic),
        ...(plan.propagateMode === 'change_later' ? { id: { gte: message.id } } : {}),
      },
      select: { id: true },
    });
    ids = siblings.map((s) => s.id);
  }
  // Each edit reads a message's history and writes it back with one more entry: concurrent edits
  // take turns on the rows (in id order, so two moves cannot deadlock), and none is lost.
  await tx.tx.$queryRaw`SELECT id FROM "Message" WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`;
  const audienceBefore = await messageAudience(tx.db, message.id);
  // A move to another channel changes who may read the messages: Zulip removes them from users
  // who cannot read the new channel and gives them to its subscribers.
  const access = targetChannel ? await accessAfterMove(tx, targetChannel, ids) : null;
  if (access?.losing.length) await tx.db.userMessage.deleteMany({ where: { messageId: { in: ids }, userId: { in: access.losing } } });
  if (access?.gaining.length) {
    await tx.db.userMessage.createMany({
      data: access.gaining.flatMap((userId) => ids.map((messageId) => ({ userId, messageId, read: true }))),
      skipDuplicates: true,
    });
  }

  let original = message;
  let newMentions: EditOutcome['newMentions'] = null;
  for (const id of ids) {
    const current = await tx.db.message.findUniqueOrThrow({ where: { id } });
    const entry: Record<string, unknown> = { user_id: user.id, timestamp: toUnixSeconds(now) };
    const data: Prisma.MessageUpdateInput = {};
    if (id === message.id) {
      original = current;
      // The client edited the content it saw; if another edit landed since, it would overwrite it.
      if (content?.prevSha256 != null && content.prevSha256 !== sha256(current.content)) {
        throw new BadRequestError("'prev_content_sha256' value does not match the expected value.");
      }
      if (content && content.text !== current.content) {
        entry.prev_content = current.content;
        entry.prev_rendered_content = current.renderedContent;
        Object.assign(data, {
          content: content.text, renderedContent: content.rendered.html, isMeMessage: content.rendered.isMeMessage,
          hasLink: content.rendered.hasLink, hasImage: content.rendered.hasImage, hasAttachment: content.attachments.hasAttachment,
          lastEditTime: now,
        });
        await applyAttachmentChange(tx.tx, id, content.attachments);
        newMentions = await updateMentionFlags(tx, user, current, content);
      }
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
    if ((newTopic != null && resolution(current.topic, newTopic) == null) || targetChannel) data.lastMovedTime = now;
    const history = Array.isArray(current.editHistory) ? (current.editHistory as unknown[]) : [];
    data.editHistory = [entry, ...history] as Prisma.InputJsonValue;
    await tx.db.message.update({ where: { id }, data });
  }
  const firstMessages = targetChannel
    ? [await recomputeFirstMessageId(tx.tx, channel!.id), await recomputeFirstMessageId(tx.tx, targetChannel.id)]
    : [];
  const allMoved = moving && (plan.propagateMode === 'change_all' || !(await visibleMessagesRemain(tx, user, channel!, message.topic, [])));
  const destination = targetChannel ?? channel!;
  const toTopic = newTopic ?? message.topic;
  // Read after the move, so only for a topic moved as a whole: what the destination held besides the moved messages.
  const originalFollowers = allMoved
    ? await moveTopicPolicies(tx, {
      fromChannelId: channel!.id, fromTopic: message.topic, toChannelId: destination.id, toTopic,
      targetHadMessages: (await tx.db.message.findFirst({ where: { channelId: destination.id, topic: exactInsensitive(toTopic), id: { notIn: ids } }, select: { id: true } })) != null,
      losingAccess: new Set(access?.losing),
    })
    : null;
  return { original, ids, audienceBefore, access, firstMessages, allMoved, originalFollowers, newMentions };
}

/**
 * Zulip's update_user_message_flags: every recipient's mention and alert-word flags follow the new
 * content. Answers who is mentioned now and was not before (not those who have it as history only).
 */
async function updateMentionFlags(tx: TxContext<Context>, author: User, message: Message, content: NonNullable<EditPlan['content']>): Promise<EditOutcome['newMentions']> {
  const mentions = await mentionsIn(tx.db, tx.realm.id, author.id, content.rendered, content.text,
    message.channelId != null ? { channelId: message.channelId, topic: message.topic } : null);
  const rows = await tx.db.userMessage.findMany({ where: { messageId: message.id } });
  const changed: ({ userId: number } & MentionFlags)[] = [];
  const userIds: number[] = [];
  const flagsByUser: Record<number, string[]> = {};
  for (const row of rows) {
    const next = mentions.flagsFor(row.userId);
    flagsByUser[row.userId] = flagList({ ...row, ...next });
    if (next.mentioned === row.mentioned && next.streamWildcardMentioned === row.streamWildcardMentioned
      && next.topicWildcardMentioned === row.topicWildcardMentioned && next.hasAlertWord === row.hasAlertWord) continue;
    changed.push({ userId: row.userId, ...next });
    if (!row.historical && !isMentioned(row) && isMentioned(next)) userIds.push(row.userId);
  }
  if (changed.length) {
    await tx.tx.$executeRaw`
      UPDATE "UserMessage" um SET mentioned = c.mentioned, "streamWildcardMentioned" = c.swm, "topicWildcardMentioned" = c.twm, "hasAlertWord" = c.alert
      FROM unnest(${changed.map((c) => c.userId)}::int[], ${changed.map((c) => c.mentioned)}::bool[], ${changed.map((c) => c.streamWildcardMentioned)}::bool[],
        ${changed.map((c) => c.topicWildcardMentioned)}::bool[], ${changed.map((c) => c.hasAlertWord)}::bool[]) AS c(user_id, mentioned, swm, twm, alert)
      WHERE um."messageId" = ${message.id}::int AND um."userId" = c.user_id`;
  }
  return { userIds, mentionGroupOf: mentions.mentionGroupOf, flagsByUser };
}

/** update_message to everyone who had or now has the message; delete_message to those who lost it. */
async function publishEdit(tx: TxContext<Context>, user: User, plan: EditPlan, outcome: EditOutcome): Promise<void> {
  const { message, content, channel, newTopic, targetChannel } = plan;
  const { original, ids, access } = outcome;
  const realmId = tx.realm.id;
  const event: UpdateMessageEvent = {
    type: 'update_message',
    user_id: user.id,
    edit_timestamp: toUnixSeconds(new Date()),
    message_id: message.id,
    message_ids: ids,
    flags: [],
    // Each user's flags on the edited message after the edit (mentions may have changed).
    // (A content edit read them already; nothing changes the rows after it.)
    flags_by_user: outcome.newMentions?.flagsByUser ?? await messageFlagsByUser(tx.db, message.id),
    rendering_only: false,
  };
  if (content) {
    Object.assign(event, {
      orig_content: original.content, orig_rendered_content: original.renderedContent,
      content: content.text, rendered_content: content.rendered.html, is_me_message: content.rendered.isMeMessage,
    });
  }
  if (newTopic != null || targetChannel) {
    Object.assign(event, { stream_id: channel!.id, orig_subject: message.topic, propagate_mode: plan.propagateMode });
    if (newTopic != null) {
      event.subject = newTopic;
      event.topic_links = await topicLinksForRealm(tx.db, realmId, newTopic);
    }
    if (targetChannel) event.new_stream_id = targetChannel.id;
  }
  if (access?.losing.length) {
    tx.events.publish(realmId, access.losing, {
      type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: channel!.id, topic: message.topic,
    });
  }
  const audience = new Set(outcome.audienceBefore.filter((id) => !access?.losing.includes(id)));
  if (targetChannel) for (const id of await messageAudience(tx.db, message.id)) audience.add(id);
  tx.events.publish(realmId, [...audience], event);
  await announceFirstMessageIds(tx, outcome.firstMessages);
  if (content) {
    await announceUpdates(tx, [...content.attachments.add, ...content.attachments.drop]);
    tx.thumbnails?.recheck(content.attachments.add);
  }
  // Those an edit newly mentions in a channel may be told by e-mail (not of direct messages: they were told of the message).
  const missedMessageEmails = tx.missedMessageEmails;
  if (missedMessageEmails && outcome.newMentions?.userIds.length && message.channelId != null) {
    const { userIds, mentionGroupOf } = outcome.newMentions;
    const channelId = targetChannel?.id ?? message.channelId;
    const topic = newTopic ?? message.topic;
    onCommit(tx, () => missedMessageEmails.consider({
      realmId, messageId: message.id, senderId: user.id, channelId, topic, flaggedUserIds: userIds, mentionGroupOf, edit: true,
    }));
  }
}


/**
 * Zulip's notification-bot messages about a move: "marked this topic as resolved" for a resolve,
 * breadcrumbs in the old and new topics (send_notification_to_old_thread / _new_thread) for a move.
 */
async function sendMoveNotifications(tx: TxContext<Context>, user: User, plan: EditPlan, outcome: EditOutcome): Promise<void> {
  const { message, channel } = plan;
  const target = plan.targetChannel ?? channel!;
  const newTopic = plan.newTopic ?? message.topic;
  const who = silentMention(user);
  const emptyTopicName = tx.realm.emptyTopicDisplayName;
  let resolveNoticeId: number | null = null;
  // Zulip announces a resolve made alone: one that edits the content too sends no notice.
  if (plan.resolution && !plan.content && !(await deletedPreviousResolveNotice(tx, target, newTopic))) {
    const unreadFor = await resolveNoticeUnreadFor(tx, target, newTopic, outcome.originalFollowers);
    resolveNoticeId = (await sendAsNotificationBot(tx, { channelId: target.id, topic: newTopic },
      resolveNotice(who, plan.resolution), { unreadFor, actingUserId: user.id })).id;
  }
  const count = outcome.ids.length;
  const { allMoved } = outcome;
  const oldLocation = topicLinkSyntax(channel!.id, channel!.name, message.topic, emptyTopicName);
  const newLocation = topicLinkSyntax(target.id, target.name, newTopic, emptyTopicName);
  if (plan.notifyNewThread && !plan.resolution) {
    const noEarlier = !(await visibleMessagesRemain(tx, user, target, newTopic, [...outcome.ids, ...(resolveNoticeId ? [resolveNoticeId] : [])]));
    const link = messageUrl(realmUrl(tx.realm, tx.config), { id: message.id, channelId: target.id, topic: newTopic }, target.name, []);
    const text = noEarlier && allMoved
      ? `This topic was moved here from ${oldLocation} by ${who}.`
      : count === 1
        ? `[A message](${link}) was moved here from ${oldLocation} by ${who}.`
        : `${count} messages were moved here from ${oldLocation} by ${who}.`;
    await sendAsNotificationBot(tx, { channelId: target.id, topic: newTopic }, text, { actingUserId: user.id });
  }
  if (plan.notifyOldThread) {
    const text = allMoved
      ? `This topic was moved to ${newLocation} by ${who}.`
      : count === 1
        ? `A message was moved from this topic to ${newLocation} by ${who}.`
        : `${count} messages were moved from this topic to ${newLocation} by ${who}.`;
    await sendAsNotificationBot(tx, { channelId: channel!.id, topic: message.topic }, text, { actingUserId: user.id });
  }
}

/**
 * Zulip's maybe_delete_previous_resolve_topic_notification: resolving or unresolving a topic soon
 * after the last resolve or unresolve (an undo, the notice now the topic's last message) deletes
 * that notice rather than adding another. Messages carry no type in Parley: a resolve notice is
 * the notification bot's message of resolveNotice's form, which only the server sends.
 */
async function deletedPreviousResolveNotice(tx: TxContext<Context>, channel: Channel, topic: string): Promise<boolean> {
  const last = await tx.db.message.findFirst({ where: { channelId: channel.id, topic: exactInsensitive(topic) }, orderBy: { id: 'desc' } });
  if (!last || !RESOLVE_NOTICE.test(last.content) || last.senderId !== (await notificationBot(tx.db, tx.realm.id)).id) return false;
  if (Date.now() - last.dateSent.getTime() > RESOLVE_TOPIC_UNDO_GRACE_SECS * 1000) return false;
  await removeMessage(tx, last);
  return true;
}

/**
 * Zulip's get_unread_user_ids_for_resolved_topic_notifications: the channel's subscribers (people,
 * not bots) who keep a resolve or unresolve notice unread, by their
 * resolved_topic_notice_auto_read_policy: with "never" all of them, with "except_followed" those
 * following the topic. Its followers are those from before the move where the topic moved as a
 * whole (their policies moved with it), else those of the topic the notice goes to.
 */
async function resolveNoticeUnreadFor(tx: TxContext<Context>, channel: Channel, topic: string, originalFollowers: Set<number> | null): Promise<number[]> {
  const subscribers = await tx.db.subscription.findMany({
    where: { channelId: channel.id, active: true, isUserActive: true, user: { isBot: false } },
    select: { userId: true, user: { select: { settings: true } } },
  });
  const followers = originalFollowers ?? new Set((await tx.db.userTopic.findMany({
    where: { channelId: channel.id, topicName: exactInsensitive(topic), visibilityPolicy: TOPIC_POLICY.FOLLOWED }, select: { userId: true },
  })).map((row) => row.userId));
  return subscribers.filter(({ userId, user }) => {
    const policy = effectiveSettings(user, tx.realm).resolved_topic_notice_auto_read_policy;
    return policy === 'never' || (policy === 'except_followed' && followers.has(userId));
  }).map(({ userId }) => userId);
}

/** Whether the topic still holds messages (other than `except`) that the user can read. */
async function visibleMessagesRemain(tx: TxContext<Context>, user: User, channel: Channel, topic: string, except: number[]): Promise<boolean> {
  const where: Prisma.MessageWhereInput = { channelId: channel.id, topic: exactInsensitive(topic), id: { notIn: except } };
  // Where history is not shared, only the messages the user received count: the notice must not
  // reveal older ones they cannot read.
  if (!(await historyIsPublicTo(tx.db, channel, user))) {
    where.userMessages = { some: { userId: user.id } };
  }
  return (await tx.db.message.findFirst({ where, select: { id: true } })) != null;
}

/** The editor's uploads that the edit left linked by no message. */
async function detachedUploads(tx: TxContext<Context>, user: User, dropped: number[]): Promise<AttachmentRecord[]> {
  if (!dropped.length) return [];
  const rows = await tx.db.attachment.findMany({ where: { id: { in: dropped }, ownerId: user.id, messages: { none: {} } } });
  return rows.map((row) => attachmentRecord(row, []));
}

/** Who loses and who gains UserMessage rows when messages move into `target`. */
async function accessAfterMove(ctx: TxContext<Context>, target: Channel, messageIds: number[]): Promise<{ losing: number[]; gaining: number[] }> {
  const [holders, subscribers] = await Promise.all([
    ctx.db.userMessage.findMany({ where: { messageId: { in: messageIds } }, select: { userId: true }, distinct: ['userId'] }),
    ctx.db.subscription.findMany({ where: { channelId: target.id, active: true, isUserActive: true }, select: { userId: true } }),
  ]);
  const subscribed = new Set(subscribers.map((s) => s.userId));
  const holderIds = holders.map((h) => h.userId);
  const users = await ctx.db.user.findMany({ where: { id: { in: holderIds } } });
  const readers = await usersWithReadableHistory(ctx.db, target, users, new Set());
  const losing = users.filter((u) => !subscribed.has(u.id) && !readers.has(u.id)).map((u) => u.id);
  const holding = new Set(holderIds);
  const gaining = [...subscribed].filter((id) => !holding.has(id));
  return { losing, gaining };
}
