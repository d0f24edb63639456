// Archived channels, as Zulip's access rules treat them: their messages stay readable but cannot
// be changed (has_message_access with is_modifying_message: editing, moving, deleting, reacting,
// "Invalid message(s)"); the topic list, topic deletion and marking read refuse them as
// access_stream_by_id does ("Invalid channel ID"); and a private channel's shared history is no
// longer reached beyond the messages received (can_access_stream_history goes through
// access_stream_common, which refuses archived channels), while a public channel's still is.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);
const boss = useOtherRealmOwner(t, 'elsewhere');
const channels = {} as Record<'attic' | 'vault' | 'hall' | 'lodge', number>;
const ids = {} as Record<'attic' | 'atticReceived' | 'vault' | 'vaultLate' | 'hall' | 'lodge', number>;

const EDIT = 'mutation($id: Int!, $content: String) { updateMessage(messageId: $id, content: $content) { detachedUploads { id } } }';
const REACT = 'mutation($messageId: Int!, $reaction: ReactionInput!) { addReaction(messageId: $messageId, reaction: $reaction) }';
const DELETE = 'mutation($id: Int!) { deleteMessage(messageId: $id) }';
const TOPICS = 'query($id: Int!) { channelTopics(channelId: $id) { name } }';
const NARROW = 'query($narrow: [NarrowTermInput!]) { messages(anchor: "newest", numBefore: 20, numAfter: 0, narrow: $narrow) { messages { id } } }';

const narrowRest = async (channel: string) => {
  const res = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: channel }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages.map((m: { id: number }) => m.id).filter((id: number) => Object.values(ids).includes(id));
};

beforeAll(async () => {
  const owner = t.ownerClient;
  channels.attic = await makeChannel(owner, 'attic', { principals: [alice.userId, bob.userId] });
  channels.vault = await makeChannel(owner, 'vault', { invite_only: true, history_public_to_subscribers: true, principals: [alice.userId] });
  channels.hall = await makeChannel(owner, 'hall', { principals: [alice.userId] });
  channels.lodge = await makeChannel(owner, 'lodge', { principals: [alice.userId, bob.userId] });
  ids.attic = await sendToChannel(t.client(bob), 'attic', 'boxes', 'bob wrote this');
  ids.atticReceived = await sendToChannel(t.client(alice), 'attic', 'boxes', 'alice wrote this');
  ids.vault = await sendToChannel(t.client(alice), 'vault', 'gold', 'before bob joined');
  ids.hall = await sendToChannel(t.client(alice), 'hall', 'doors', 'public history');
  ids.lodge = await sendToChannel(t.client(bob), 'lodge', 'fire', 'not archived');
  expect((await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [bob.userId] })).status).toBe(200);
  ids.vaultLate = await sendToChannel(t.client(alice), 'vault', 'gold', 'bob received this');
  for (const name of ['attic', 'vault', 'hall'] as const) expect((await owner.delete(`/streams/${channels[name]}`)).status).toBe(200);
});

describe('an archived channel\'s messages can be read but not changed', () => {
  it('editing, moving, deleting and reacting are "Invalid message(s)" (REST and GraphQL); reading works', async () => {
    const c = t.client(bob);
    const invalid = { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
    expect((await c.patch(`/messages/${ids.attic}`, { content: 'changed' })).body).toMatchObject(invalid);
    expect((await c.patch(`/messages/${ids.attic}`, { topic: 'moved' })).body).toMatchObject(invalid);
    expect((await c.patch(`/messages/${ids.attic}`, { stream_id: channels.lodge })).body).toMatchObject(invalid);
    expect((await c.post(`/messages/${ids.atticReceived}/reactions`, { emoji_name: 'octopus' })).body).toMatchObject(invalid);
    expect((await c.delete(`/messages/${ids.atticReceived}/reactions`, { emoji_name: 'octopus' })).body).toMatchObject(invalid);
    expect((await t.ownerClient.delete(`/messages/${ids.attic}`)).body).toMatchObject(invalid);
    expect((await fails(t, EDIT, { id: ids.attic, content: 'changed' }, bob)).error.message).toBe('Invalid message(s)');
    expect((await fails(t, REACT, { messageId: ids.attic, reaction: { emojiName: 'octopus' } }, bob)).error.message).toBe('Invalid message(s)');
    expect((await fails(t, DELETE, { id: ids.attic }, t.owner)).error.message).toBe('Invalid message(s)');
    // Nothing changed, and the message still reads.
    const read = await c.get(`/messages/${ids.attic}`);
    expect(read.status).toBe(200);
    expect(read.body.raw_content).toBe('bob wrote this');
    expect(read.body.message.reactions).toEqual([]);
    // Another organization gets the same answer; a channel not archived takes the changes.
    expect((await t.client(boss, boss.host).patch(`/messages/${ids.attic}`, { content: 'x' })).body.msg).toBe('Invalid message(s)');
    expect((await c.patch(`/messages/${ids.lodge}`, { content: 'changed' })).status).toBe(200);
    expect((await ok(t, REACT, { messageId: ids.lodge, reaction: { emojiName: 'octopus' } }, bob)).addReaction).toBe(true);
  });
});

describe('an archived channel\'s topics are refused as an inaccessible channel\'s', () => {
  it('the topic list, marking a topic read, deleting a topic: "Invalid channel ID" (REST and GraphQL)', async () => {
    const invalid = { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid channel ID' };
    expect((await t.client(bob).get(`/users/me/${channels.attic}/topics`)).body).toMatchObject(invalid);
    expect((await fails(t, TOPICS, { id: channels.attic }, bob)).error.message).toBe('Invalid channel ID');
    expect((await t.client(bob).post('/mark_topic_as_read', { stream_id: channels.attic, topic_name: 'boxes' })).body).toMatchObject(invalid);
    expect((await t.ownerClient.post(`/streams/${channels.attic}/delete_topic`, { topic_name: 'boxes' })).body).toMatchObject(invalid);
    expect((await t.client(boss, boss.host).get(`/users/me/${channels.attic}/topics`)).body).toMatchObject(invalid);
    // Not archived: listed.
    expect((await ok(t, TOPICS, { id: channels.lodge }, bob)).channelTopics).toEqual([{ name: 'fire' }]);
  });
});

describe('an archived private channel\'s shared history is not reached beyond the messages received', () => {
  it('a subscriber\'s channel narrow keeps what they received; a public archived channel keeps its history (REST and GraphQL)', async () => {
    expect(await narrowRest('vault')).toEqual([ids.vaultLate]);
    const graphql = await ok(t, NARROW, { narrow: [{ operator: 'channel', operand: channels.vault }] }, bob);
    expect(graphql.messages.messages.map((m: { id: number }) => m.id).filter((id: number) => id === ids.vault || id === ids.vaultLate)).toEqual([ids.vaultLate]);
    expect(await narrowRest('hall')).toEqual([ids.hall]);
    // By ID the message stays readable: has_message_access does not look at the archive for reading.
    expect((await t.client(bob).get(`/messages/${ids.vault}`)).status).toBe(200);
  });
});
