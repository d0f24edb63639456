// Reporting a message: a notice from the notification bot in the organization's moderation request
// channel. Zulip's zerver/views/message_report.py and zerver/lib/message_report.py.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { accessMessage } from '../messages/access.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import { MAX_MESSAGE_LENGTH } from '../limits.ts';
import { realmUrl } from '../realm/urls.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';
import { formatList, globalTime, messageLinkSyntax, messageUrl, silentMention, unusedFence } from '../scheduled/links.ts';

/** `POST /messages/{id}/report` reasons, as `server_report_message_types` lists them. */
export const REPORT_MESSAGE_TYPES: { key: string; name: string }[] = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
];

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Room left for the reported message once the header and description are in. */
const MAX_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

export interface ReportInput {
  messageId: number;
  reportType: string;
  description?: string | null;
}

export async function reportMessage(ctx: Context, reporter: User, input: ReportInput): Promise<number> {
  const description = input.description ?? '';
  if (codePointLength(description) > MAX_REPORT_DESCRIPTION_LENGTH) {
    throw new BadRequestError(`description is too long (limit: ${MAX_REPORT_DESCRIPTION_LENGTH} characters)`);
  }
  const reason = REPORT_MESSAGE_TYPES.find((t) => t.key === input.reportType);
  if (!reason) throw new BadRequestError('Invalid report_type');
  if (input.reportType === 'other' && description.trim() === '') throw new BadRequestError('An explanation is required.');
  const channel = ctx.realm.moderationRequestChannelId != null
    ? await ctx.db.channel.findUnique({ where: { id: ctx.realm.moderationRequestChannelId } })
    : null;
  if (!channel) throw new BadRequestError('Message reporting is not enabled in this organization.');
  const { message } = await accessMessage(ctx.db, reporter, input.messageId);

  const reported = await ctx.db.user.findUniqueOrThrow({ where: { id: message.senderId } });
  const reportedMention = silentMention(reported);
  const reporterMention = silentMention(reporter);
  const when = globalTime(message.dateSent);
  const base = realmUrl(ctx.realm, ctx.config);
  let header = `${reporterMention} reported a message sent by ${reportedMention} at ${when}.`;
  let original: string;
  if (message.channelId != null) {
    const where = await ctx.db.channel.findUniqueOrThrow({ where: { id: message.channelId } });
    original = `Original message at ${messageLinkSyntax(where.id, where.name, message.topic, message.id, ctx.realm.emptyTopicDisplayName)}`;
  } else {
    const members = await ctx.db.directConversationMember.findMany({
      where: { conversationId: message.directConversationId! },
      include: { user: { select: { id: true, fullName: true } } },
      orderBy: { userId: 'asc' },
    });
    const users = members.map((m) => m.user);
    if (users.length > 2) {
      const others = users.filter((u) => u.id !== reported.id).map(silentMention);
      header = `${reporterMention} reported a message sent by ${reportedMention} to ${formatList(others)} at ${when}.`;
    } else if (reported.id === reporter.id) {
      // Reporting one's own 1:1 message names the other participant.
      const other = users.find((u) => u.id !== reporter.id) ?? reporter;
      header = `${reporterMention} reported a message sent by ${reportedMention} to ${silentMention(other)} at ${when}.`;
    }
    original = `[Original message](${messageUrl(base, message, null, users.map((u) => u.id))})`;
  }
  const snippet = codePointLength(message.content) > MAX_SNIPPET_LENGTH
    ? truncateCodePoints(message.content, MAX_SNIPPET_LENGTH - 20) + '\n[message truncated]'
    : message.content;
  const fence = unusedFence(snippet);
  const content = `${header}\n\`\`\`quote\n**${reason.name}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${snippet}\n${fence}\n`;
  const topic = channel.topicsPolicy === 'empty_topic_only' ? '' : `${reported.fullName} moderation`;
  return (await sendAsNotificationBot(ctx, { channelId: channel.id, topic }, content)).id;
}
