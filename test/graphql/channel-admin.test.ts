// Channel administration and topics through /graphql: updateChannel, archiveChannel, channelTopics,
// deleteTopic, the mark-as-read mutations, updateMessageFlagsForNarrow and setTopicVisibilityPolicy,
// with the same permission rules as the REST endpoints.
import { describe, expect, it } from 'vitest';
import { makeChannelFolder } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { fails, ok } from './helpers.ts';
import { useBot, useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { admin, moderator, alice, bob, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'guest']);
const bot = useBot(t, alice, { fullName: 'Botty' });
const boss = useOtherRealmOwner(t, 'other');
const OTHER = 'other.localhost';
let seq = 0;
const fresh = (prefix: string) => `${prefix}-${++seq}`;

const SUBSCRIBE = `mutation($name: String!, $inviteOnly: Boolean, $principals: JSON) {
  subscribe(subscriptions: [{ name: $name }], inviteOnly: $inviteOnly, principals: $principals) { subscribed } }`;
const SEND = `mutation($to: JSON!, $topic: String, $content: String!) { sendMessage(type: "channel", to: $to, topic: $topic, content: $content) }`;
const UPDATE = `mutation($id: Int!, $newName: String, $description: String, $isPrivate: Boolean, $isArchived: Boolean, $canSendMessageGroup: JSON, $folderId: Int, $topicsPolicy: String) {
  updateChannel(channelId: $id, newName: $newName, description: $description, isPrivate: $isPrivate, isArchived: $isArchived, canSendMessageGroup: $canSendMessageGroup, folderId: $folderId, topicsPolicy: $topicsPolicy) }`;
const ARCHIVE = 'mutation($id: Int!) { archiveChannel(channelId: $id) }';
const CHANNEL = 'query($id: Int!) { channel(channelId: $id) { name description inviteOnly isArchived canSendMessageGroup folderId } }';
const TOPICS = 'query($id: Int!, $allow: Boolean) { channelTopics(channelId: $id, allowEmptyTopicName: $allow) { maxId name } }';
const DELETE_TOPIC = 'mutation($id: Int!, $topic: String!) { deleteTopic(channelId: $id, topicName: $topic) }';
const FLAGS_NARROW = `mutation($anchor: String!, $before: Int!, $after: Int!, $narrow: [NarrowTermInput!], $op: String!, $flag: String!) {
  updateMessageFlagsForNarrow(anchor: $anchor, numBefore: $before, numAfter: $after, narrow: $narrow, op: $op, flag: $flag) {
    processedCount updatedCount firstProcessedId lastProcessedId foundOldest foundNewest } }`;
const USER_TOPIC = 'mutation($id: Int!, $topic: String!, $policy: Int!) { setTopicVisibilityPolicy(channelId: $id, topic: $topic, visibilityPolicy: $policy) }';

async function makeChannel(as: Credentials, name: string, variables: Record<string, unknown> = {}): Promise<number> {
  await ok(t, SUBSCRIBE, { name, ...variables }, as);
  return (await ok(t, 'query($n: String!) { channelIdByName(name: $n) }', { n: name }, as)).channelIdByName;
}
const send = async (as: Credentials, to: number, topic: string, content = 'hi') => (await ok(t, SEND, { to, topic, content }, as)).sendMessage as number;

