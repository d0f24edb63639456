// A message's edit history (Zulip's get_message_edit_history and fill_edit_history_entries): the
// stored entries (most recent first, only what each edit changed) turned into snapshots of the
// message after each edit, oldest first, and filtered by the organization's
// message_edit_history_visibility_policy, which also governs `edit_history` in message records.
import type { Realm, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { toUnixSeconds } from '../time.ts';
import { accessMessage } from './access.ts';
import { highlightHtmlDifferences } from './html-diff.ts';

/** Zulip's MessageEditHistoryVisibilityPolicyEnum, by API name. */
export const EDIT_HISTORY_POLICIES = ['all', 'moves', 'none'] as const;
export type EditHistoryPolicy = (typeof EDIT_HISTORY_POLICIES)[number];

export function editHistoryPolicy(realm: Pick<Realm, 'messageEditHistoryVisibilityPolicy'>): EditHistoryPolicy {
  return realm.messageEditHistoryVisibilityPolicy as EditHistoryPolicy;
}

/** One stored entry (zulip's EditHistoryEvent): only the aspects the edit changed. */
export interface StoredEdit {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

/** The message after one edit (the first is the message as sent), in Zulip's wire shape. */
export interface MessageSnapshot {
  user_id: number | null;
  timestamp: number;
  topic: string;
  content: string;
  rendered_content: string;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

/**
 * Zulip's visible_edit_history_for_message: with `moves`, content edits disappear, except that an
 * edit that also moved the message keeps the move and loses the content.
 */
export function visibleEditHistory<T extends object>(policy: EditHistoryPolicy, entries: T[]): T[] {
  if (policy === 'all') return entries;
  if (policy === 'none') return [];
  const visible: T[] = [];
  for (const entry of entries) {
    if ('prev_content' in entry) {
      if (!('prev_topic' in entry)) continue;
      const { prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...rest } = entry as Record<string, unknown>;
      visible.push(rest as T);
    } else visible.push(entry);
  }
  return visible;
}

export async function messageHistory(ctx: Context, viewer: User, messageId: number, allowEmptyTopicName: boolean): Promise<MessageSnapshot[]> {
  const policy = editHistoryPolicy(ctx.realm);
  if (policy === 'none') throw new BadRequestError('Message edit history is disabled in this organization');
  const { message } = await accessMessage(ctx.db, viewer, messageId);
  const isChannel = message.channelId != null;
  const topicName = (topic: string) => (!isChannel ? '' : topic === '' && !allowEmptyTopicName ? ctx.realm.emptyTopicDisplayName : topic);

  // Walk back from the current state: each entry holds what its edit replaced.
  const stored = (Array.isArray(message.editHistory) ? message.editHistory : []) as unknown as StoredEdit[];
  let content = message.content;
  let rendered = message.renderedContent;
  let topic = topicName(message.topic);
  const snapshots: MessageSnapshot[] = [];
  for (const entry of stored) {
    const snapshot: MessageSnapshot = { content, rendered_content: rendered, timestamp: entry.timestamp, topic, user_id: entry.user_id };
    if (entry.prev_topic !== undefined) {
      topic = topicName(entry.prev_topic);
      snapshot.prev_topic = topic;
    }
    if (entry.prev_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content ?? '';
      snapshot.content_html_diff = highlightHtmlDifferences(entry.prev_rendered_content ?? '', rendered);
      content = entry.prev_content;
      rendered = entry.prev_rendered_content ?? '';
    }
    if (entry.prev_stream !== undefined) {
      snapshot.prev_stream = entry.prev_stream;
      snapshot.stream = entry.stream!;
    }
    snapshots.push(snapshot);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: toUnixSeconds(message.dateSent), topic, user_id: message.senderId });
  return visibleEditHistory(policy, snapshots).reverse();
}
