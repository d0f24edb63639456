// Messages: sending, fetching, editing, reactions and flags.
import { snakeKeys, type Route } from '../route.ts';
import { normalizeNarrow } from '../../resolvers/messages/narrow.ts';
import { toZulipMessage } from '../../resolvers/messages/wire.ts';

/** Legacy clients send narrows as [operator, operand] pairs; GraphQL takes objects. */
export const NARROW_PARAM = { decode: 'json', convert: normalizeNarrow } as const;

export const messageRoutes: Route[] = [
  {
    method: 'POST', path: '/messages', field: 'postMessage',
    params: {
      to: { decode: 'jsonOrString' },
      topic: { aliases: ['subject'] },
    },
    // Present only where sending changed the sender's policy.
    shape: ({ id, automaticNewVisibilityPolicy }) => (automaticNewVisibilityPolicy == null ? { id } : { id, automatic_new_visibility_policy: automaticNewVisibilityPolicy }),
  },
  {
    method: 'GET', path: '/messages', field: 'messages',
    params: { anchor: { decode: 'stringOrInt' }, narrow: NARROW_PARAM },
    shape: (w, p) => {
      const messages = w.messages.map(toZulipMessage);
      // Zulip leaves out only the anchor for explicit IDs; the found_* flags come, all false.
      if (p.message_ids) return { messages, history_limited: w.historyLimited, found_anchor: w.foundAnchor, found_oldest: w.foundOldest, found_newest: w.foundNewest };
      return {
        anchor: w.anchor, found_anchor: w.foundAnchor, found_newest: w.foundNewest,
        found_oldest: w.foundOldest, history_limited: w.historyLimited, messages,
      };
    },
  },
  {
    method: 'GET', path: '/messages/{message_id}', field: 'message',
    shape: ({ rawContent, ...message }) => ({ raw_content: rawContent, message: toZulipMessage(message) }),
  },
  {
    method: 'PATCH', path: '/messages/{message_id}', field: 'updateMessage',
    params: { topic: { aliases: ['subject'] } },
    shape: (result) => ({ detached_uploads: snakeKeys(result.detachedUploads) }),
  },
  { method: 'DELETE', path: '/messages/{message_id}', field: 'deleteMessage' },
  {
    method: 'POST', path: '/messages/{message_id}/reactions', field: 'addReaction',
    params: { reaction: { flatten: true }, emoji_name: { arg: 'reaction.emojiName', required: true } },
  },
  {
    method: 'DELETE', path: '/messages/{message_id}/reactions', field: 'removeReaction',
    params: { reaction: { flatten: true } },
  },
  {
    method: 'POST', path: '/messages/flags', field: 'updateMessageFlags',
    shape: (messages) => ({ messages, ignored_because_not_subscribed_channels: [] }),
  },
  {
    method: 'GET', path: '/messages/{message_id}/history', field: 'messageHistory',
    // Snapshots carry only the aspects each edit changed; Zulip leaves the other keys out.
    shape: (snapshots: Record<string, unknown>[]) => ({
      message_history: snapshots.map((s) => Object.fromEntries(Object.entries(snakeKeys<Record<string, unknown>>(s)).filter(([k, v]) => v !== null || k === 'user_id'))),
    }),
  },
  { method: 'GET', path: '/messages/{message_id}/read_receipts', field: 'readReceipts', shape: (userIds) => ({ user_ids: userIds }) },
  { method: 'POST', path: '/messages/render', field: 'renderMessage', shape: (rendered) => ({ rendered }) },
  {
    method: 'GET', path: '/messages/matches_narrow', field: 'messagesMatchingNarrow', params: { narrow: NARROW_PARAM },
    shape: (matches: { messageId: number; matchContent: string; matchSubject: string }[]) => ({
      messages: Object.fromEntries(matches.map((m) => [String(m.messageId), { match_content: m.matchContent, match_subject: m.matchSubject }])),
    }),
  },
  { method: 'POST', path: '/messages/{message_id}/typing', field: 'setEditTypingStatus' },
  { method: 'POST', path: '/submessage', field: 'sendSubmessage', shape: () => ({}) },
];