describe('updateChannel', () => {
  it('follows the permission matrix and a refusal changes nothing', async () => {
    const id = await makeChannel(alice, fresh('gql-matrix'));
    const allowed: Credentials[] = [t.owner, admin, alice];
    for (const who of allowed) expect((await ok(t, UPDATE, { id, description: `by ${who.userId}` }, who)).updateChannel).toBe(true);
    for (const who of [moderator, bob, bot]) {
      const { error } = await fails(t, UPDATE, { id, description: 'nope' }, who);
      expect(error.message).toBe('You do not have permission to administer this channel.');
      expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    }
    const hiddenFromGuest = await fails(t, UPDATE, { id, description: 'nope' }, guest);
    expect(hiddenFromGuest.error.message).toBe('Invalid channel ID');
    const otherRealm = await fails(t, UPDATE, { id, description: 'nope' }, boss, OTHER);
    expect(otherRealm.error.message).toBe('Invalid channel ID');
    expect((await ok(t, CHANNEL, { id }, alice)).channel.description).toBe(`by ${alice.userId}`);
  });

  it('renames, changes privacy and permission settings', async () => {
    const id = await makeChannel(alice, fresh('gql-change'));
    const moderators = (await t.db.userGroup.findFirstOrThrow({ where: { name: 'role:moderators', realm: { users: { some: { id: alice.userId } } } } })).id;
    const newName = fresh('gql-renamed');
    await ok(t, UPDATE, { id, newName, isPrivate: true, canSendMessageGroup: { new: moderators } }, alice);
    expect((await ok(t, CHANNEL, { id }, alice)).channel).toMatchObject({ name: newName, inviteOnly: true, canSendMessageGroup: moderators });
    const stale = await fails(t, UPDATE, { id, canSendMessageGroup: { new: moderators, old: 12345 } }, alice);
    expect(stale.error.message).toBe("'old' value does not match the expected value.");
    const badPolicy = await fails(t, UPDATE, { id, topicsPolicy: 'sometimes' }, alice);
    expect(badPolicy.error.message).toBe('Invalid topics_policy');
  });

  it('takes a null folderId to mean no folder', async () => {
    const id = await makeChannel(alice, fresh('gql-folder'));
    const folder = await makeChannelFolder(t.client(t.owner), fresh('gql folder'));
    await ok(t, UPDATE, { id, folderId: folder }, alice);
    expect((await ok(t, CHANNEL, { id }, alice)).channel.folderId).toBe(folder);
    await ok(t, UPDATE, { id, folderId: null }, alice);
    expect((await ok(t, CHANNEL, { id }, alice)).channel.folderId).toBe(null);
  });
});

describe('archiveChannel', () => {
  it('archives for channel administrators only, and isArchived: false brings the channel back', async () => {
    const id = await makeChannel(alice, fresh('gql-archive'));
    const denied = await fails(t, ARCHIVE, { id }, bob);
    expect(denied.error.message).toBe('You do not have permission to administer this channel.');
    expect((await ok(t, ARCHIVE, { id }, alice)).archiveChannel).toBe(true);
    expect((await ok(t, CHANNEL, { id }, alice)).channel.isArchived).toBe(true);
    const sending = await fails(t, SEND, { to: id, topic: 't', content: 'late' }, alice);
    expect(sending.error.extensions?.code).toBe('BAD_REQUEST');
    await ok(t, UPDATE, { id, isArchived: false }, alice);
    expect((await ok(t, CHANNEL, { id }, alice)).channel.isArchived).toBe(false);
  });
});

describe('channelTopics and deleteTopic', () => {
  it('lists topics newest first and hides private channels', async () => {
    const id = await makeChannel(alice, fresh('gql-topics'));
    const a = await send(alice, id, 'alpha');
    const b = await send(alice, id, '');
    expect((await ok(t, TOPICS, { id }, bob)).channelTopics).toEqual([{ maxId: b, name: 'general chat' }, { maxId: a, name: 'alpha' }]);
    expect((await ok(t, TOPICS, { id, allow: true }, bob)).channelTopics[0].name).toBe('');
    const secret = await makeChannel(alice, fresh('gql-secret'), { inviteOnly: true });
    await send(alice, secret, 'classified');
    for (const who of [bob, admin, guest]) expect((await fails(t, TOPICS, { id: secret }, who)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, TOPICS, { id }, boss, OTHER)).error.message).toBe('Invalid channel ID');
  });

  it('deleteTopic is for administrators: others get UNAUTHORIZED_PRINCIPAL with HTTP 400', async () => {
    const id = await makeChannel(alice, fresh('gql-delete'));
    const m = await send(alice, id, 'gone');
    for (const who of [alice, bob, moderator, guest, bot]) {
      const { error } = await fails(t, DELETE_TOPIC, { id, topic: 'gone' }, who);
      expect(error.extensions).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', httpStatus: 400 });
    }
    expect(await t.db.message.count({ where: { id: m } })).toBe(1);
    expect((await ok(t, DELETE_TOPIC, { id, topic: 'gone' }, admin)).deleteTopic).toBe(true);
    expect(await t.db.message.count({ where: { id: m } })).toBe(0);
  });
});

