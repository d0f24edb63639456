// The messages area through /graphql: the operations POST/GET/PATCH/DELETE /messages, reactions and
// flags run, with the same rules and error codes the REST API answers with.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../support/client.ts';
import { fails, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let general: number;
let secret: number;
const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

const SEND = `mutation($type: String!, $to: JSON!, $topic: String, $content: String!) {
  sendMessage(type: $type, to: $to, topic: $topic, content: $content) }`;
const MESSAGE = `query($id: Int!, $applyMarkdown: Boolean) { message(messageId: $id, applyMarkdown: $applyMarkdown) {
  id senderId senderEmail senderFullName content contentType rawContent renderedContent displayRecipient editHistory
  lastEditTimestamp lastMovedTimestamp reactions { emojiName emojiCode reactionType userId } recipientId streamId topic
  timestamp type flags client } }`;
const MESSAGES = `query($anchor: String, $numBefore: Int, $numAfter: Int, $narrow: [NarrowTermInput!], $messageIds: [Int!], $includeAnchor: Boolean) {
  messages(anchor: $anchor, numBefore: $numBefore, numAfter: $numAfter, narrow: $narrow, messageIds: $messageIds, includeAnchor: $includeAnchor) {
    anchor foundAnchor foundNewest foundOldest historyLimited messages { id senderId topic streamId type content flags } } }`;
const UPDATE = `mutation($id: Int!, $content: String, $topic: String, $propagateMode: String) {
  updateMessage(messageId: $id, content: $content, topic: $topic, propagateMode: $propagateMode) { detachedUploads { id } } }`;
const DELETE = 'mutation($id: Int!) { deleteMessage(messageId: $id) }';
const ADD_REACTION = 'mutation($id: Int!, $r: ReactionInput!) { addReaction(messageId: $id, reaction: $r) }';
const REMOVE_REACTION = 'mutation($id: Int!, $r: ReactionInput!) { removeReaction(messageId: $id, reaction: $r) }';
const FLAGS = 'mutation($ids: [Int!]!, $op: String!, $flag: String!) { updateMessageFlags(messages: $ids, op: $op, flag: $flag) }';

async function send(as: Credentials, variables: { type: string; to: unknown; topic?: string; content: string }): Promise<number> {
  return (await ok(t, SEND, variables, as)).sendMessage;
}
const toChannel = (as: Credentials, to: string | number, topic: string, content: string) => send(as, { type: 'channel', to, topic, content });
const getMessage = async (as: Credentials, id: number, extra: Record<string, unknown> = {}) => (await ok(t, MESSAGE, { id, ...extra }, as)).message;

beforeAll(async () => {
  general = (await ok(t, '{ channelIdByName(name: "general") }', {}, t.owner)).channelIdByName;
  // A private channel of the owner and Bob; Alice and Carol are not in it.
  await ok(t, `mutation($p: JSON) { subscribe(subscriptions: [{ name: "secret" }], inviteOnly: true, principals: $p) { subscribed } }`,
    { p: [t.owner.userId, bob.userId] }, t.owner);
  secret = (await ok(t, '{ channelIdByName(name: "secret") }', {}, t.owner)).channelIdByName;
});

describe('sendMessage to a channel', () => {
  it('sends by channel name and by ID and returns increasing message IDs', async () => {
    const byName = await send(alice, { type: 'stream', to: 'general', topic: 'greetings', content: 'hello' });
    const byId = await send(alice, { type: 'channel', to: general, topic: 'greetings', content: 'again' });
    expect(byName).toBeGreaterThan(0);
    expect(byId).toBeGreaterThan(byName);
    const message = await getMessage(alice, byId);
    expect(message).toMatchObject({
      id: byId, senderId: alice.userId, senderFullName: 'Alice Liddell', senderEmail: alice.email,
      type: 'stream', streamId: general, recipientId: general, displayRecipient: 'general', topic: 'greetings',
      content: '<p>again</p>', contentType: 'text/html', rawContent: 'again', renderedContent: '<p>again</p>',
      editHistory: null, lastEditTimestamp: null, reactions: [],
    });
    expect(message.flags).toContain('read');
  });

  it('renders Markdown and flags a mentioned user', async () => {
    const id = await toChannel(alice, 'general', 'render', '**bold** @**Bob Builder**');
    const forBob = await getMessage(bob, id);
    expect(forBob.content).toContain('<strong>bold</strong>');
    expect(forBob.content).toContain(`data-user-id="${bob.userId}"`);
    expect(forBob.flags).toContain('mentioned');
    expect(forBob.flags).not.toContain('read');
    const raw = await getMessage(bob, id, { applyMarkdown: false });
    expect(raw.content).toBe('**bold** @**Bob Builder**');
    expect(raw.contentType).toBe('text/x-markdown');
  });

  it('reports an unknown channel name with STREAM_DOES_NOT_EXIST and the name in extensions.zulip', async () => {
    const { error } = await fails(t, SEND, { type: 'channel', to: 'nowhere', topic: 't', content: 'x' }, alice);
    expect(error.message).toBe("Channel 'nowhere' does not exist");
    expect(error.extensions).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', httpStatus: 400, zulip: { stream: 'nowhere' } });
  });

  it('reports a private channel the sender is not in, by ID, exactly like a missing channel ID', async () => {
    const privateOne = await fails(t, SEND, { type: 'channel', to: secret, topic: 't', content: 'x' }, alice);
    expect(privateOne.error.message).toBe(`Channel with ID '${secret}' does not exist`);
    expect(privateOne.error.extensions).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', httpStatus: 400, zulip: { stream_id: secret } });
    const missing = await fails(t, SEND, { type: 'channel', to: 999999, topic: 't', content: 'x' }, alice);
    expect(missing.error.extensions).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', zulip: { stream_id: 999999 } });
  });

  it('refuses a private channel the sender is not in, by name', async () => {
    const { error } = await fails(t, SEND, { type: 'channel', to: 'secret', topic: 't', content: 'x' }, alice);
    expect(error.message).toBe("Not authorized to send to channel 'secret'");
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });

  it('lets a subscriber post to the private channel', async () => {
    const id = await toChannel(bob, secret, 'plans', 'only for us');
    expect((await getMessage(t.owner, id)).displayRecipient).toBe('secret');
  });

  it('refuses empty content and an unknown message type', async () => {
    const empty = await fails(t, SEND, { type: 'channel', to: 'general', topic: 't', content: '   ' }, alice);
    expect(empty.error.message).toBe('Message must not be empty');
    expect(empty.error.extensions?.code).toBe('BAD_REQUEST');
    const badType = await fails(t, SEND, { type: 'carrier-pigeon', to: 'general', topic: 't', content: 'x' }, alice);
    expect(badType.error.message).toBe('Invalid message type');
  });
});

describe('sendMessage direct', () => {
  it('sends by user IDs and by emails to the same conversation', async () => {
    const byId = await send(alice, { type: 'direct', to: [bob.userId], content: 'hi bob' });
    const byEmail = await send(alice, { type: 'private', to: [bob.email], content: 'hi again' });
    const first = await getMessage(bob, byId);
    const second = await getMessage(bob, byEmail);
    expect(second.type).toBe('private');
    expect(second.streamId).toBeNull();
    expect(second.recipientId).toBe(first.recipientId);
    expect(second.displayRecipient.map((u: { id: number }) => u.id)).toEqual([alice.userId, bob.userId].sort((a, b) => a - b));
  });

  it('is read for the sender and unread for the recipient', async () => {
    const id = await send(alice, { type: 'direct', to: [bob.userId], content: 'flags' });
    expect((await getMessage(alice, id)).flags).toContain('read');
    expect((await getMessage(bob, id)).flags).not.toContain('read');
  });

  it('refuses unknown users', async () => {
    const { error } = await fails(t, SEND, { type: 'direct', to: [424242], content: 'x' }, alice);
    expect(error.message).toBe('Invalid user ID 424242');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    const byEmail = await fails(t, SEND, { type: 'direct', to: ['ghost@example.com'], content: 'x' }, alice);
    expect(byEmail.error.message).toBe("Invalid email 'ghost@example.com'");
  });
});

describe('messages', () => {
  let inTopic: number[];
  let elsewhere: number;

  beforeAll(async () => {
    inTopic = [];
    inTopic.push(await toChannel(alice, 'general', 'narrow-topic', 'one'));
    elsewhere = await toChannel(alice, 'general', 'other-topic', 'not this');
    inTopic.push(await toChannel(bob, 'general', 'narrow-topic', 'two'));
    inTopic.push(await toChannel(alice, general, 'Narrow-Topic', 'three (topic matched case-insensitively)'));
  });

  it('with anchor newest returns the latest messages, oldest first, with Zulip\'s pagination flags', async () => {
    const last = await toChannel(alice, 'general', 'newest', 'the newest one');
    const data = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 3, numAfter: 0 }, alice);
    const window = data.messages;
    expect(window.anchor).toBe(10_000_000_000_000_000);
    expect(window.foundNewest).toBe(true);
    expect(window.foundAnchor).toBe(false);
    expect(window.foundOldest).toBe(false);
    expect(window.historyLimited).toBe(false);
    expect(window.messages).toHaveLength(3);
    const ids = window.messages.map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.at(-1)).toBe(last);
  });

  it('with a channel + topic narrow returns only that topic', async () => {
    const data = await ok(t, MESSAGES, {
      anchor: 'newest', numBefore: 100, numAfter: 0,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'narrow-topic' }],
    }, carol);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).toEqual(inTopic);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).not.toContain(elsewhere);
    expect(data.messages.foundOldest).toBe(true);
    expect(data.messages.messages.every((m: { streamId: number }) => m.streamId === general)).toBe(true);
  });

  it('accepts the channel by ID and the legacy `stream` / `subject` operator names', async () => {
    const data = await ok(t, MESSAGES, {
      anchor: 'oldest', numBefore: 0, numAfter: 100,
      narrow: [{ operator: 'stream', operand: general }, { operator: 'subject', operand: 'narrow-topic' }],
    }, alice);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).toEqual(inTopic);
    expect(data.messages.foundNewest).toBe(true);
  });

  it('supports negated terms', async () => {
    const data = await ok(t, MESSAGES, {
      anchor: 'newest', numBefore: 100, numAfter: 0,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'narrow-topic', negated: true }],
    }, alice);
    const ids = data.messages.messages.map((m: { id: number }) => m.id);
    expect(ids).toContain(elsewhere);
    for (const id of inTopic) expect(ids).not.toContain(id);
  });

  it('centres on a message ID anchor', async () => {
    const data = await ok(t, MESSAGES, { anchor: String(inTopic[1]), numBefore: 1, numAfter: 1, narrow: [
      { operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'narrow-topic' }] }, alice);
    expect(data.messages.foundAnchor).toBe(true);
    expect(data.messages.anchor).toBe(inTopic[1]);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).toEqual(inTopic);
  });

  it('returns the accessible subset of messageIds', async () => {
    const hidden = await toChannel(bob, 'secret', 'hidden', 'alice may not read this');
    const data = await ok(t, MESSAGES, { messageIds: [inTopic[0], hidden, 987654321] }, alice);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).toEqual([inTopic[0]]);
    expect(data.messages.anchor).toBeNull();
  });

  it('refuses messageIds together with an anchor', async () => {
    const { error } = await fails(t, MESSAGES, { messageIds: [inTopic[0]], anchor: 'newest' }, alice);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('Unsupported parameter combination: anchor, message_ids');
  });

  it('requires numBefore and numAfter with REQUEST_VARIABLE_MISSING', async () => {
    const { error } = await fails(t, MESSAGES, { anchor: 'newest', numAfter: 0 }, alice);
    expect(error.message).toBe("Missing 'num_before' argument");
    expect(error.extensions).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', zulip: { var_name: 'num_before' } });
  });

  it('refuses more than 5000 messages with BAD_REQUEST', async () => {
    const { error, res } = await fails(t, MESSAGES, { anchor: 'newest', numBefore: 4000, numAfter: 1001 }, alice);
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(error.message).toBe('Too many messages requested (maximum 5000).');
    expect(res.status).toBe(200);
    const atLimit = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 5000, numAfter: 0 }, alice);
    expect(atLimit.messages.foundNewest).toBe(true);
  });

  it('answers a channel narrow on a private channel the viewer is not in with their own messages there (none), an unknown channel with BAD_NARROW', async () => {
    // Zulip's by_channel does not check access (get_stream_by_narrow_operand_access_unchecked);
    // ok_to_include_history keeps the narrow to the viewer's UserMessage rows.
    for (const operand of [secret, 'secret']) {
      const data = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'channel', operand }] }, alice);
      expect(data.messages.messages).toEqual([]);
    }
    const missing = await fails(t, MESSAGES, {
      anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'channel', operand: 'no-such-channel' }],
    }, alice);
    expect(missing.error.message).toBe('Invalid narrow operator: unknown channel no-such-channel');
    expect(missing.error.extensions).toMatchObject({ code: 'BAD_NARROW', httpStatus: 400, zulip: { desc: 'unknown channel no-such-channel' } });
  });

  it('lets a subscriber narrow to the private channel', async () => {
    const id = await toChannel(bob, 'secret', 'narrowed', 'for subscribers');
    const data = await ok(t, MESSAGES, {
      anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'channel', operand: secret }],
    }, bob);
    expect(data.messages.messages.map((m: { id: number }) => m.id)).toContain(id);
  });

  it('refuses an unknown narrow operator', async () => {
    const { error } = await fails(t, MESSAGES, {
      anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'bogus', operand: 'x' }],
    }, alice);
    expect(error.message).toBe('Invalid narrow operator: unknown operator bogus');
  });

  it('narrows to a direct conversation with `dm`, for its participants only', async () => {
    const dm = await send(alice, { type: 'direct', to: [bob.userId], content: 'dm narrow' });
    const forBob = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 50, numAfter: 0, narrow: [{ operator: 'dm', operand: [alice.userId] }] }, bob);
    expect(forBob.messages.messages.map((m: { id: number }) => m.id)).toContain(dm);
    expect(forBob.messages.messages.every((m: { type: string }) => m.type === 'private')).toBe(true);
    const forCarol = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 50, numAfter: 0, narrow: [{ operator: 'dm-including', operand: alice.userId }] }, carol);
    expect(forCarol.messages.messages.map((m: { id: number }) => m.id)).not.toContain(dm);
  });
});

