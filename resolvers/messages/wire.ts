// Zulip's message record on the wire (GET /messages, message events): snake_case, `subject` for the
// topic, and optional fields left out rather than null.
import type { MessageView } from './present.ts';

const WIRE_NAMES: Record<string, string> = {
  id: 'id', senderId: 'sender_id', senderFullName: 'sender_full_name', senderEmail: 'sender_email',
  senderRealmStr: 'sender_realm_str', avatarUrl: 'avatar_url', client: 'client', content: 'content',
  contentType: 'content_type', displayRecipient: 'display_recipient', editHistory: 'edit_history',
  isMeMessage: 'is_me_message', lastEditTimestamp: 'last_edit_timestamp', lastMovedTimestamp: 'last_moved_timestamp',
  reactions: 'reactions', recipientId: 'recipient_id', streamId: 'stream_id', topic: 'subject',
  topicLinks: 'topic_links', submessages: 'submessages', timestamp: 'timestamp', type: 'type', flags: 'flags',
  matchContent: 'match_content', matchSubject: 'match_subject',
};

const OMITTED_WHEN_NULL = new Set(['edit_history', 'last_edit_timestamp', 'last_moved_timestamp', 'stream_id', 'match_content', 'match_subject']);

/** Converts (a selection of) a MessageView to Zulip's wire record. */
export function toZulipMessage(view: Partial<MessageView>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for…in rather than Object.entries: no pair array per field, on every message of every page.
  for (const key in view) {
    const value = view[key as keyof MessageView];
    const name = WIRE_NAMES[key];
    if (!name || (value == null && OMITTED_WHEN_NULL.has(name))) continue;
    if (key === 'reactions') {
      out[name] = (value as MessageView['reactions']).map((r) => ({ emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId }));
    } else if (key === 'submessages') {
      // From a GraphQL selection (camelCase) or straight from the domain (already the wire shape).
      out[name] = (value as Record<string, unknown>[]).map((s) => ({
        id: s.id, message_id: s.message_id ?? s.messageId, sender_id: s.sender_id ?? s.senderId,
        msg_type: s.msg_type ?? s.msgType, content: s.content,
      }));
    } else out[name] = value;
  }
  return out;
}