describe('marking read', () => {
  it('markTopicAsRead, markChannelAsRead and markAllAsRead count what changed', async () => {
    const id = await makeChannel(alice, fresh('gql-read'), { principals: [alice.userId, bob.userId] });
    await send(alice, id, 'one');
    await send(alice, id, 'one');
    await send(alice, id, 'two');
    expect((await ok(t, 'mutation($id: Int!) { markTopicAsRead(channelId: $id, topicName: "ONE") }', { id }, bob)).markTopicAsRead).toBe(2);
    expect((await ok(t, 'mutation($id: Int!) { markChannelAsRead(channelId: $id) }', { id }, bob)).markChannelAsRead).toBe(1);
    await send(alice, id, 'three');
    expect((await ok(t, 'mutation { markAllAsRead }', {}, bob)).markAllAsRead).toBeGreaterThanOrEqual(1);
    expect(await t.db.userMessage.count({ where: { userId: bob.userId, read: false } })).toBe(0);
    const missing = await fails(t, 'mutation($id: Int!) { markTopicAsRead(channelId: $id, topicName: "none") }', { id }, bob);
    expect(missing.error.message).toBe("No such topic 'none'");
  });

  it('updateMessageFlagsForNarrow reports its window', async () => {
    const id = await makeChannel(alice, fresh('gql-narrow'), { principals: [alice.userId, bob.userId] });
    const ids = [await send(alice, id, 'w'), await send(alice, id, 'w'), await send(alice, id, 'w')];
    const narrow = [{ operator: 'channel', operand: id }];
    const res = (await ok(t, FLAGS_NARROW, { anchor: 'newest', before: 2, after: 0, narrow, op: 'add', flag: 'starred' }, bob)).updateMessageFlagsForNarrow;
    expect(res).toEqual({ processedCount: 2, updatedCount: 2, firstProcessedId: ids[1], lastProcessedId: ids[2], foundOldest: false, foundNewest: true });
    const secret = await makeChannel(alice, fresh('gql-narrow-secret'), { inviteOnly: true });
    // As Zulip (no access check in by_channel): Bob's own messages there, of which he has none.
    const hidden = (await ok(t, FLAGS_NARROW, { anchor: 'newest', before: 2, after: 0, narrow: [{ operator: 'channel', operand: secret }], op: 'add', flag: 'read' }, bob)).updateMessageFlagsForNarrow;
    expect(hidden).toMatchObject({ processedCount: 0, updatedCount: 0, firstProcessedId: null, lastProcessedId: null });
  });
});

describe('setTopicVisibilityPolicy', () => {
  it('stores the policy (even for a topic without messages) and validates it', async () => {
    const id = await makeChannel(alice, fresh('gql-mute'));
    expect((await ok(t, USER_TOPIC, { id, topic: 'quiet', policy: 1 }, bob)).setTopicVisibilityPolicy).toBe(true);
    expect((await t.db.userTopic.findFirstOrThrow({ where: { userId: bob.userId, channelId: id } })).visibilityPolicy).toBe(1);
    expect((await fails(t, USER_TOPIC, { id, topic: 'quiet', policy: 9 }, bob)).error.message).toBe('Invalid visibility_policy');
    const secret = await makeChannel(alice, fresh('gql-mute-secret'), { inviteOnly: true });
    expect((await fails(t, USER_TOPIC, { id: secret, topic: 'x', policy: 1 }, bob)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, USER_TOPIC, { id, topic: 'x', policy: 1 }, boss, OTHER)).error.message).toBe('Invalid channel ID');
  });
});