describe('message', () => {
  it('returns one message with its Markdown source', async () => {
    const id = await toChannel(alice, 'general', 'single', 'just *one*');
    const message = await getMessage(bob, id);
    expect(message).toMatchObject({ id, rawContent: 'just *one*', content: '<p>just <em>one</em></p>', topic: 'single' });
  });

  it('refuses an unknown message with "Invalid message(s)"', async () => {
    const { error } = await fails(t, MESSAGE, { id: 987654321 }, alice);
    expect(error.message).toBe('Invalid message(s)');
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('refuses a direct message to a third party exactly like an unknown one', async () => {
    const id = await send(alice, { type: 'direct', to: [bob.userId], content: 'private' });
    const { error } = await fails(t, MESSAGE, { id }, carol);
    expect(error.message).toBe('Invalid message(s)');
  });

  it('refuses a private channel message to a non-subscriber', async () => {
    const id = await toChannel(bob, 'secret', 'x', 'hidden');
    const { error } = await fails(t, MESSAGE, { id }, alice);
    expect(error.message).toBe('Invalid message(s)');
  });

  it('shows public channel history to a user who did not receive it, as read and historical', async () => {
    const lateChannel = 'late-joiners';
    await ok(t, 'mutation($n: String!) { subscribe(subscriptions: [{ name: $n }]) { subscribed } }', { n: lateChannel }, alice);
    const id = await toChannel(alice, lateChannel, 'history', 'before carol');
    const message = await getMessage(carol, id);
    expect(message.flags).toEqual(['read', 'historical']);
  });
});

describe('updateMessage', () => {
  it('edits content, records the previous content in the edit history and sets lastEditTimestamp', async () => {
    const id = await toChannel(alice, 'general', 'editing', 'first draft');
    expect(await ok(t, UPDATE, { id, content: 'second **draft**' }, alice)).toEqual({ updateMessage: { detachedUploads: [] } });
    const message = await getMessage(bob, id);
    expect(message.content).toBe('<p>second <strong>draft</strong></p>');
    expect(message.rawContent).toBe('second **draft**');
    expect(message.lastEditTimestamp).toEqual(expect.any(Number));
    expect(message.editHistory).toHaveLength(1);
    expect(message.editHistory[0]).toMatchObject({
      user_id: alice.userId, prev_content: 'first draft', prev_rendered_content: '<p>first draft</p>', timestamp: expect.any(Number),
    });
  });

  it('moves to another topic, with prev_topic and topic in the edit history, most recent first', async () => {
    const id = await toChannel(alice, 'general', 'before-move', 'moving');
    await ok(t, UPDATE, { id, content: 'moving soon' }, alice);
    await ok(t, UPDATE, { id, topic: 'after-move' }, alice);
    const message = await getMessage(alice, id);
    expect(message.topic).toBe('after-move');
    expect(message.lastMovedTimestamp).toEqual(expect.any(Number));
    expect(message.editHistory).toHaveLength(2);
    expect(message.editHistory[0]).toMatchObject({ user_id: alice.userId, prev_topic: 'before-move', topic: 'after-move' });
    expect(message.editHistory[0]).not.toHaveProperty('prev_content');
    expect(message.editHistory[1]).toMatchObject({ prev_content: 'moving' });
    const narrowed = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 10, numAfter: 0,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'after-move' }] }, alice);
    // The notification bot's notice of the move follows the message (sendNotificationToNewThread defaults to true).
    expect(narrowed.messages.messages.map((m: { id: number }) => m.id)).toEqual([id, expect.any(Number)]);
    expect(narrowed.messages.messages[1].content).toContain('This topic was moved here from');
  });

  it('moves without notices when asked, and refuses a stale prevContentSha256', async () => {
    const id = await toChannel(alice, 'general', 'quiet-before', 'quietly');
    const QUIET = `mutation($id: Int!, $topic: String) {
      updateMessage(messageId: $id, topic: $topic, sendNotificationToOldThread: false, sendNotificationToNewThread: false) { detachedUploads { id } } }`;
    await ok(t, QUIET, { id, topic: 'quiet-after' }, alice);
    const narrowed = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 10, numAfter: 0,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'quiet-after' }] }, alice);
    expect(narrowed.messages.messages.map((m: { id: number }) => m.id)).toEqual([id]);
    const SHA = 'mutation($id: Int!, $content: String, $sha: String) { updateMessage(messageId: $id, content: $content, prevContentSha256: $sha) { detachedUploads { id } } }';
    const stale = createHash('sha256').update('not what it says').digest('hex');
    const { error } = await fails(t, SHA, { id, content: 'overwritten?', sha: stale }, alice);
    expect(error).toMatchObject({ message: "'prev_content_sha256' value does not match the expected value.", extensions: { code: 'BAD_REQUEST' } });
    const fresh = createHash('sha256').update('quietly').digest('hex');
    await ok(t, SHA, { id, content: 'edited knowingly', sha: fresh }, alice);
    expect((await getMessage(alice, id)).rawContent).toBe('edited knowingly');
  });

  it('moves the whole topic with propagateMode change_all', async () => {
    const a = await toChannel(alice, 'general', 'whole-topic', 'a');
    const b = await toChannel(bob, 'general', 'whole-topic', 'b');
    await ok(t, UPDATE, { id: a, topic: 'whole-topic-moved', propagateMode: 'change_all' }, alice);
    expect((await getMessage(alice, a)).topic).toBe('whole-topic-moved');
    expect((await getMessage(alice, b)).topic).toBe('whole-topic-moved');
  });

  it('refuses to edit the content of another user\'s message with BAD_REQUEST', async () => {
    const id = await toChannel(alice, 'general', 'not-yours', 'alice wrote this');
    const { error } = await fails(t, UPDATE, { id, content: 'bob rewrote it' }, bob);
    expect(error.message).toBe("You don't have permission to edit this message");
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect((await getMessage(alice, id)).rawContent).toBe('alice wrote this');
  });

  it('refuses an unknown message with "Invalid message(s)"', async () => {
    const { error } = await fails(t, UPDATE, { id: 987654321, content: 'x' }, alice);
    expect(error.message).toBe('Invalid message(s)');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });

  it('refuses a request that changes nothing, an invalid propagate mode, and topics on direct messages', async () => {
    const id = await toChannel(alice, 'general', 'nothing', 'x');
    expect((await fails(t, UPDATE, { id }, alice)).error.message).toBe('Nothing to change');
    expect((await fails(t, UPDATE, { id, topic: 'y', propagateMode: 'sideways' }, alice)).error.message).toBe('Invalid propagate_mode');
    const dm = await send(alice, { type: 'direct', to: [bob.userId], content: 'dm' });
    expect((await fails(t, UPDATE, { id: dm, topic: 'a topic' }, alice)).error.message).toBe('Direct messages cannot have topics.');
  });
});

