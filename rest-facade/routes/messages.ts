// Messages: sending, fetching, editing, reactions and flags.
import type { Route } from '../route.ts';
import { normalizeNarrow } from '../../resolvers/messages/narrow.ts';
import { toZulipMessage } from '../../resolvers/messages/wire.ts';

/** Legacy clients send narrows as [operator, operand] pairs; GraphQL takes objects. */
export const NARROW_PARAM = { decode: 'json', convert: normalizeNarrow } as const;

export const messageRoutes: Route[] = [
  {
    method: 'POST', path: '/messages', field: 'sendMessage',
    params: {
      to: { decode: 'jsonOrString' },
      topic: { aliases: ['subject'] },
    },
    shape: (id) => ({ id }),
  },
  {
    method: 'GET', path: '/messages', field: 'messages',
    params: { anchor: { decode: 'stringOrInt' }, narrow: NARROW_PARAM },
    shape: (w, p) => {
      const messages = w.messages.map(toZulipMessage);
      if (p.message_ids) return { messages, history_limited: w.historyLimited };
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
    shape: () => ({ detached_uploads: [] }),
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
];
