// Markdown Zulip's notification-bot messages use to point at users, times and messages
// (zerver/lib/mention.py, timestamp.py, topic_link_util.py, url_encoding.py).
import type { Message } from '../../prisma/generated/client/client.ts';
import { encodeChannel, encodeHashComponent } from '../messages/markdown.ts';

export function silentMention(user: { id: number; fullName: string }): string {
  return `@_**${user.fullName}|${user.id}**`;
}

/** Zulip's format_list: `A`, `A and B`, `A, B, and C`. */
export function formatList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** A `<time:…>` global time, shown in each reader's time zone. */
export function globalTime(date: Date): string {
  return `<time:${date.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
}

const BROKEN_LINK_RE = /[`>*&[\]]|(\$\$)/g;
const ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', '$$': '&#36;&#36;', '[': '&#91;', ']': '&#93;' };

/** `#**channel>topic@id**`, or a plain Markdown link when a name would break that syntax. */
export function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number, emptyTopicName: string): string {
  return linkSyntax(channelId, channelName, topic, emptyTopicName, messageId);
}

/** `#**channel>topic**` (Zulip's get_stream_topic_link_syntax), with the same fallback. */
export function topicLinkSyntax(channelId: number, channelName: string, topic: string, emptyTopicName: string): string {
  return linkSyntax(channelId, channelName, topic, emptyTopicName, null);
}

function linkSyntax(channelId: number, channelName: string, topic: string, emptyTopicName: string, messageId: number | null): string {
  const broken = (s: string) => new RegExp(BROKEN_LINK_RE.source).test(s);
  const near = messageId == null ? '' : `@${messageId}`;
  if (!broken(topic) && !broken(channelName)) return `#**${channelName}>${topic}${near}**`;
  const escape = (s: string) => s.replace(BROKEN_LINK_RE, (m) => ESCAPES[m] ?? m);
  const link = `#narrow/channel/${encodeChannel(channelId, channelName)}/topic/${encodeHashComponent(topic)}${messageId == null ? '' : `/near/${messageId}`}`;
  return `[#${escape(channelName)} > ${escape(topic === '' ? emptyTopicName : topic)}${messageId == null ? '' : ' @ 💬'}](${link})`;
}

/** The narrow URL of a message: its topic, or its direct conversation. */
export function messageUrl(realmUrl: string, message: Pick<Message, 'id' | 'channelId' | 'topic'>, channelName: string | null, participantIds: number[]): string {
  if (message.channelId != null) {
    return `${realmUrl}/#narrow/channel/${encodeChannel(message.channelId, channelName ?? '')}/topic/${encodeHashComponent(message.topic)}/near/${message.id}`;
  }
  const ids = [...participantIds].sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}-${ids.length > 2 ? 'group' : 'dm'}/near/${message.id}`;
}

/** A fence of backticks longer than any fence inside `content`, so quoting it cannot break out. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1]!.length + 1);
  return '`'.repeat(length);
}