describe('updateMessage: who has a resolve notice unread', () => {
  it('follows resolvedTopicNoticeAutoReadPolicy and topic follows; the resolver has it read', async () => {
    const FOLLOW = 'mutation($channel: Int!, $topic: String!) { setTopicVisibilityPolicy(channelId: $channel, topic: $topic, visibilityPolicy: 3) }';
    const POLICY = 'mutation($policy: String) { updateSettings(settings: { resolvedTopicNoticeAutoReadPolicy: $policy }) { resolvedTopicNoticeAutoReadPolicy } }';
    const NEWEST = `query($topic: JSON!) { messages(anchor: "newest", numBefore: 1, numAfter: 0,
      narrow: [{ operator: "channel", operand: "general" }, { operator: "topic", operand: $topic }]) { messages { id content } } }`;
    const id = await toChannel(alice, 'general', 'graphql question', 'solved?');
    await ok(t, FOLLOW, { channel: general, topic: 'graphql question' }, bob);
    await ok(t, POLICY, { policy: 'never' }, carol);
    try {
      await ok(t, UPDATE, { id, topic: '✔ graphql question', propagateMode: 'change_all' }, alice);
      const [notice] = (await ok(t, NEWEST, { topic: '✔ graphql question' }, alice)).messages.messages;
      expect(notice.content).toContain('has marked this topic as resolved.');
      // Bob follows the topic (except_followed, the default), Carol never reads them; Alice resolved it.
      for (const [who, read] of [[alice, true], [bob, false], [carol, false]] as const) {
        expect((await getMessage(who, notice.id)).flags.includes('read'), who.email).toBe(read);
      }
    } finally {
      await ok(t, POLICY, { policy: 'except_followed' }, carol);
    }
  });

  it('unresolving within a minute deletes the resolve notice instead of adding one', async () => {
    const id = await toChannel(alice, 'general', 'graphql undo', 'solved?');
    await ok(t, UPDATE, { id, topic: '✔ graphql undo', propagateMode: 'change_all' }, alice);
    const topicIds = async (topic: string) => (await ok(t, MESSAGES, { anchor: 'newest', numBefore: 10, numAfter: 0,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: topic }] }, bob)).messages.messages.map((m: { id: number }) => m.id);
    const [, notice] = await topicIds('✔ graphql undo');
    await ok(t, UPDATE, { id, topic: 'graphql undo', propagateMode: 'change_all' }, alice);
    expect(await topicIds('graphql undo')).toEqual([id]);
    expect((await fails(t, MESSAGE, { id: notice }, bob)).error.message).toBe('Invalid message(s)');
  });
});

describe('addReaction / removeReaction', () => {
  let id: number;
  beforeAll(async () => { id = await toChannel(alice, 'general', 'reactions', 'react to me'); });

  it('adds a Unicode emoji reaction by name', async () => {
    expect(await ok(t, ADD_REACTION, { id, r: { emojiName: 'smile' } }, bob)).toEqual({ addReaction: true });
    const message = await getMessage(alice, id);
    expect(message.reactions).toEqual([{ emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji', userId: bob.userId }]);
  });

  it('refuses the same reaction twice with REACTION_ALREADY_EXISTS', async () => {
    const { error } = await fails(t, ADD_REACTION, { id, r: { emojiName: 'smile' } }, bob);
    expect(error.message).toBe('Reaction already exists.');
    expect(error.extensions).toMatchObject({ code: 'REACTION_ALREADY_EXISTS', httpStatus: 400 });
  });

  it('lets another user add the same emoji', async () => {
    await ok(t, ADD_REACTION, { id, r: { emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' } }, alice);
    expect((await getMessage(alice, id)).reactions.map((r: { userId: number }) => r.userId)).toEqual([bob.userId, alice.userId]);
  });

  it('removes a reaction, then refuses to remove it again with REACTION_DOES_NOT_EXIST', async () => {
    expect(await ok(t, REMOVE_REACTION, { id, r: { emojiName: 'smile' } }, bob)).toEqual({ removeReaction: true });
    expect((await getMessage(alice, id)).reactions.map((r: { userId: number }) => r.userId)).toEqual([alice.userId]);
    const { error } = await fails(t, REMOVE_REACTION, { id, r: { emojiName: 'smile' } }, bob);
    expect(error.message).toBe("Reaction doesn't exist.");
    expect(error.extensions).toMatchObject({ code: 'REACTION_DOES_NOT_EXIST', httpStatus: 400 });
  });

  it('removes by emoji code', async () => {
    await ok(t, REMOVE_REACTION, { id, r: { emojiCode: '1f604', reactionType: 'unicode_emoji' } }, alice);
    expect((await getMessage(alice, id)).reactions).toEqual([]);
  });

  it('refuses an unknown emoji and a removal that names no emoji', async () => {
    const unknown = await fails(t, ADD_REACTION, { id, r: { emojiName: 'not_an_emoji_at_all' } }, bob);
    expect(unknown.error.message).toBe("Emoji 'not_an_emoji_at_all' does not exist");
    expect(unknown.error.extensions?.code).toBe('BAD_REQUEST');
    const nothing = await fails(t, REMOVE_REACTION, { id, r: {} }, bob);
    expect(nothing.error.message).toBe('At least one of the following arguments must be present: emoji_name, emoji_code');
  });

  it('refuses messages the user may not read with "Invalid message(s)"', async () => {
    const hidden = await toChannel(bob, 'secret', 'x', 'hidden');
    const { error } = await fails(t, ADD_REACTION, { id: hidden, r: { emojiName: 'smile' } }, alice);
    expect(error.message).toBe('Invalid message(s)');
  });
});

describe('updateMessageFlags', () => {
  it('stars and unstars messages and returns the IDs given', async () => {
    const id = await toChannel(alice, 'general', 'flags', 'star me');
    expect(await ok(t, FLAGS, { ids: [id], op: 'add', flag: 'starred' }, bob)).toEqual({ updateMessageFlags: [id] });
    expect((await getMessage(bob, id)).flags).toContain('starred');
    expect((await getMessage(alice, id)).flags).not.toContain('starred');
    await ok(t, FLAGS, { ids: [id], op: 'remove', flag: 'starred' }, bob);
    expect((await getMessage(bob, id)).flags).not.toContain('starred');
  });

  it('marks messages read', async () => {
    const id = await toChannel(alice, 'general', 'flags', 'read me');
    expect((await getMessage(bob, id)).flags).not.toContain('read');
    await ok(t, FLAGS, { ids: [id], op: 'add', flag: 'read' }, bob);
    expect((await getMessage(bob, id)).flags).toContain('read');
    const unread = await ok(t, MESSAGES, { anchor: 'newest', numBefore: 100, numAfter: 0, narrow: [{ operator: 'is', operand: 'unread' }] }, bob);
    expect(unread.messages.messages.map((m: { id: number }) => m.id)).not.toContain(id);
  });

  it('refuses unknown flags, flags that follow from the message, and unknown operations', async () => {
    const id = await toChannel(alice, 'general', 'flags', 'x');
    expect((await fails(t, FLAGS, { ids: [id], op: 'add', flag: 'bogus' }, bob)).error.message).toBe("Invalid flag: 'bogus'");
    expect((await fails(t, FLAGS, { ids: [id], op: 'add', flag: 'mentioned' }, bob)).error.message).toBe("Flag not editable: 'mentioned'");
    expect((await fails(t, FLAGS, { ids: [id], op: 'toggle', flag: 'read' }, bob)).error.message).toBe("Invalid message flag operation: 'toggle'");
  });

  it('refuses messages the user may not read with "Invalid message(s)"', async () => {
    const hidden = await send(alice, { type: 'direct', to: [bob.userId], content: 'not for carol' });
    const { error } = await fails(t, FLAGS, { ids: [hidden], op: 'add', flag: 'starred' }, carol);
    expect(error.message).toBe('Invalid message(s)');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });
});

describe('deleteMessage', () => {
  it('lets the sender delete their own message, which is then gone', async () => {
    const id = await toChannel(alice, 'general', 'deleting', 'delete me');
    expect(await ok(t, DELETE, { id }, alice)).toEqual({ deleteMessage: true });
    expect((await fails(t, MESSAGE, { id }, alice)).error.message).toBe('Invalid message(s)');
    expect((await fails(t, MESSAGE, { id }, bob)).error.message).toBe('Invalid message(s)');
  });

  it('refuses to let a member delete another user\'s message', async () => {
    const id = await toChannel(alice, 'general', 'deleting', 'not yours to delete');
    const { error } = await fails(t, DELETE, { id }, bob);
    expect(error.message).toBe("You don't have permission to delete this message");
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect((await getMessage(alice, id)).id).toBe(id);
  });

  it('lets an administrator delete anyone\'s message', async () => {
    const id = await toChannel(alice, 'general', 'deleting', 'the owner may delete this');
    await ok(t, DELETE, { id }, t.owner);
    expect((await fails(t, MESSAGE, { id }, alice)).error.message).toBe('Invalid message(s)');
  });

  it('refuses an unknown message with "Invalid message(s)"', async () => {
    const { error } = await fails(t, DELETE, { id: 987654321 }, alice);
    expect(error.message).toBe('Invalid message(s)');
  });
});
